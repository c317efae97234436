package store_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/internal/testenv"
)

// The request's own rules answer first (422), before the account it names
// (403) and before the zone or rate is looked up (404); the rules that need
// the stored record come last.
func TestStoreUpdatesAnswerTheRequestsOwnRulesFirst(t *testing.T) {
	env, token, s := newEnv(t)
	cases := []struct {
		name   string
		path   string
		body   map[string]any
		status int
		want   string
	}{
		{"a zone rule broken in a request naming another account is 422, not 403", zonePath(zoneA1),
			map[string]any{"altId": acctB, "name": " "}, http.StatusUnprocessableEntity, "name must not be blank"},
		{"a rate rule broken in a request naming another account is 422, not 403", ratePath(zoneA1, rateA1Plain),
			map[string]any{"altId": acctB, "currency": "dollars"}, http.StatusUnprocessableEntity, "currency must be a three-letter ISO 4217 code"},
		{"minCondition above maxCondition, both sent, on an unknown rate is 422, not 404", ratePath(zoneA1, unknownID),
			map[string]any{"minCondition": 40, "maxCondition": 10}, http.StatusUnprocessableEntity, "minCondition (40) must not be greater than maxCondition (10)"},
		{"a carrier id sent with isCarrierRate false on an unknown rate is 422, not 404", ratePath(zoneA1, unknownID),
			map[string]any{"isCarrierRate": false, "shippingCarrierId": carrierID}, http.StatusUnprocessableEntity, "shippingCarrierId is valid only when isCarrierRate is true"},
		{"isCarrierRate true with a null carrier on an unknown rate is 422, not 404", ratePath(zoneA1, unknownID),
			map[string]any{"isCarrierRate": true, "shippingCarrierId": nil}, http.StatusUnprocessableEntity, "shippingCarrierId is required when isCarrierRate is true"},
		{"a well-formed rate update naming another account is 403 before the lookup", ratePath(zoneA1, unknownID),
			map[string]any{"altId": acctB, "minCondition": 40}, http.StatusForbidden, "does not have access"},
		{"minCondition alone on an unknown rate is 404: the rule needs the stored maximum", ratePath(zoneA1, unknownID),
			map[string]any{"minCondition": 40}, http.StatusNotFound, "was not found"},
		{"minCondition alone above the stored maximum comes last", ratePath(zoneA1, rateA1Cond),
			map[string]any{"minCondition": 40}, http.StatusUnprocessableEntity, "minCondition (40) must not be greater than maxCondition (30)"},
	}
	beforeZone := getZone(t, s, acctA, zoneA1)
	beforeRate := getRate(t, s, acctA, zoneA1, rateA1Cond)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "PUT", Path: tc.path, Token: token, Body: tc.body})
			assert.Contains(t, resp.RequireError(t, tc.status), tc.want)
		})
	}
	assert.Equal(t, beforeZone, getZone(t, s, acctA, zoneA1), "nothing was written")
	assert.Equal(t, beforeRate, getRate(t, s, acctA, zoneA1, rateA1Cond), "nothing was written")
}
