package auth_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/ratelimit"
	"github.com/bizplatform/api/shared/storage"
)

// instances starts two servers (two Lambda instances with their own
// caches) on one table and one clock, with account acct1 of company co1.
func instances(t *testing.T) (*testenv.Env, *testenv.Env) {
	table := testenv.NewTable(t)
	clk := clock.NewManual(testenv.Start)
	a := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(table), testenv.WithClock(clk))
	b := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(table), testenv.WithClock(clk))
	a.Account(t, "acct1", "co1")
	a.Account(t, "acct2", "co2")
	return a, b
}

func pingStatus(t *testing.T, e *testenv.Env, token string) int {
	t.Helper()
	return e.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: token}).Status
}

var admin = auth.Actor{ID: "usr1", Name: "Ada Admin <ada@example.com>"}

func TestRotationWithGraceKeepsTheOldTokenForSevenDaysOnEveryInstance(t *testing.T) {
	a, b := instances(t)
	ctx := context.Background()
	old, oldID := a.Token(t, "acct1", "contacts.readonly")
	require.Equal(t, http.StatusOK, pingStatus(t, a, old))
	require.Equal(t, http.StatusOK, pingStatus(t, b, old)) // both instances cache the old token

	value, created, after, err := a.Server.Tokens.Rotate(ctx, auth.Rotation{AccountID: "acct1", TokenID: oldID, KeepOld: true, By: admin})
	require.NoError(t, err)
	assert.Equal(t, []string{"contacts.readonly"}, created.Scopes, "the new token has the old one's scopes")
	assert.Equal(t, oldID, created.Replaces)
	assert.Equal(t, created.TokenID, after.ReplacedBy)
	assert.Equal(t, auth.StatusExpiring, after.Status(a.Clock.Now()))
	assert.Equal(t, clock.Timestamp(testenv.Start.Add(auth.RotationGrace)), after.ExpiresAt)

	a.Clock.Advance(auth.RotationGrace - time.Second)
	assert.Equal(t, http.StatusOK, pingStatus(t, a, old), "a second before the end")
	assert.Equal(t, http.StatusOK, pingStatus(t, b, old))
	assert.Equal(t, http.StatusOK, pingStatus(t, a, value))

	a.Clock.Advance(time.Second)
	fresh := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(a.Table), testenv.WithClock(a.Clock))
	for name, e := range map[string]*testenv.Env{"instance a": a, "instance b": b, "a cold instance": fresh} {
		t.Run("at the end "+name+" refuses the old token", func(t *testing.T) {
			e.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: old}).RequireError(t, http.StatusUnauthorized)
			assert.Equal(t, http.StatusOK, pingStatus(t, e, value), "and accepts the new one")
		})
	}
	list, err := a.Server.Tokens.List(ctx, "acct1")
	require.NoError(t, err)
	require.Len(t, list, 2)
	for _, info := range list {
		if info.TokenID == oldID {
			assert.Equal(t, auth.StatusExpired, info.Status(a.Clock.Now()))
		} else {
			assert.Equal(t, auth.StatusActive, info.Status(a.Clock.Now()))
		}
	}
}

func TestRotationWithoutGraceRevokesTheOldTokenAtOnceOnAWarmInstance(t *testing.T) {
	a, b := instances(t)
	old, oldID := a.Token(t, "acct1")
	require.Equal(t, http.StatusOK, pingStatus(t, b, old))

	value, _, after, err := a.Server.Tokens.Rotate(context.Background(), auth.Rotation{AccountID: "acct1", TokenID: oldID, By: admin})
	require.NoError(t, err)
	assert.Equal(t, auth.StatusRevoked, after.Status(a.Clock.Now()))
	b.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: old}).RequireError(t, http.StatusUnauthorized)
	assert.Equal(t, http.StatusOK, pingStatus(t, b, value))

	_, _, _, err = a.Server.Tokens.Rotate(context.Background(), auth.Rotation{AccountID: "acct1", TokenID: oldID, By: admin})
	assert.ErrorIs(t, err, auth.ErrTokenInactive, "a revoked token cannot be rotated")
}

