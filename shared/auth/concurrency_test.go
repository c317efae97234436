package auth_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/storage"
)

// storedItem is any item of the table, with the attributes of a token's
// items: its facts (TOKEN# item and listing) or its id and hash (reference).
type storedItem struct {
	storage.Key
	auth.Info
	Hash string `dynamodbav:"hash"`
}

// wholeTokens reads every item of the table and requires each token to be
// whole: a listing, a reference and a TOKEN# item, the two items of facts
// agreeing, and no item of a token that has no listing. It returns the
// listings by token id.
func wholeTokens(t *testing.T, table *storage.Table) map[string]auth.Info {
	t.Helper()
	listings, refs, facts := map[string]auth.Info{}, map[string]string{}, map[string]auth.Info{}
	for _, it := range testenv.Items[storedItem](t, table) {
		switch {
		case strings.HasPrefix(it.PK, "ACCOUNT#") && strings.HasPrefix(it.SK, "TOKEN#"):
			listings[it.TokenID] = it.Info
		case strings.HasPrefix(it.PK, "TOKENID#"):
			refs[it.TokenID] = it.Hash
		case strings.HasPrefix(it.PK, "TOKEN#"):
			facts[strings.TrimPrefix(it.PK, "TOKEN#")] = it.Info
		}
	}
	require.Len(t, refs, len(listings), "one reference per listed token")
	require.Len(t, facts, len(listings), "one TOKEN# item per listed token")
	for id, listed := range listings {
		hash, ok := refs[id]
		require.True(t, ok, "token %s has a reference", id)
		fact, ok := facts[hash]
		require.True(t, ok, "token %s has its TOKEN# item", id)
		listed.LastUsedAt = "" // kept on the listing only
		assert.Equal(t, listed, fact, "the listing of %s agrees with its TOKEN# item", id)
	}
	return listings
}

// auditActions counts the account's audit entries by action.
func auditActions(t *testing.T, tokens *auth.Tokens, accountID string) map[string]int {
	t.Helper()
	entries, err := tokens.Audit(context.Background(), accountID, 100)
	require.NoError(t, err)
	out := map[string]int{}
	for _, e := range entries {
		out[e.Action]++
	}
	return out
}

func TestConcurrentRotationsOfOneTokenMakeExactlyOneSuccessor(t *testing.T) {
	cases := []struct {
		name      string
		keepOld   bool
		refusal   error // what every other rotation answers
		oldStatus string
		oldPing   int // what a warm instance answers the old token
		audit     map[string]int
	}{
		{"keeping the old token, the others are told it was rotated already", true, auth.ErrAlreadyRotated,
			auth.StatusExpiring, http.StatusOK, map[string]int{auth.AuditCreated: 1, auth.AuditRotated: 1}},
		{"revoking the old token, the others are told it is revoked", false, auth.ErrTokenInactive,
			auth.StatusRevoked, http.StatusUnauthorized, map[string]int{auth.AuditCreated: 1, auth.AuditRotated: 1, auth.AuditRevoked: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b := instances(t)
			old, oldID := a.Token(t, "acct1")
			require.Equal(t, http.StatusOK, pingStatus(t, b, old), "instance b caches the old token")

			const rotations = 8
			type outcome struct {
				value string
				next  auth.Info
				err   error
			}
			outcomes := make([]outcome, rotations)
			var wg sync.WaitGroup
			for i := range rotations {
				wg.Go(func() {
					value, next, _, err := a.Server.Tokens.Rotate(context.Background(), auth.Rotation{AccountID: "acct1", TokenID: oldID, KeepOld: tc.keepOld, By: admin})
					outcomes[i] = outcome{value, next, err}
				})
			}
			wg.Wait()
			var won []outcome
			for _, o := range outcomes {
				if o.err == nil {
					won = append(won, o)
					continue
				}
				assert.ErrorIs(t, o.err, tc.refusal)
			}
			require.Equal(t, 1, len(won), "one rotation succeeds")
			next := won[0].next

			tokens := wholeTokens(t, a.Table)
			assert.Len(t, tokens, 2, "the old token and one successor: nothing of the refused rotations")
			assert.Equal(t, next.TokenID, tokens[oldID].ReplacedBy)
			assert.Equal(t, oldID, tokens[next.TokenID].Replaces)
			assert.Equal(t, tc.oldStatus, tokens[oldID].Status(a.Clock.Now()))
			assert.Equal(t, auth.StatusActive, tokens[next.TokenID].Status(a.Clock.Now()))
			assert.Equal(t, tc.audit, auditActions(t, a.Server.Tokens, "acct1"), "one entry per change made")
			assert.Equal(t, http.StatusOK, pingStatus(t, b, won[0].value), "the successor works")
			assert.Equal(t, tc.oldPing, pingStatus(t, b, old), "a warm instance sees the old token's end at once")
		})
	}
}

