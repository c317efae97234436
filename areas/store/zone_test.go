package store_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/store"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
)

func zonePath(id string) string { return "/store/shipping-zone/" + id }

func putZone(t *testing.T, env *testenv.Env, token, id string, body any) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "PUT", Path: zonePath(id), Token: token, Body: body})
}

type zoneAnswer struct {
	Status  bool   `json:"status"`
	Message string `json:"message"`
	Data    struct {
		store.Zone
		ShippingRates []store.Rate `json:"shippingRates"`
	} `json:"data"`
}

func countries(codes ...string) []map[string]any {
	out := make([]map[string]any, len(codes))
	for i, c := range codes {
		out[i] = map[string]any{"code": c, "states": []any{}}
	}
	return out
}

func TestUpdateZoneRenamesAndReplacesCountries(t *testing.T) {
	env, token, s := newEnv(t)
	env.Clock.Advance(time.Hour)
	now := clock.Timestamp(env.Clock.Now())

	resp := putZone(t, env, token, zoneA1, map[string]any{
		"altId": acctA, "altType": "account",
		"name": "  North America  ",
		"countries": []any{
			map[string]any{"code": "US", "states": []any{map[string]any{"code": "CA"}, map[string]any{"code": "NY"}}},
			map[string]any{"code": "CA"},
			map[string]any{"code": "JP", "states": []any{map[string]any{"code": "JP-47"}}},
			map[string]any{"code": "PT", "states": []any{map[string]any{"code": "PT-18"}}},
		},
	})
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)

	t.Run("the answer is the updated zone with its rates", func(t *testing.T) {
		var got zoneAnswer
		resp.JSON(t, &got)
		assert.True(t, got.Status)
		assert.NotEmpty(t, got.Message)
		assert.Equal(t, zoneA1, got.Data.ID)
		assert.Equal(t, acctA, got.Data.AltID)
		assert.Equal(t, "account", got.Data.AltType)
		assert.Equal(t, "North America", got.Data.Name)
		assert.Equal(t, created, got.Data.CreatedAt)
		assert.Equal(t, now, got.Data.UpdatedAt)
		require.Len(t, got.Data.ShippingRates, 3)
		assert.Equal(t, rateA1Plain, got.Data.ShippingRates[0].ID)
		assert.Equal(t, zoneA1, got.Data.ShippingRates[0].ShippingZoneID)
	})
	t.Run("the answer has the public API's field names", func(t *testing.T) {
		data := resp.Map(t)["data"].(map[string]any)
		for _, k := range []string{"_id", "altId", "altType", "name", "countries", "shippingRates", "createdAt", "updatedAt"} {
			assert.Contains(t, data, k)
		}
		ca := data["countries"].([]any)[1].(map[string]any)
		assert.Equal(t, []any{}, ca["states"], "a country without states lists [] (all states)")
	})
	t.Run("the zone is stored", func(t *testing.T) {
		z := getZone(t, s, acctA, zoneA1)
		assert.Equal(t, "North America", z.Name)
		assert.Equal(t, []store.Country{
			{Code: "US", States: []store.State{{Code: "CA"}, {Code: "NY"}}},
			{Code: "CA", States: []store.State{}},
			{Code: "JP", States: []store.State{{Code: "JP-47"}}},
			{Code: "PT", States: []store.State{{Code: "PT-18"}}},
		}, z.Countries)
		assert.Equal(t, now, z.UpdatedAt)
	})
}

func TestUpdateZoneChangesOnlyWhatIsSent(t *testing.T) {
	env, token, s := newEnv(t)
	before := getZone(t, s, acctA, zoneA2)

	t.Run("a new name keeps the countries", func(t *testing.T) {
		require.Equal(t, http.StatusOK, putZone(t, env, token, zoneA2, map[string]any{"name": "EU"}).Status)
		z := getZone(t, s, acctA, zoneA2)
		assert.Equal(t, "EU", z.Name)
		assert.Equal(t, before.Countries, z.Countries)
	})
	t.Run("new countries keep the name", func(t *testing.T) {
		require.Equal(t, http.StatusOK, putZone(t, env, token, zoneA2, map[string]any{"countries": countries("FR")}).Status)
		z := getZone(t, s, acctA, zoneA2)
		assert.Equal(t, "EU", z.Name)
		assert.Equal(t, []store.Country{{Code: "FR", States: []store.State{}}}, z.Countries)
	})
	t.Run("an empty body changes nothing and answers the zone", func(t *testing.T) {
		stored := getZone(t, s, acctA, zoneA2)
		env.Clock.Advance(time.Minute)
		resp := putZone(t, env, token, zoneA2, map[string]any{})
		require.Equal(t, http.StatusOK, resp.Status)
		assert.Equal(t, stored, getZone(t, s, acctA, zoneA2), "not even updatedAt moves")
	})
}

