package store

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// A zone whose every country lists states, as many as the 1 MiB body limit
// lets through, would be a storage item far beyond DynamoDB's 400 KB: the
// rules must refuse it (naming the bound) before the write fails with a 500.
func TestAZoneAsLargeAsTheBodyAllowsIsRefusedNotA5xx(t *testing.T) {
	env := testenv.New(t, []app.Area{Area})
	env.Account(t, testAccount, "co1")
	token, _ := env.Token(t, testAccount)
	env.Seed(t, Area, `{"shippingZones":[{"_id":"`+testZone+`","altId":"`+testAccount+`","name":"Old","countries":[{"code":"US"}]}]}`)

	statesPerCountry := 260 // 247 countries of 260 states: just under 1 MiB of JSON
	countries := make([]map[string]any, len(validate.CountryCodes))
	for i, c := range validate.CountryCodes {
		states := make([]map[string]string, statesPerCountry)
		for j := range states {
			states[j] = map[string]string{"code": stateCodes[j]}
		}
		countries[i] = map[string]any{"code": c, "states": states}
	}
	body, err := json.Marshal(map[string]any{"countries": countries})
	require.NoError(t, err)
	require.Less(t, len(body), 1<<20, "the body fits the pipeline's limit")

	resp := env.Do(t, testenv.Request{Method: "PUT", Path: "/store/shipping-zone/" + testZone, Token: token, Body: body})
	msg := resp.RequireError(t, http.StatusUnprocessableEntity)
	assert.Contains(t, msg, "countries must list at most 588 states in all")

	t.Run("every state code once in all is accepted", func(t *testing.T) {
		var countries []map[string]any
		for i := 0; i*100 < len(stateCodes); i++ {
			var states []map[string]string
			for _, s := range stateCodes[i*100 : min((i+1)*100, len(stateCodes))] {
				states = append(states, map[string]string{"code": s})
			}
			countries = append(countries, map[string]any{"code": validate.CountryCodes[i], "states": states})
		}
		resp := env.Do(t, testenv.Request{Method: "PUT", Path: "/store/shipping-zone/" + testZone, Token: token, Body: map[string]any{"countries": countries}})
		assert.Equal(t, http.StatusOK, resp.Status, "body: %.300s", resp.Body)
	})
}
