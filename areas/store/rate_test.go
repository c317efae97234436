package store_test

import (
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

func ratePath(zoneID, rateID string) string {
	return "/store/shipping-zone/" + zoneID + "/shipping-rate/" + rateID
}

func putRate(t *testing.T, env *testenv.Env, token, zoneID, rateID string, body any) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "PUT", Path: ratePath(zoneID, rateID), Token: token, Body: body})
}

type rateAnswer struct {
	Status  bool       `json:"status"`
	Message string     `json:"message"`
	Data    store.Rate `json:"data"`
}

func TestUpdateRateChangesTheSentFields(t *testing.T) {
	env, token, s := newEnv(t)
	env.Clock.Advance(time.Hour)
	now := clock.Timestamp(env.Clock.Now())

	resp := putRate(t, env, token, zoneA1, rateA1Plain, map[string]any{
		"altId": acctA, "altType": "account",
		"name": "Free over $100", "description": "Orders of $100 or more", "currency": "usd",
		"amount": 0, "conditionType": "price", "minCondition": 100, "maxCondition": nil,
	})
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)

	want := store.Rate{
		AltID: acctA, AltType: "account", Name: "Free over $100", Description: "Orders of $100 or more",
		Currency: "USD", Amount: 0, ConditionType: "price", MinCondition: 100, MaxCondition: 0,
		ShippingCarrierServices: []store.CarrierService{},
		ID:                      rateA1Plain, ShippingZoneID: zoneA1, CreatedAt: created, UpdatedAt: now,
	}
	t.Run("the answer is the updated rate", func(t *testing.T) {
		var got rateAnswer
		resp.JSON(t, &got)
		assert.True(t, got.Status)
		assert.NotEmpty(t, got.Message)
		assert.Equal(t, want, got.Data)
	})
	t.Run("the answer has the public API's field names", func(t *testing.T) {
		data := resp.Map(t)["data"].(map[string]any)
		for _, k := range []string{"_id", "shippingZoneId", "altId", "altType", "name", "currency", "amount", "conditionType",
			"minCondition", "maxCondition", "isCarrierRate", "shippingCarrierId", "shippingCarrierServices", "createdAt", "updatedAt"} {
			assert.Contains(t, data, k)
		}
	})
	t.Run("the rate is stored", func(t *testing.T) {
		assert.Equal(t, want, getRate(t, s, acctA, zoneA1, rateA1Plain))
	})
	t.Run("the zone's other rates are untouched", func(t *testing.T) {
		assert.Equal(t, "Bulky", getRate(t, s, acctA, zoneA1, rateA1Cond).Name)
	})
}