func TestUpdateZoneRejectsBadBodies(t *testing.T) {
	env, token, s := newEnv(t)
	before := getZone(t, s, acctA, zoneA1)
	tooMany := make([]map[string]any, 248)
	for i := range tooMany {
		tooMany[i] = map[string]any{"code": "US"}
	}
	state := func(code any) map[string]any { return map[string]any{"code": code} }

	cases := []struct {
		name string
		body any
		want []string
	}{
		{"name must not be blank", map[string]any{"name": "  "}, []string{"name must not be blank"}},
		{"name must not be null", map[string]any{"name": nil}, []string{"name must not be null"}},
		{"name must be a string", map[string]any{"name": 5}, []string{"name must be a string"}},
		{"name is bounded", map[string]any{"name": strings.Repeat("n", 201)}, []string{"name must be at most 200 characters"}},
		{"countries must not be null", map[string]any{"countries": nil}, []string{"countries must not be null"}},
		{"countries must be an array", map[string]any{"countries": "US"}, []string{"countries must be an array"}},
		{"countries must not be empty", map[string]any{"countries": []any{}}, []string{"countries must list at least one country"}},
		{"countries are bounded", map[string]any{"countries": tooMany}, []string{"countries must list at most 247 countries"}},
		{"a country must be an object", map[string]any{"countries": []any{"US"}}, []string{"countries[0] must be an object"}},
		{"a country code is required", map[string]any{"countries": []any{map[string]any{"states": []any{}}}}, []string{"countries[0].code is required"}},
		{"a country code must be listed", map[string]any{"countries": countries("US", "ZZ")}, []string{"countries[1].code must be one of the allowed two-letter country codes"}},
		{"a country code is upper case", map[string]any{"countries": countries("us")}, []string{"countries[0].code must be one of the allowed"}},
		{"a country code is text, not a number", map[string]any{"countries": []any{map[string]any{"code": 840}}}, []string{"countries[0].code must be a string"}},
		{"a country may appear once", map[string]any{"countries": countries("US", "CA", "US")}, []string{"countries[2].code US repeats countries[0].code"}},
		{"a country has no other properties", map[string]any{"countries": []any{map[string]any{"code": "US", "zip": "1"}}}, []string{"property countries[0].zip should not exist"}},
		{"states must be an array", map[string]any{"countries": []any{map[string]any{"code": "US", "states": "CA"}}}, []string{"countries[0].states must be an array"}},
		{"a state code must be listed", map[string]any{"countries": []any{map[string]any{"code": "US", "states": []any{state("CA"), state("XX")}}}}, []string{"countries[0].states[1].code must be one of the allowed state codes"}},
		{"JP-48 is past the JP range", map[string]any{"countries": []any{map[string]any{"code": "JP", "states": []any{state("JP-48")}}}}, []string{"countries[0].states[0].code must be one of the allowed state codes"}},
		{"PT-19 is past the PT range", map[string]any{"countries": []any{map[string]any{"code": "PT", "states": []any{state("PT-19")}}}}, []string{"countries[0].states[0].code must be one of the allowed state codes"}},
		{"a state code is required", map[string]any{"countries": []any{map[string]any{"code": "US", "states": []any{map[string]any{}}}}}, []string{"countries[0].states[0].code is required"}},
		{"a state code must be a string", map[string]any{"countries": []any{map[string]any{"code": "US", "states": []any{state(1)}}}}, []string{"countries[0].states[0].code must be a string"}},
		{"a state may appear once", map[string]any{"countries": []any{map[string]any{"code": "US", "states": []any{state("CA"), state("NY"), state("CA")}}}}, []string{"countries[0].states[2].code CA repeats countries[0].states[0].code"}},
		{"altType must be account", map[string]any{"altType": "agency", "name": "X"}, []string{"altType must be one of: account"}},
		{"altId must be an id", map[string]any{"altId": "a b", "name": "X"}, []string{"altId must be an id"}},
		{"the body has no other properties", map[string]any{"name": "X", "shippingRates": []any{}}, []string{"property shippingRates should not exist"}},
		{"locationId points at altId and altType", map[string]any{"locationId": acctA, "name": "X"}, []string{"property locationId should not exist (this body names its account by altId, with altType account)"}},
		{"every broken rule is named in one answer", map[string]any{"name": "", "countries": countries("US", "QQ", "US")},
			[]string{"name must not be blank", "countries[1].code", "countries[2].code US repeats"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := putZone(t, env, token, zoneA1, tc.body).RequireError(t, http.StatusUnprocessableEntity)
			for _, want := range tc.want {
				assert.Contains(t, msg, want)
			}
			assert.Equal(t, before, getZone(t, s, acctA, zoneA1), "the zone is unchanged")
		})
	}
	t.Run("a zone id that is not hexadecimal is 422 naming it", func(t *testing.T) {
		msg := putZone(t, env, token, "zone-1", map[string]any{"name": "X"}).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "shippingZoneId must be a 24-character hexadecimal id")
	})
	t.Run("a bad zone id is named with the body's broken rules", func(t *testing.T) {
		msg := putZone(t, env, token, "zone-1", map[string]any{"name": "", "colour": "red"}).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "shippingZoneId must be a 24-character hexadecimal id")
		assert.Contains(t, msg, "property colour should not exist")
	})
}

