package products_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/products"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"
	path    = "/products/inventory"
)

// Prices of the test catalogue: three in account A, one in account B.
const (
	priceA1 = "aa0200000000000000000001"
	priceA2 = "aa0200000000000000000002"
	priceA3 = "aa0200000000000000000003"
	priceB1 = "bb0200000000000000000001"
	missing = "ff0200000000000000000009"
)

const catalogue = `{"products":[
 {"_id":"aa0100000000000000000001","locationId":"acctAlpha","name":"Brush","productType":"PHYSICAL","availableInStore":true,
  "createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:00.000Z",
  "prices":[
   {"_id":"aa0200000000000000000001","name":"White","type":"one_time","currency":"USD","amount":10,"trackInventory":true,"availableQuantity":5,"allowOutOfStockPurchases":false,"createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:00.000Z"},
   {"_id":"aa0200000000000000000002","name":"Black","type":"one_time","currency":"USD","amount":10,"trackInventory":true,"availableQuantity":7,"allowOutOfStockPurchases":true,"createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:00.000Z"},
   {"_id":"aa0200000000000000000003","name":"Heads","type":"one_time","currency":"USD","amount":4,"trackInventory":false,"allowOutOfStockPurchases":false,"createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:00.000Z"}]},
 {"_id":"bb0100000000000000000001","locationId":"acctBravo","name":"Roller","productType":"PHYSICAL","availableInStore":true,
  "createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:00.000Z",
  "prices":[
   {"_id":"bb0200000000000000000001","name":"45 cm","type":"one_time","currency":"USD","amount":25,"trackInventory":true,"availableQuantity":3,"allowOutOfStockPurchases":false,"createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:00.000Z"}]}]}`

func newEnv(t *testing.T) (*testenv.Env, string, *products.Catalog) {
	env := testenv.New(t, []app.Area{products.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	env.Seed(t, products.Area, catalogue)
	token, _ := env.Token(t, acctA)
	return env, token, products.NewCatalog(env.Table)
}

func body(items ...map[string]any) map[string]any {
	list := make([]any, len(items))
	for i, it := range items {
		list[i] = it
	}
	return map[string]any{"altId": acctA, "altType": "account", "items": list}
}

func item(priceID string, fields ...any) map[string]any {
	m := map[string]any{"priceId": priceID}
	for i := 0; i+1 < len(fields); i += 2 {
		m[fields[i].(string)] = fields[i+1]
	}
	return m
}

func post(t *testing.T, env *testenv.Env, token string, b any) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "POST", Path: path, Token: token, Body: b})
}

// snapshot reads the given prices of an account from storage.
func snapshot(t *testing.T, store *products.Catalog, account string, ids ...string) map[string]products.Price {
	t.Helper()
	out := map[string]products.Price{}
	for _, id := range ids {
		p, err := store.GetPrice(context.Background(), account, id)
		require.NoError(t, err)
		require.NotNil(t, p, "price %s", id)
		out[id] = *p
	}
	return out
}

func TestUpdateInventoryWritesEveryItem(t *testing.T) {
	env, token, store := newEnv(t)
	now := clock.Timestamp(env.Clock.Now())

	resp := post(t, env, token, body(
		item(priceA1, "availableQuantity", 42, "allowOutOfStockPurchases", true),
		item(priceA2, "availableQuantity", 0),
		item(strings.ToUpper(priceA3), "allowOutOfStockPurchases", true),
	))
	require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
	got := resp.Map(t)
	assert.Equal(t, true, got["status"])
	assert.Equal(t, "Inventory updated for 3 prices", got["message"])

	after := snapshot(t, store, acctA, priceA1, priceA2, priceA3)
	t.Run("both fields of an item are stored", func(t *testing.T) {
		require.NotNil(t, after[priceA1].AvailableQuantity)
		assert.Equal(t, int64(42), *after[priceA1].AvailableQuantity)
		assert.True(t, after[priceA1].AllowOutOfStockPurchases)
		assert.Equal(t, now, after[priceA1].UpdatedAt)
	})
	t.Run("a field left out keeps its value", func(t *testing.T) {
		require.NotNil(t, after[priceA2].AvailableQuantity)
		assert.Equal(t, int64(0), *after[priceA2].AvailableQuantity)
		assert.True(t, after[priceA2].AllowOutOfStockPurchases, "allowOutOfStockPurchases was not sent")
	})
	t.Run("an upper-case price id names the same price", func(t *testing.T) {
		assert.True(t, after[priceA3].AllowOutOfStockPurchases)
		assert.Nil(t, after[priceA3].AvailableQuantity)
	})
	t.Run("the rest of the price is untouched", func(t *testing.T) {
		assert.Equal(t, "White", after[priceA1].Name)
		assert.Equal(t, 10.0, after[priceA1].Amount)
		assert.Equal(t, "2025-01-01T00:00:00.000Z", after[priceA1].CreatedAt)
	})
	t.Run("another account's price is untouched", func(t *testing.T) {
		other := snapshot(t, store, acctB, priceB1)[priceB1]
		assert.Equal(t, int64(3), *other.AvailableQuantity)
	})
}

