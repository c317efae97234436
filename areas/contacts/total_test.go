package contacts_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts/contactstore"
)

func TestTheListTotalIsKeptRightWithoutCountingTheAccount(t *testing.T) {
	env, token := newEnv(t)
	store := contactstore.NewContacts(env.Table)
	ctx := context.Background()
	total := func() int {
		t.Helper()
		_, body := list(t, env, token, url.Values{"locationId": {acctA}, "limit": {"5"}})
		assert.Equal(t, body.Count, body.Meta.Total)
		return body.Meta.Total
	}

	t.Run("a load keeps the account's total", func(t *testing.T) {
		seedContacts(t, env, acctA, 30)
		kept, ok, err := store.Total(ctx, acctA)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, 30, kept)
		assert.Equal(t, 30, total())
	})
	t.Run("loading the same contacts again counts them once", func(t *testing.T) {
		seedContacts(t, env, acctA, 30)
		assert.Equal(t, 30, total())
	})
	t.Run("a new contact counts, an overwritten one does not", func(t *testing.T) {
		now := env.Clock.Now()
		c := contactstore.Contact{ID: "newOne", LocationID: acctA, FirstName: "New", DateAdded: now.Format(time.RFC3339)}
		require.NoError(t, store.Put(ctx, c, now.UnixMilli()))
		assert.Equal(t, 31, total())
		c.FirstName = "Renamed"
		require.NoError(t, store.Put(ctx, c, now.UnixMilli()))
		assert.Equal(t, 31, total())
	})
	t.Run("concurrent new contacts all count", func(t *testing.T) {
		now := env.Clock.Now()
		done := make(chan error, 20)
		for i := 0; i < 20; i++ {
			go func() {
				c := contactstore.Contact{ID: "conc" + string(rune('a'+i)), LocationID: acctA, FirstName: "C", DateAdded: now.Format(time.RFC3339)}
				done <- store.Put(ctx, c, now.UnixMilli())
			}()
		}
		for i := 0; i < 20; i++ {
			require.NoError(t, <-done)
		}
		assert.Equal(t, 51, total())
	})
	t.Run("a filtered list still counts its matches", func(t *testing.T) {
		_, body := list(t, env, token, url.Values{"locationId": {acctA}, "query": {"renamed"}})
		assert.Equal(t, 1, body.Meta.Total)
	})
	t.Run("an account without a kept total is counted", func(t *testing.T) {
		now := env.Clock.Now()
		require.NoError(t, store.Put(ctx, contactstore.Contact{ID: "solo", LocationID: acctB, FirstName: "Solo", DateAdded: now.Format(time.RFC3339)}, now.UnixMilli()))
		tokenB, _ := env.Token(t, acctB)
		resp, body := list(t, env, tokenB, url.Values{"locationId": {acctB}})
		require.Equal(t, http.StatusOK, resp.Status)
		assert.Equal(t, 1, body.Meta.Total)
	})
}