func TestUpdateRateChecksRulesOnTheMergedRate(t *testing.T) {
	cases := []struct {
		name   string
		rateID string
		body   map[string]any
		status int
		want   string
		check  func(t *testing.T, r store.Rate)
	}{
		{"a minimum above the stored maximum is refused", rateA1Cond, map[string]any{"minCondition": 40},
			422, "minCondition (40) must not be greater than maxCondition (30)", nil},
		{"a maximum below the stored minimum is refused", rateA1Cond, map[string]any{"maxCondition": 2},
			422, "minCondition (5) must not be greater than maxCondition (2)", nil},
		{"a maximum of 0 means no maximum", rateA1Cond, map[string]any{"minCondition": 40, "maxCondition": 0},
			200, "", func(t *testing.T, r store.Rate) {
				assert.Equal(t, 40.0, r.MinCondition)
				assert.Equal(t, 0.0, r.MaxCondition)
			}},
		{"a null maximum means no maximum", rateA1Cond, map[string]any{"minCondition": 40, "maxCondition": nil},
			200, "", func(t *testing.T, r store.Rate) { assert.Equal(t, 0.0, r.MaxCondition) }},
		{"a minimum equal to the maximum is allowed", rateA1Cond, map[string]any{"minCondition": 30},
			200, "", func(t *testing.T, r store.Rate) { assert.Equal(t, 30.0, r.MinCondition) }},
		{"a carrier id on a normal rate is refused", rateA1Plain, map[string]any{"shippingCarrierId": carrierID},
			422, "shippingCarrierId is valid only when isCarrierRate is true", nil},
		{"a rate fee percentage on a normal rate is refused", rateA1Plain, map[string]any{"percentageOfRateFee": 5},
			422, "percentageOfRateFee is valid only when isCarrierRate is true", nil},
		{"carrier services on a normal rate are refused", rateA1Plain, map[string]any{"shippingCarrierServices": []any{map[string]any{"name": "A", "value": "a"}}},
			422, "shippingCarrierServices is valid only when isCarrierRate is true", nil},
		{"turning a carrier rate normal while it keeps its carrier is refused", rateA1Carrier, map[string]any{"isCarrierRate": false},
			422, "shippingCarrierId is valid only when isCarrierRate is true", nil},
		{"turning a carrier rate normal and removing the carrier fields is allowed", rateA1Carrier,
			map[string]any{"isCarrierRate": false, "shippingCarrierId": nil, "percentageOfRateFee": nil, "shippingCarrierServices": nil},
			200, "", func(t *testing.T, r store.Rate) {
				assert.False(t, r.IsCarrierRate)
				assert.Empty(t, r.ShippingCarrierID)
				assert.Nil(t, r.PercentageOfRateFee)
				assert.Empty(t, r.ShippingCarrierServices)
			}},
		{"a carrier rate's services change on their own", rateA1Carrier,
			map[string]any{"shippingCarrierServices": []any{map[string]any{"name": "Ground", "value": "Ground"}}, "percentageOfRateFee": 12.5},
			200, "", func(t *testing.T, r store.Rate) {
				assert.Equal(t, []store.CarrierService{{Name: "Ground", Value: "Ground"}}, r.ShippingCarrierServices)
				assert.Equal(t, 12.5, *r.PercentageOfRateFee)
				assert.Equal(t, carrierID, r.ShippingCarrierID)
			}},
		{"a normal rate becomes a carrier rate with its carrier", rateA1Plain,
			map[string]any{"isCarrierRate": true, "shippingCarrierId": strings.ToUpper(carrierID), "percentageOfRateFee": 0},
			200, "", func(t *testing.T, r store.Rate) {
				assert.True(t, r.IsCarrierRate)
				assert.Equal(t, carrierID, r.ShippingCarrierID)
			}},
		{"a carrier rate needs a carrier", rateA1Plain, map[string]any{"isCarrierRate": true},
			422, "shippingCarrierId is required when isCarrierRate is true", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, token, s := newEnv(t)
			before := getRate(t, s, acctA, zoneA1, tc.rateID)
			resp := putRate(t, env, token, zoneA1, tc.rateID, tc.body)
			after := getRate(t, s, acctA, zoneA1, tc.rateID)
			if tc.status != http.StatusOK {
				assert.Contains(t, resp.RequireError(t, tc.status), tc.want)
				assert.Equal(t, before, after, "the rate is unchanged")
				return
			}
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			tc.check(t, after)
		})
	}
}