func TestUpdateInventoryTwiceLeavesTheSameState(t *testing.T) {
	env, token, store := newEnv(t)
	req := body(
		item(priceA1, "availableQuantity", 11, "allowOutOfStockPurchases", true),
		item(priceA2, "availableQuantity", 12, "allowOutOfStockPurchases", false),
	)
	require.Equal(t, http.StatusCreated, post(t, env, token, req).Status)
	first := snapshot(t, store, acctA, priceA1, priceA2, priceA3)

	env.Clock.Advance(time.Hour)
	require.Equal(t, http.StatusCreated, post(t, env, token, req).Status)
	second := snapshot(t, store, acctA, priceA1, priceA2, priceA3)
	assert.Equal(t, first, second, "a repeated request changes nothing, not even updatedAt")

	t.Run("a request that changes one of its prices writes them all, at one instant", func(t *testing.T) {
		env.Clock.Advance(time.Hour)
		later := clock.Timestamp(env.Clock.Now())
		req := body(
			item(priceA1, "availableQuantity", 11, "allowOutOfStockPurchases", true), // as stored
			item(priceA2, "availableQuantity", 22),
		)
		require.Equal(t, http.StatusCreated, post(t, env, token, req).Status)
		got := snapshot(t, store, acctA, priceA1, priceA2)
		assert.Equal(t, int64(11), *got[priceA1].AvailableQuantity)
		assert.Equal(t, int64(22), *got[priceA2].AvailableQuantity)
		assert.Equal(t, later, got[priceA1].UpdatedAt)
		assert.Equal(t, later, got[priceA2].UpdatedAt)
	})
}

func TestUpdateInventoryRejectsBadRequestsAndWritesNothing(t *testing.T) {
	env, token, store := newEnv(t)
	before := snapshot(t, store, acctA, priceA1, priceA2, priceA3)
	good := item(priceA1, "availableQuantity", 99)
	tooMany := make([]map[string]any, products.MaxInventoryItems+1)
	for i := range tooMany {
		tooMany[i] = item(fmt.Sprintf("aa02%020d", i), "availableQuantity", 1)
	}

	cases := []struct {
		name string
		body any
		want []string
	}{
		{"items is required", map[string]any{"altId": acctA, "altType": "account"}, []string{"items is required"}},
		{"items must not be null", map[string]any{"altId": acctA, "altType": "account", "items": nil}, []string{"items is required"}},
		{"items must not be empty", body(), []string{"items must contain at least one item"}},
		{"items must be an array", map[string]any{"altId": acctA, "altType": "account", "items": "all"}, []string{"items must be an array"}},
		{"items are bounded", body(tooMany...), []string{fmt.Sprintf("items must contain at most %d items", products.MaxInventoryItems)}},
		{"an item must be an object", map[string]any{"altId": acctA, "altType": "account", "items": []any{good, 7}}, []string{"items[1] must be an object"}},
		{"an item must not be null", map[string]any{"altId": acctA, "altType": "account", "items": []any{good, nil}}, []string{"items[1] is required"}},
		{"priceId is required", body(good, map[string]any{"availableQuantity": 1}), []string{"items[1].priceId is required"}},
		{"priceId must be a string", body(good, item("x", "priceId", 12)), []string{"items[1].priceId must be a string"}},
		{"priceId must be 24 hexadecimal characters", body(good, item("aa02000000000000000000zz")), []string{"items[1].priceId must be a 24-character hexadecimal id"}},
		{"priceId must not be too short", body(good, item("aa02")), []string{"items[1].priceId must be a 24-character hexadecimal id"}},
		{"priceId must name a price of the account", body(good, item(missing, "availableQuantity", 1)), []string{"items[1].priceId " + missing + " does not match any price of this account"}},
		{"another account's price is not the caller's", body(good, item(priceB1, "availableQuantity", 1)), []string{"items[1].priceId " + priceB1 + " does not match any price of this account"}},
		{"a price may appear once", body(good, item(priceA2), item(strings.ToUpper(priceA1), "availableQuantity", 1)), []string{"items[2].priceId repeats items[0].priceId"}},
		{"availableQuantity must not be negative", body(good, item(priceA2, "availableQuantity", -1)), []string{"items[1].availableQuantity must be an integer from 0 to 1000000000"}},
		{"availableQuantity must be whole", body(good, item(priceA2, "availableQuantity", 2.5)), []string{"items[1].availableQuantity must be an integer"}},
		{"availableQuantity is bounded", body(good, item(priceA2, "availableQuantity", 1e12)), []string{"items[1].availableQuantity must be an integer from 0 to 1000000000"}},
		{"availableQuantity must be a number", body(good, item(priceA2, "availableQuantity", "5")), []string{"items[1].availableQuantity must be a number"}},
		{"allowOutOfStockPurchases must be a boolean", body(good, item(priceA2, "allowOutOfStockPurchases", "yes")), []string{"items[1].allowOutOfStockPurchases must be a boolean"}},
		{"an item has no other properties", body(good, item(priceA2, "quantity", 3)), []string{"property items[1].quantity should not exist"}},
		{"altId is required", map[string]any{"altType": "account", "items": []any{good}}, []string{"altId is required"}},
		{"altId must be an id", map[string]any{"altId": "ACCOUNT#x", "altType": "account", "items": []any{good}}, []string{"altId must be an id"}},
		{"altType is required", map[string]any{"altId": acctA, "items": []any{good}}, []string{"altType is required"}},
		{"altType must be account", map[string]any{"altId": acctA, "altType": "company", "items": []any{good}}, []string{"altType must be one of: account"}},
		{"the body has no other properties", map[string]any{"altId": acctA, "altType": "account", "items": []any{good}, "force": true}, []string{"property force should not exist"}},
		{"every item that breaks a rule is named in one answer", body(item(missing), good, item("nothex"), item(priceA2, "availableQuantity", -3)),
			[]string{"items[2].priceId must be a 24-character", "items[3].availableQuantity"}},
		{"every missing price is named in one answer", body(item(missing), good, item(priceB1, "availableQuantity", 1)),
			[]string{"items[0].priceId " + missing, "items[2].priceId " + priceB1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := post(t, env, token, tc.body).RequireError(t, http.StatusUnprocessableEntity)
			for _, want := range tc.want {
				assert.Contains(t, msg, want)
			}
			assert.Equal(t, before, snapshot(t, store, acctA, priceA1, priceA2, priceA3), "nothing is written")
		})
	}

	t.Run("a body that is not JSON is a 400", func(t *testing.T) {
		post(t, env, token, `{"items":[`).RequireError(t, http.StatusBadRequest)
	})
}