func TestATokenRotatedTwiceIsRefused(t *testing.T) {
	a, _ := instances(t)
	_, oldID := a.Token(t, "acct1")
	_, _, _, err := a.Server.Tokens.Rotate(context.Background(), auth.Rotation{AccountID: "acct1", TokenID: oldID, KeepOld: true, By: admin})
	require.NoError(t, err)
	_, _, _, err = a.Server.Tokens.Rotate(context.Background(), auth.Rotation{AccountID: "acct1", TokenID: oldID, KeepOld: true, By: admin})
	assert.ErrorIs(t, err, auth.ErrAlreadyRotated)
}

func TestTheEndOfAGracePeriodHoldsWhenTheStateItemExpiredMeanwhile(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, a *testenv.Env, token string)
	}{
		{"the state item expired by TTL after the rotation", func(t *testing.T, a *testenv.Env, token string) {
			require.Equal(t, http.StatusOK, pingStatus(t, a, token))
		}},
		{"the account had no state item when it was rotated", func(t *testing.T, a *testenv.Env, token string) {
			require.Equal(t, http.StatusOK, pingStatus(t, a, token))
			require.NoError(t, a.Table.Delete(context.Background(), ratelimit.StateKey("acct1"), nil))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := instances(t)
			old, oldID := a.Token(t, "acct1")
			tc.setup(t, a, old)
			_, _, _, err := a.Server.Tokens.Rotate(context.Background(), auth.Rotation{AccountID: "acct1", TokenID: oldID, KeepOld: true, By: admin})
			require.NoError(t, err)
			// The state item (and the end it records) is deleted; the warm
			// instance still holds the token's facts from before the rotation.
			require.NoError(t, a.Table.Delete(context.Background(), ratelimit.StateKey("acct1"), nil))
			a.Clock.Advance(time.Hour)
			require.Equal(t, http.StatusOK, pingStatus(t, a, old), "a new state item is born: the token is read again and still works")
			a.Clock.Advance(auth.RotationGrace)
			a.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: old}).RequireError(t, http.StatusUnauthorized)
		})
	}
}

func TestAnotherAccountsTokenIdBehavesLikeAnIdThatDoesNotExist(t *testing.T) {
	a, _ := instances(t)
	ctx := context.Background()
	other, otherID := a.Token(t, "acct2")
	tokens := a.Server.Tokens
	for _, id := range []string{otherID, "tok_doesNotExist000", "not an id!"} {
		t.Run(id, func(t *testing.T) {
			_, err := tokens.Get(ctx, "acct1", id)
			assert.ErrorIs(t, err, auth.ErrTokenUnknown)
			_, err = tokens.RevokeInAccount(ctx, "acct1", id, admin)
			assert.ErrorIs(t, err, auth.ErrTokenUnknown)
			_, _, _, err = tokens.Rotate(ctx, auth.Rotation{AccountID: "acct1", TokenID: id, By: admin})
			assert.ErrorIs(t, err, auth.ErrTokenUnknown)
		})
	}
	assert.Equal(t, http.StatusOK, pingStatus(t, a, other), "the other account's token is untouched")
	entries, err := tokens.Audit(ctx, "acct1", 50)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

func TestLastUseIsRecordedByTheAdmissionWriteAndOutlivesARevocation(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	a := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(counted))
	a.Account(t, "acct1", "co1")
	token, tokenID := a.Token(t, "acct1")
	unused, unusedID := a.Token(t, "acct1")
	_ = unused
	ctx := context.Background()

	require.Equal(t, http.StatusOK, pingStatus(t, a, token))
	a.Clock.Advance(90 * time.Second)
	calls.Take()
	require.Equal(t, http.StatusOK, pingStatus(t, a, token))
	assert.Equal(t, map[string]int{"UpdateItem": 1}, calls.Take(), "recording the use costs no call of its own")
	usedMinute := clock.Timestamp(a.Clock.Now().Truncate(time.Minute))

	byID := func() map[string]auth.Info {
		list, err := a.Server.Tokens.List(ctx, "acct1")
		require.NoError(t, err)
		out := map[string]auth.Info{}
		for _, i := range list {
			out[i.TokenID] = i
		}
		return out
	}
	assert.Equal(t, usedMinute, byID()[tokenID].LastUsedAt)
	assert.Empty(t, byID()[unusedID].LastUsedAt, "never used")

	a.Clock.Advance(time.Hour)
	_, err := a.Server.Tokens.RevokeInAccount(ctx, "acct1", tokenID, admin)
	require.NoError(t, err)
	st, err := storage.Get[map[string]any](ctx, table, ratelimit.StateKey("acct1"))
	require.NoError(t, err)
	assert.NotContains(t, *st, "lu_"+tokenID, "the state item forgets a revoked token")
	assert.Equal(t, usedMinute, byID()[tokenID].LastUsedAt, "the listing keeps its last use")

	require.NoError(t, table.Delete(ctx, ratelimit.StateKey("acct1"), nil))
	assert.Equal(t, usedMinute, byID()[tokenID].LastUsedAt, "and outlives the state item")
}