func TestUpdateRateRejectsBadFields(t *testing.T) {
	env, token, s := newEnv(t)
	before := getRate(t, s, acctA, zoneA1, rateA1Carrier)
	services := make([]any, 51)
	for i := range services {
		services[i] = map[string]any{"name": "n", "value": "v"}
	}
	cases := []struct {
		name string
		body any
		want []string
	}{
		{"name must not be blank", map[string]any{"name": " "}, []string{"name must not be blank"}},
		{"name must not be null", map[string]any{"name": nil}, []string{"name must not be null"}},
		{"description is bounded", map[string]any{"description": strings.Repeat("d", 1001)}, []string{"description must be at most 1000 characters"}},
		{"currency must be an ISO code", map[string]any{"currency": "dollars"}, []string{"currency must be a three-letter ISO 4217 code"}},
		{"currency must not be null", map[string]any{"currency": nil}, []string{"currency must not be null"}},
		{"amount must not be negative", map[string]any{"amount": -0.01}, []string{"amount must be a non-negative number"}},
		{"amount is bounded", map[string]any{"amount": 1e12}, []string{"amount must be at most 1000000000"}},
		{"percentageOfRateFee is bounded", map[string]any{"isCarrierRate": true, "shippingCarrierId": "c10000000000000000000001", "percentageOfRateFee": 1e10}, []string{"percentageOfRateFee must be at most 1000000000"}},
		{"amount must be a number", map[string]any{"amount": "5"}, []string{"amount must be a number"}},
		{"amount must not be null", map[string]any{"amount": nil}, []string{"amount must not be null"}},
		{"conditionType must be none, price or weight", map[string]any{"conditionType": "distance"}, []string{"conditionType must be one of: none, price, weight"}},
		{"conditionType must not be null", map[string]any{"conditionType": nil}, []string{"conditionType must not be null"}},
		{"minCondition must not be negative", map[string]any{"minCondition": -1}, []string{"minCondition must be a non-negative number"}},
		{"maxCondition must not be negative", map[string]any{"maxCondition": -1}, []string{"maxCondition must be a non-negative number"}},
		{"isCarrierRate must be a boolean", map[string]any{"isCarrierRate": "yes"}, []string{"isCarrierRate must be a boolean"}},
		{"isCarrierRate must not be null", map[string]any{"isCarrierRate": nil}, []string{"isCarrierRate must not be null"}},
		{"shippingCarrierId must be a hexadecimal id", map[string]any{"shippingCarrierId": "ups"}, []string{"shippingCarrierId must be a 24-character hexadecimal id"}},
		{"percentageOfRateFee must not be negative", map[string]any{"percentageOfRateFee": -5}, []string{"percentageOfRateFee must be a non-negative number"}},
		{"shippingCarrierServices must be an array", map[string]any{"shippingCarrierServices": "all"}, []string{"shippingCarrierServices must be an array"}},
		{"shippingCarrierServices are bounded", map[string]any{"shippingCarrierServices": services}, []string{"shippingCarrierServices must list at most 50 services"}},
		{"a service needs a name", map[string]any{"shippingCarrierServices": []any{map[string]any{"value": "v"}}}, []string{"shippingCarrierServices[0].name is required"}},
		{"a service needs a value", map[string]any{"shippingCarrierServices": []any{map[string]any{"name": "n", "value": ""}}}, []string{"shippingCarrierServices[0].value is required"}},
		{"a service has no other properties", map[string]any{"shippingCarrierServices": []any{map[string]any{"name": "n", "value": "v", "price": 1}}}, []string{"property shippingCarrierServices[0].price should not exist"}},
		{"a service must be an object", map[string]any{"shippingCarrierServices": []any{"Ground"}}, []string{"shippingCarrierServices[0] must be an object"}},
		{"altType must be account", map[string]any{"altType": "agency"}, []string{"altType must be one of: account"}},
		{"altId must not be null", map[string]any{"altId": nil}, []string{"altId must be a string"}},
		{"the body has no other properties", map[string]any{"shippingZoneId": zoneA2}, []string{"property shippingZoneId should not exist"}},
		{"every broken rule is named in one answer", map[string]any{"amount": -1, "conditionType": "x", "currency": "1"},
			[]string{"amount must be", "conditionType must be", "currency must be"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := putRate(t, env, token, zoneA1, rateA1Carrier, tc.body).RequireError(t, http.StatusUnprocessableEntity)
			for _, want := range tc.want {
				assert.Contains(t, msg, want)
			}
			assert.Equal(t, before, getRate(t, s, acctA, zoneA1, rateA1Carrier), "the rate is unchanged")
		})
	}
	t.Run("path ids that are not hexadecimal are 422 naming them", func(t *testing.T) {
		msg := putRate(t, env, token, zoneA1, "rate-1", map[string]any{"name": "X"}).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "shippingRateId must be a 24-character hexadecimal id")
		msg = putRate(t, env, token, "zone", rateA1Plain, map[string]any{"name": "X"}).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "shippingZoneId must be a 24-character hexadecimal id")
	})
	t.Run("bad path ids are named with the body's broken rules", func(t *testing.T) {
		msg := putRate(t, env, token, "zone", "rate-1", map[string]any{"amount": -1}).RequireError(t, http.StatusUnprocessableEntity)
		for _, want := range []string{"shippingZoneId must be a 24-character hexadecimal id", "shippingRateId must be a 24-character hexadecimal id", "amount must be"} {
			assert.Contains(t, msg, want)
		}
	})
}

