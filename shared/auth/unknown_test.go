package auth_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
)

// madeUp is a well-formed token (its checksum holds) that no one created.
func madeUp(t *testing.T, body string) string {
	t.Helper()
	v, err := auth.TokenFromBody(body)
	require.NoError(t, err)
	return v
}

func ping(t *testing.T, e *testenv.Env, token string) *testenv.Response {
	return e.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: token})
}

func TestMadeUpTokensCostOneDynamoDBReadPerInstanceAndTTL(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	env := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(counted))
	token := madeUp(t, "MadeUpByAnAttacker00000000000001")
	calls.Take()

	t.Run("the first use reads the token once and is refused", func(t *testing.T) {
		ping(t, env, token).RequireError(t, http.StatusUnauthorized)
		assert.Equal(t, map[string]int{"GetItem": 1}, calls.Take())
	})
	t.Run("sent again and again it costs nothing more", func(t *testing.T) {
		for range 20 {
			resp := ping(t, env, token)
			assert.Contains(t, resp.RequireError(t, http.StatusUnauthorized), "unknown")
			assert.Equal(t, `Bearer error="invalid_token"`, resp.Header.Get("WWW-Authenticate"))
		}
		assert.Empty(t, calls.Take(), "no DynamoDB call")
	})
	t.Run("once the TTL has passed it is read again, once", func(t *testing.T) {
		env.Clock.Advance(auth.UnknownTokenTTL)
		for range 5 {
			ping(t, env, token).RequireError(t, http.StatusUnauthorized)
		}
		assert.Equal(t, map[string]int{"GetItem": 1}, calls.Take())
	})
}

func TestATokenCreatedAfterBeingTriedWorks(t *testing.T) {
	table := testenv.NewTable(t)
	clk := clock.NewManual(testenv.Start)
	creator := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(table), testenv.WithClock(clk))
	other := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(table), testenv.WithClock(clk))
	creator.Account(t, "acct1", "co1")
	token := madeUp(t, "ChosenBeforeItWasCreated00000001")
	for _, e := range []*testenv.Env{creator, other} {
		ping(t, e, token).RequireError(t, http.StatusUnauthorized)
	}
	_, err := creator.Server.Tokens.CreateWithValue(context.Background(), token, "tok_chosen", auth.NewToken{AccountID: "acct1", Kind: auth.KindPrivate, Scopes: []string{testenv.PingOp.Scope}})
	require.NoError(t, err)

	t.Run("at once on the instance that created it", func(t *testing.T) {
		assert.Equal(t, http.StatusOK, ping(t, creator, token).Status)
	})
	t.Run("on another instance within the TTL at most", func(t *testing.T) {
		ping(t, other, token).RequireError(t, http.StatusUnauthorized)
		clk.Advance(auth.UnknownTokenTTL - time.Millisecond)
		ping(t, other, token).RequireError(t, http.StatusUnauthorized)
		clk.Advance(time.Millisecond)
		assert.Equal(t, http.StatusOK, ping(t, other, token).Status)
	})
}