func TestConcurrentRevokesOfOneTokenRevokeItOnce(t *testing.T) {
	a, b := instances(t)
	value, id := a.Token(t, "acct1")
	require.Equal(t, http.StatusOK, pingStatus(t, b, value), "instance b caches the token")

	const revokes = 8
	infos, errs := make([]auth.Info, revokes), make([]error, revokes)
	var wg sync.WaitGroup
	for i := range revokes {
		wg.Go(func() {
			if i%2 == 0 { // the operator's form and the portal's
				infos[i], errs[i] = a.Server.Tokens.Revoke(context.Background(), id)
			} else {
				infos[i], errs[i] = a.Server.Tokens.RevokeInAccount(context.Background(), "acct1", id, admin)
			}
		})
	}
	wg.Wait()
	changed := 0
	for i, err := range errs {
		if err == nil {
			changed++
		} else {
			assert.ErrorIs(t, err, auth.ErrAlreadyRevoked)
		}
		assert.Equal(t, infos[0].RevokedAt, infos[i].RevokedAt, "every answer names the one revocation")
	}
	assert.Equal(t, 1, changed, "one revoke changes the token; the others say it was revoked already")

	tokens := wholeTokens(t, a.Table)
	require.Len(t, tokens, 1)
	assert.Equal(t, infos[0].RevokedAt, tokens[id].RevokedAt)
	assert.Equal(t, map[string]int{auth.AuditCreated: 1, auth.AuditRevoked: 1}, auditActions(t, a.Server.Tokens, "acct1"))
	assert.Equal(t, http.StatusUnauthorized, pingStatus(t, b, value), "a warm instance refuses it on its next request")
}

func TestARevokeRacingARotationEndsInOneConsistentState(t *testing.T) {
	for _, keepOld := range []bool{true, false} {
		name := map[bool]string{true: "a rotation keeping the old token", false: "a rotation revoking the old token"}[keepOld]
		t.Run(name, func(t *testing.T) {
			a, b := instances(t)
			value, id := a.Token(t, "acct1")
			require.Equal(t, http.StatusOK, pingStatus(t, b, value), "instance b caches the token")
			var (
				wg                sync.WaitGroup
				next              auth.Info
				nextValue         string
				rotated, revoked  error
				rotation          = auth.Rotation{AccountID: "acct1", TokenID: id, KeepOld: keepOld, By: admin}
				tokens            = a.Server.Tokens
				ctx               = context.Background()
				revokeAfterRotate = map[bool]error{true: nil, false: auth.ErrAlreadyRevoked}[keepOld]
			)
			wg.Go(func() { nextValue, next, _, rotated = tokens.Rotate(ctx, rotation) })
			wg.Go(func() { _, revoked = tokens.RevokeInAccount(ctx, "acct1", id, admin) })
			wg.Wait()

			stored := wholeTokens(t, a.Table)
			assert.Equal(t, auth.StatusRevoked, stored[id].Status(a.Clock.Now()), "the old token ends revoked whichever came first")
			assert.Equal(t, http.StatusUnauthorized, pingStatus(t, b, value))
			audit := auditActions(t, tokens, "acct1")
			assert.Equal(t, 1, audit[auth.AuditRevoked], "one revocation is recorded")
			if rotated != nil { // the revoke came first
				assert.ErrorIs(t, rotated, auth.ErrTokenInactive)
				assert.NoError(t, revoked)
				assert.Len(t, stored, 1, "no successor")
				assert.Zero(t, audit[auth.AuditRotated])
				return
			}
			assert.ErrorIs(t, revoked, revokeAfterRotate)
			require.Len(t, stored, 2)
			assert.Equal(t, next.TokenID, stored[id].ReplacedBy)
			assert.Equal(t, 1, audit[auth.AuditRotated])
			assert.Equal(t, http.StatusOK, pingStatus(t, b, nextValue), "the successor works")
		})
	}
}