func TestUpdateRateStaysInItsZoneAndAccount(t *testing.T) {
	env, token, s := newEnv(t)
	beforeA2 := getRate(t, s, acctA, zoneA2, rateA2)
	beforeB := getRate(t, s, acctB, zoneB1, rateB1)
	beforeA1 := getRate(t, s, acctA, zoneA1, rateA1Plain)

	cases := []struct {
		name           string
		zoneID, rateID string
	}{
		{"a rate of another zone is 404", zoneA1, rateA2},
		{"an unknown rate is 404", zoneA1, unknownID},
		{"an unknown zone is 404", unknownID, rateA1Plain},
		{"another account's rate is 404", zoneB1, rateB1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			putRate(t, env, token, tc.zoneID, tc.rateID, map[string]any{"name": "Taken"}).RequireError(t, http.StatusNotFound)
		})
	}
	t.Run("another account's altId is 403", func(t *testing.T) {
		msg := putRate(t, env, token, zoneA1, rateA1Plain, map[string]any{"altId": acctB, "name": "Taken"}).RequireError(t, http.StatusForbidden)
		assert.Contains(t, msg, "does not have access")
	})
	assert.Equal(t, beforeA2, getRate(t, s, acctA, zoneA2, rateA2))
	assert.Equal(t, beforeB, getRate(t, s, acctB, zoneB1, rateB1))
	assert.Equal(t, beforeA1, getRate(t, s, acctA, zoneA1, rateA1Plain))
}

func TestUpdateRateAuth(t *testing.T) {
	env, _, _ := newEnv(t)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.UpdateShippingRate, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusNotFound,
		Call: func(t *testing.T, token string) *testenv.Response {
			return putRate(t, env, token, zoneA1, rateA1Plain, map[string]any{"amount": 6})
		},
	})
}

func TestConcurrentRateUpdatesOfDifferentFieldsAllSurvive(t *testing.T) {
	env, token, s := newEnv(t)
	updates := []map[string]any{
		{"name": "Renamed"},
		{"description": "New description"},
		{"currency": "CAD"},
		{"amount": 7.25},
		{"conditionType": "price"},
		{"minCondition": 10},
		{"maxCondition": 90},
	}
	var wg sync.WaitGroup
	statuses := make([]int, len(updates))
	for i, u := range updates {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = putRate(t, env, token, zoneA1, rateA1Plain, u).Status
		}()
	}
	wg.Wait()
	for i, st := range statuses {
		assert.Equal(t, http.StatusOK, st, "update %d", i)
	}
	r := getRate(t, s, acctA, zoneA1, rateA1Plain)
	assert.Equal(t, "Renamed", r.Name)
	assert.Equal(t, "New description", r.Description)
	assert.Equal(t, "CAD", r.Currency)
	assert.Equal(t, 7.25, r.Amount)
	assert.Equal(t, "price", r.ConditionType)
	assert.Equal(t, 10.0, r.MinCondition)
	assert.Equal(t, 90.0, r.MaxCondition)
}