func TestUpdateZoneStaysInTheCallersAccount(t *testing.T) {
	env, token, s := newEnv(t)
	beforeB := getZone(t, s, acctB, zoneB1)
	beforeA := getZone(t, s, acctA, zoneA1)

	t.Run("an unknown zone is 404", func(t *testing.T) {
		putZone(t, env, token, unknownID, map[string]any{"name": "X"}).RequireError(t, http.StatusNotFound)
	})
	t.Run("another account's zone is 404 and unchanged", func(t *testing.T) {
		putZone(t, env, token, zoneB1, map[string]any{"name": "Taken"}).RequireError(t, http.StatusNotFound)
		assert.Equal(t, beforeB, getZone(t, s, acctB, zoneB1))
	})
	t.Run("another account's altId is 403 and nothing changes", func(t *testing.T) {
		msg := putZone(t, env, token, zoneA1, map[string]any{"altId": acctB, "altType": "account", "name": "X"}).RequireError(t, http.StatusForbidden)
		assert.Contains(t, msg, "does not have access")
		assert.Equal(t, beforeA, getZone(t, s, acctA, zoneA1))
	})
	t.Run("an upper-case zone id names the same zone", func(t *testing.T) {
		resp := putZone(t, env, token, strings.ToUpper(zoneA1), map[string]any{"name": "Upper"})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.Equal(t, "Upper", getZone(t, s, acctA, zoneA1).Name)
	})
}

func TestUpdateZoneAuth(t *testing.T) {
	env, _, _ := newEnv(t)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.UpdateShippingZone, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusNotFound,
		Call: func(t *testing.T, token string) *testenv.Response {
			return putZone(t, env, token, zoneA1, map[string]any{"name": "Domestic"})
		},
	})
}

func TestConcurrentZoneUpdatesBothSurvive(t *testing.T) {
	env, token, s := newEnv(t)
	const rounds = 15
	for i := range rounds {
		name := fmt.Sprintf("Round %d", i)
		codes := []string{"US", "CA", "MX", "GB", "FR", "DE"}[i%6:]
		var wg sync.WaitGroup
		statuses := make([]int, 2)
		wg.Add(2)
		go func() {
			defer wg.Done()
			statuses[0] = putZone(t, env, token, zoneA1, map[string]any{"name": name}).Status
		}()
		go func() {
			defer wg.Done()
			statuses[1] = putZone(t, env, token, zoneA1, map[string]any{"countries": countries(codes...)}).Status
		}()
		wg.Wait()
		require.Equal(t, []int{http.StatusOK, http.StatusOK}, statuses)

		z := getZone(t, s, acctA, zoneA1)
		require.Equal(t, name, z.Name, "round %d: the rename survives", i)
		got := make([]string, len(z.Countries))
		for j, c := range z.Countries {
			got[j] = c.Code
		}
		require.Equal(t, codes, got, "round %d: the new countries survive", i)
	}
	version, err := s.Version(context.Background(), acctA, zoneA1)
	require.NoError(t, err)
	assert.Equal(t, int64(2*rounds), version, "every update was applied once, on the result of the one before")
}