func TestUpdateInventoryStaysInTheCallersAccount(t *testing.T) {
	env, token, store := newEnv(t)
	beforeB := snapshot(t, store, acctB, priceB1)

	t.Run("another account's altId is 403", func(t *testing.T) {
		b := body(item(priceB1, "availableQuantity", 1))
		b["altId"] = acctB
		msg := post(t, env, token, b).RequireError(t, http.StatusForbidden)
		assert.Contains(t, msg, "does not have access")
	})
	t.Run("another account's price is 422 naming the item", func(t *testing.T) {
		msg := post(t, env, token, body(item(priceB1, "availableQuantity", 1))).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "items[0].priceId")
	})
	assert.Equal(t, beforeB, snapshot(t, store, acctB, priceB1), "the other account's price is unchanged")
}

func TestUpdateInventoryAuth(t *testing.T) {
	env, _, _ := newEnv(t)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.UpdateInventory, Account: acctA, OK: http.StatusCreated, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			return post(t, env, token, body(item(priceA1, "availableQuantity", 8)))
		},
	})
}

func TestTheReadmeExampleSucceedsOnTheDemoData(t *testing.T) {
	env := testenv.New(t, []app.Area{products.Area})
	env.Account(t, demo.AccountAlpha, demo.CompanyNorth)
	ds, err := demo.Default()
	require.NoError(t, err)
	env.Seed(t, products.Area, string(ds["products"]))
	token, _ := env.Token(t, demo.AccountAlpha)

	resp := post(t, env, token, `{"altId":"demoLocAlpha00000001","altType":"account","items":[
		{"priceId":"a10200000000000000000201","availableQuantity":35,"allowOutOfStockPurchases":false},
		{"priceId":"a10200000000000000000202","availableQuantity":12,"allowOutOfStockPurchases":true},
		{"priceId":"a10200000000000000000401","availableQuantity":800}]}`)
	require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
	p, err := products.NewCatalog(env.Table).GetPrice(context.Background(), demo.AccountAlpha, "a10200000000000000000401")
	require.NoError(t, err)
	require.NotNil(t, p)
	assert.Equal(t, int64(800), *p.AvailableQuantity)
	assert.Equal(t, "a10100000000000000000004", p.ProductID)
}
