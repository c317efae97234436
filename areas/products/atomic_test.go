package products_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/products"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/storage"
)

// raceCatalogue is one product of account A with n prices, each with
// quantity 0: the ids raceCatalogue returns.
func raceCatalogue(t *testing.T, env *testenv.Env, n int) []string {
	t.Helper()
	ids := make([]string, n)
	prices := make([]map[string]any, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("cc02%020d", i)
		prices[i] = map[string]any{"_id": ids[i], "name": fmt.Sprintf("Size %d", i), "type": "one_time", "currency": "USD", "amount": 10,
			"trackInventory": true, "availableQuantity": 0, "allowOutOfStockPurchases": false}
	}
	data, err := json.Marshal(map[string]any{"products": []any{map[string]any{
		"_id": "cc0100000000000000000001", "locationId": acctA, "name": "Race", "productType": "PHYSICAL", "prices": prices,
	}}})
	require.NoError(t, err)
	env.Seed(t, products.Area, string(data))
	return ids
}

func TestConcurrentInventoryUpdatesOfTheSamePricesApplyWholeRequests(t *testing.T) {
	env := testenv.New(t, []app.Area{products.Area})
	env.Account(t, acctA, company)
	token, _ := env.Token(t, acctA)
	store := products.NewCatalog(env.Table)
	// Every request names the four shared prices (each in its own order)
	// and one of four others, with a quantity of its own.
	ids := raceCatalogue(t, env, 8)
	shared, others := ids[:4], ids[4:]
	const requests = 12
	names := make([][]string, requests)
	for r := range names {
		for k := range shared {
			names[r] = append(names[r], shared[(r+k)%len(shared)])
		}
		names[r] = append(names[r], others[r%len(others)])
	}
	quantity := func(r int) int64 { return int64(1000 + r) }
	allow := func(r int) bool { return r%2 == 1 }

	statuses := make([]int, requests)
	var wg sync.WaitGroup
	for r := range requests {
		wg.Go(func() {
			items := make([]map[string]any, len(names[r]))
			for k, id := range names[r] {
				items[k] = item(id, "availableQuantity", quantity(r), "allowOutOfStockPurchases", allow(r))
			}
			resp := post(t, env, token, body(items...))
			statuses[r] = resp.Status
			if resp.Status == http.StatusServiceUnavailable {
				// The documented refusal of a transaction that kept
				// conflicting with others: it wrote nothing.
				assert.NotEmpty(t, resp.Header.Get("Retry-After"), "request %d", r)
			}
		})
	}
	wg.Wait()

	after := snapshot(t, store, acctA, ids...)
	owner := map[string]int{} // price -> the request whose values it holds
	for _, id := range ids {
		p := after[id]
		require.NotNil(t, p.AvailableQuantity, "price %s", id)
		r := int(*p.AvailableQuantity - 1000)
		require.True(t, r >= 0 && r < requests, "price %s holds quantity %d, no request's", id, *p.AvailableQuantity)
		owner[id] = r
		assert.Contains(t, names[r], id, "price %s holds the values of request %d, which names it", id, r)
		assert.Equal(t, http.StatusCreated, statuses[r], "price %s holds the values of request %d, which succeeded", id, r)
		assert.Equal(t, allow(r), p.AllowOutOfStockPurchases, "price %s is whole: both fields from request %d", id, r)
	}
	refused := 0
	for r, s := range statuses {
		assert.Contains(t, []int{http.StatusCreated, http.StatusServiceUnavailable}, s, "request %d", r)
		if s == http.StatusServiceUnavailable {
			refused++
		}
	}
	t.Logf("%d applied, %d refused with 503", requests-refused, refused)
	t.Run("every shared price holds the values of the request applied last", func(t *testing.T) {
		winner := owner[shared[0]]
		for _, id := range shared {
			assert.Equal(t, winner, owner[id], "price %s", id)
		}
	})
	t.Run("no two prices hold the values of two requests that both named both", func(t *testing.T) {
		for _, p := range ids {
			for _, q := range ids {
				rp, rq := owner[p], owner[q]
				if rp != rq && slices.Contains(names[rp], q) && slices.Contains(names[rq], p) {
					t.Errorf("price %s holds request %d's values and price %s request %d's, though each named both", p, rp, q, rq)
				}
			}
		}
	})
}

// priceDeleter deletes a price just before the transaction it forwards: a
// price deleted after the request was checked.
type priceDeleter struct {
	storage.API
	table string
	price storage.Key
}

func (d *priceDeleter) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if err := (&storage.Table{DB: d.API, Name: d.table}).Delete(ctx, d.price, nil); err != nil {
		return nil, err
	}
	return d.API.TransactWriteItems(ctx, in, opts...)
}

func TestAnInventoryUpdateWhosePriceVanishesBeforeTheWriteWritesNothing(t *testing.T) {
	table := testenv.NewTable(t)
	deleter := &priceDeleter{API: table.DB, table: table.Name, price: storage.Key{PK: storage.AccountPK(acctA), SK: "PRICE#" + priceA2}}
	env := testenv.New(t, []app.Area{products.Area}, testenv.WithTable(&storage.Table{DB: deleter, Name: table.Name}))
	env.Account(t, acctA, company)
	env.Seed(t, products.Area, catalogue)
	token, _ := env.Token(t, acctA)
	store := products.NewCatalog(table)
	before := snapshot(t, store, acctA, priceA1, priceA3)

	msg := post(t, env, token, body(
		item(priceA1, "availableQuantity", 41),
		item(priceA2, "availableQuantity", 42),
		item(priceA3, "availableQuantity", 43),
	)).RequireError(t, http.StatusUnprocessableEntity)
	assert.Contains(t, msg, "items[1].priceId "+priceA2+" does not match any price of this account")
	assert.Equal(t, before, snapshot(t, store, acctA, priceA1, priceA3), "the other prices keep their values")
	gone, err := store.GetPrice(context.Background(), acctA, priceA2)
	require.NoError(t, err)
	assert.Nil(t, gone, "the deleted price did not come back as a stub")
}