func TestEachChangeOfATokenIsItsReadsAndOneTransaction(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	a := testenv.New(t, nil, testenv.WithTable(counted))
	a.Account(t, "acct1", "co1")
	tokens, ctx := a.Server.Tokens, context.Background()
	var id string
	cases := []struct {
		name   string
		change func(t *testing.T)
		calls  map[string]int
	}{
		{"a creation reads the account", func(t *testing.T) {
			_, id = a.Token(t, "acct1")
		}, map[string]int{"GetItem": 1, "TransactWriteItems": 1}},
		{"a rotation keeping the old token reads its reference and listing", func(t *testing.T) {
			_, next, _, err := tokens.Rotate(ctx, auth.Rotation{AccountID: "acct1", TokenID: id, KeepOld: true, By: admin})
			require.NoError(t, err)
			id = next.TokenID
		}, map[string]int{"GetItem": 2, "TransactWriteItems": 1}},
		{"a rotation revoking the old token reads its last use too", func(t *testing.T) {
			_, next, _, err := tokens.Rotate(ctx, auth.Rotation{AccountID: "acct1", TokenID: id, By: admin})
			require.NoError(t, err)
			id = next.TokenID
		}, map[string]int{"GetItem": 3, "TransactWriteItems": 1}},
		{"a revocation reads its reference, listing and last use", func(t *testing.T) {
			_, err := tokens.Revoke(ctx, id)
			require.NoError(t, err)
		}, map[string]int{"GetItem": 3, "TransactWriteItems": 1}},
		{"a second revocation writes nothing", func(t *testing.T) {
			_, err := tokens.Revoke(ctx, id)
			require.ErrorIs(t, err, auth.ErrAlreadyRevoked)
		}, map[string]int{"GetItem": 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			calls.Take()
			tc.change(t)
			assert.Equal(t, tc.calls, calls.Take())
		})
	}
}

func TestEditsRacingEachOtherAndARevokeLeaveTheTokenWholeWithOneName(t *testing.T) {
	a, _ := instances(t)
	_, id := a.Token(t, "acct1")
	tokens, ctx := a.Server.Tokens, context.Background()
	names := []string{"first", "second", "third", "fourth", "fifth"}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		edited  = map[string]bool{}
		revoked error
	)
	for _, n := range names {
		wg.Go(func() {
			_, err := tokens.Edit(ctx, auth.Edit{AccountID: "acct1", TokenID: id, Name: n, Description: "by " + n, By: admin})
			if err == nil {
				mu.Lock()
				edited[n] = true
				mu.Unlock()
				return
			}
			assert.ErrorIs(t, err, auth.ErrAlreadyRevoked, "an edit fails only because the revoke came first")
		})
	}
	wg.Go(func() { _, revoked = tokens.RevokeInAccount(ctx, "acct1", id, admin) })
	wg.Wait()

	require.NoError(t, revoked)
	stored := wholeTokens(t, a.Table) // its listing and TOKEN# item agree, name and description included
	require.Len(t, stored, 1)
	final := stored[id]
	assert.Equal(t, auth.StatusRevoked, final.Status(a.Clock.Now()))
	if len(edited) > 0 {
		assert.True(t, edited[final.Name], "the name is one an edit that succeeded wrote, not %q", final.Name)
		assert.Equal(t, "by "+final.Name, final.Description, "name and description of the same edit")
	}
	audit := auditActions(t, tokens, "acct1")
	assert.Equal(t, len(edited), audit[auth.AuditEdited], "one audit entry per edit that succeeded")
	assert.Equal(t, 1, audit[auth.AuditRevoked])
}
