package products_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The request's own rules answer first (422), before the account it names
// (403) and before the prices are looked up; the prices that do not exist
// come last.
func TestUpdateInventoryAnswersTheRequestsOwnRulesFirst(t *testing.T) {
	env, token, store := newEnv(t)
	const missing = "aa02ffffffffffffffffffff"
	before := snapshot(t, store, acctA, priceA1, priceA2)
	cases := []struct {
		name   string
		body   map[string]any
		status int
		want   string
		absent string
	}{
		{"an item rule broken in a request naming another account is 422, not 403",
			with(body(item(priceA1, "availableQuantity", -1)), "altId", acctB), http.StatusUnprocessableEntity, "items[0].availableQuantity must be an integer", ""},
		{"an item rule answers without looking the prices up",
			body(item(missing, "availableQuantity", 1), item(priceA2, "availableQuantity", -1)), http.StatusUnprocessableEntity, "items[1].availableQuantity must be an integer", "does not match any price"},
		{"a well-formed request naming another account is 403 before the lookup",
			with(body(item(missing, "availableQuantity", 1)), "altId", acctB), http.StatusForbidden, "does not have access", ""},
		{"every missing price is named in one answer once the request's rules pass",
			body(item(missing, "availableQuantity", 1), item(priceA2), item(priceB1, "availableQuantity", 1)), http.StatusUnprocessableEntity, "items[0].priceId " + missing + " does not match any price of this account", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := post(t, env, token, tc.body).RequireError(t, tc.status)
			assert.Contains(t, msg, tc.want)
			if tc.absent != "" {
				assert.NotContains(t, msg, tc.absent)
			}
			assert.Equal(t, before, snapshot(t, store, acctA, priceA1, priceA2), "nothing was written")
		})
	}
}

func with(b map[string]any, key string, value any) map[string]any {
	b[key] = value
	return b
}