func TestTheAuditListNamesWhoDidWhatToWhichTokenNewestFirst(t *testing.T) {
	a, _ := instances(t)
	ctx := context.Background()
	tokens := a.Server.Tokens
	value, created, err := tokens.Create(ctx, auth.NewToken{AccountID: "acct1", Kind: auth.KindPrivate, Scopes: []string{"contacts.readonly"}, Name: "CI", Description: "deploys", By: admin})
	require.NoError(t, err)
	a.Clock.Advance(time.Minute)
	newValue, next, _, err := tokens.Rotate(ctx, auth.Rotation{AccountID: "acct1", TokenID: created.TokenID, KeepOld: true, By: admin})
	require.NoError(t, err)
	a.Clock.Advance(time.Minute)
	_, err = tokens.Revoke(ctx, next.TokenID) // the operator's CLI
	require.NoError(t, err)

	entries, err := tokens.Audit(ctx, "acct1", 50)
	require.NoError(t, err)
	require.Len(t, entries, 3)
	assert.Equal(t, []string{auth.AuditRevoked, auth.AuditRotated, auth.AuditCreated},
		[]string{entries[0].Action, entries[1].Action, entries[2].Action})
	assert.Equal(t, auth.Operator, entries[0].By)
	assert.Equal(t, admin, entries[1].By)
	assert.Equal(t, created.TokenID, entries[1].TokenID)
	assert.Contains(t, entries[1].Detail, next.TokenID)
	assert.Equal(t, "CI", entries[2].TokenName)
	for _, e := range entries {
		for _, secret := range []string{value, newValue, value[len(auth.Prefix):], newValue[len(auth.Prefix):]} {
			assert.NotContains(t, e.Detail+e.TokenName+e.TokenID, secret)
		}
	}
	limited, err := tokens.Audit(ctx, "acct1", 2)
	require.NoError(t, err)
	assert.Len(t, limited, 2)
}

func TestTokenNamesAndDescriptionsAreBounded(t *testing.T) {
	a, _ := instances(t)
	cases := []struct {
		name string
		tok  auth.NewToken
		msg  string
	}{
		{"a name of 101 characters", auth.NewToken{Name: strings.Repeat("n", 101)}, "name must be at most 100"},
		{"a description of 501 characters", auth.NewToken{Description: strings.Repeat("d", 501)}, "description must be at most 500"},
		{"no scope", auth.NewToken{Scopes: []string{}}, "at least one scope"},
		{"an unknown scope", auth.NewToken{Scopes: []string{"contacts.everything"}}, `scope "contacts.everything" is not a known scope (nearest: contacts.write, contacts.readonly, contacts/bulkActions.write)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.tok
			n.AccountID, n.Kind = "acct1", auth.KindPrivate
			if n.Scopes == nil {
				n.Scopes = []string{"contacts.readonly"}
			}
			_, _, err := a.Server.Tokens.Create(context.Background(), n)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
	list, err := a.Server.Tokens.List(context.Background(), "acct1")
	require.NoError(t, err)
	assert.Empty(t, list, "nothing was created")
}
