package auth_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
)

func TestEditingATokenRenamesItEverywhereWithOneAuditEntryAndKeepsItWorking(t *testing.T) {
	a, _ := instances(t)
	ctx := context.Background()
	value, id := a.Token(t, "acct1", "contacts.readonly")

	after, err := a.Server.Tokens.Edit(ctx, auth.Edit{AccountID: "acct1", TokenID: id, Name: "Nightly sync", Description: "runs at 02:00", By: admin})
	require.NoError(t, err)
	assert.Equal(t, "Nightly sync", after.Name)

	listed, err := a.Server.Tokens.Get(ctx, "acct1", id)
	require.NoError(t, err)
	assert.Equal(t, "Nightly sync", listed.Name)
	assert.Equal(t, "runs at 02:00", listed.Description)
	byID, err := a.Server.Tokens.Lookup(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, "Nightly sync", byID.Name, "the token's own item too")
	assert.Equal(t, http.StatusOK, pingStatus(t, a, value), "an edit changes nothing of what the token may do")

	audit, err := a.Server.Tokens.Audit(ctx, "acct1", 10)
	require.NoError(t, err)
	require.Equal(t, auth.AuditEdited, audit[0].Action)
	assert.Equal(t, "Nightly sync", audit[0].TokenName)
	assert.Equal(t, `name was "test"; description changed`, audit[0].Detail)
	assert.Equal(t, admin, audit[0].By)

	_, err = a.Server.Tokens.Edit(ctx, auth.Edit{AccountID: "acct1", TokenID: id, Name: "Nightly sync", Description: "runs at 02:00", By: admin})
	require.NoError(t, err)
	again, err := a.Server.Tokens.Audit(ctx, "acct1", 10)
	require.NoError(t, err)
	assert.Len(t, again, len(audit), "an edit that changes nothing writes nothing")
}

func TestAnEditIsRefusedByTheRuleOfANewTokenAndForRevokedOrForeignTokens(t *testing.T) {
	a, _ := instances(t)
	ctx := context.Background()
	_, id := a.Token(t, "acct1", "contacts.readonly")
	_, revokedID := a.Token(t, "acct1", "contacts.readonly")
	_, err := a.Server.Tokens.RevokeInAccount(ctx, "acct1", revokedID, admin)
	require.NoError(t, err)
	_, foreignID := a.Token(t, "acct2", "contacts.readonly")

	cases := []struct {
		name string
		edit auth.Edit
		want string
	}{
		{"a name over the limit", auth.Edit{AccountID: "acct1", TokenID: id, Name: strings.Repeat("n", auth.MaxNameLength+1)}, "name"},
		{"a description over the limit", auth.Edit{AccountID: "acct1", TokenID: id, Name: "x", Description: strings.Repeat("d", auth.MaxDescriptionLength+1)}, "description"},
		{"a revoked token", auth.Edit{AccountID: "acct1", TokenID: revokedID, Name: "x"}, auth.ErrAlreadyRevoked.Error()},
		{"another account's token", auth.Edit{AccountID: "acct1", TokenID: foreignID, Name: "x"}, auth.ErrTokenUnknown.Error()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.Server.Tokens.Edit(ctx, tc.edit)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	for _, acct := range []string{"acct1", "acct2"} {
		audit, err := a.Server.Tokens.Audit(ctx, acct, 10)
		require.NoError(t, err)
		for _, e := range audit {
			assert.NotEqual(t, auth.AuditEdited, e.Action, "nothing was edited")
		}
	}
	info, err := a.Server.Tokens.Lookup(ctx, foreignID)
	require.NoError(t, err)
	assert.Equal(t, "test", info.Name)
}
