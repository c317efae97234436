package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
)

func TestTokensEditRenamesATokenAndKeepsItWorking(t *testing.T) {
	c, api := setup(t)
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctEd", "--company", "coEd", "--name", "Edit")))
	code, out, errOut := c.run("tokens", "create", "--account", "acctEd", "--scopes", "contacts.readonly", "--name", "ci", "--description", "nightly")
	require.Equal(t, exitOK, code, errOut)
	token := strings.TrimSpace(out)
	list, err := api.Server.Tokens.List(context.Background(), "acctEd")
	require.NoError(t, err)
	require.Len(t, list, 1)
	id := list[0].TokenID

	t.Run("a new name keeps the description", func(t *testing.T) {
		code, out, errOut := c.run("tokens", "edit", id, "--name", "CI export")
		require.Equal(t, exitOK, code, errOut)
		assert.Equal(t, `token `+id+`: name "CI export", description "nightly"`+"\n", out)
	})
	t.Run("an empty description clears it and keeps the name", func(t *testing.T) {
		code, out, errOut := c.run("tokens", "edit", id, "--description", "")
		require.Equal(t, exitOK, code, errOut)
		assert.Equal(t, `token `+id+`: name "CI export", no description`+"\n", out)
	})
	t.Run("the edit is audited and the token still works", func(t *testing.T) {
		require.Equal(t, http.StatusOK, ping(t, api, token).Status)
		code, out, errOut := c.run("tokens", "audit", "--account", "acctEd")
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, auth.AuditEdited)
	})
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no flag is a usage error", []string{"tokens", "edit", id}, exitUsage, "needs --name or --description"},
		{"no id is a usage error", []string{"tokens", "edit", "--name", "x"}, exitUsage, "one TOKEN_ID"},
		{"a name with a text-direction control is refused", []string{"tokens", "edit", id, "--name", "ci\u202Egnp"}, exitUsage, "Token name must not contain a text-direction control"},
		{"an unknown token", []string{"tokens", "edit", "tok_nothing", "--name", "x"}, exitError, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := c.run(tc.args...)
			assert.Equal(t, tc.code, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.msg)
		})
	}
	list, err = api.Server.Tokens.List(context.Background(), "acctEd")
	require.NoError(t, err)
	assert.Equal(t, "CI export", list[0].Name, "a refused edit changes nothing")
}
