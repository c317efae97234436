package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A right-to-left override in a stored name makes `tokens list` (and the
// portal) read backwards past it; every name the CLI stores refuses it,
// and nothing is written.
func TestEveryNameTheCLIStoresRefusesInvisibleAndReorderingCharacters(t *testing.T) {
	c, _ := setup(t)
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctTxt", "--company", "coTxt", "--name", "Text")))
	const rlo = "\u202E"
	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"a token's name", []string{"tokens", "create", "--account", "acctTxt", "--scopes", "contacts.readonly", "--name", "ci" + rlo + "gnp"},
			"Token name must not contain a text-direction control (U+202E at character 3)"},
		{"a token's description", []string{"tokens", "create", "--account", "acctTxt", "--scopes", "contacts.readonly", "--name", "ci", "--description", "used by\u200bci"},
			"Description must not contain a zero-width character (U+200B at character 8)"},
		{"a token's name that is not UTF-8", []string{"tokens", "create", "--account", "acctTxt", "--scopes", "contacts.readonly", "--name", "caf\xe9"},
			"Token name is not valid UTF-8 text"},
		{"an account's name", []string{"accounts", "create", "--id", "acctTxt2", "--company", "coTxt", "--name", "Bad\x1b[31m"},
			"name must not contain a control character (U+001B at character 4)"},
		{"a user's name", []string{"users", "create", "--company", "coTxt", "--email", "erin@txt.example", "--name", "Erin " + rlo + "elpmaxE", "--role", "admin", "--accounts", "acctTxt"},
			"name must not contain a text-direction control (U+202E at character 6)"},
		{"an app's name", []string{"apps", "create", "--company", "coTxt", "--name", "Bridge" + rlo, "--redirect-uri", "https://bridge.example/callback", "--scopes", "contacts.readonly"},
			"name must not contain a text-direction control (U+202E at character 7)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := c.run(tc.args...)
			assert.Equal(t, exitUsage, code, "a refused value is a usage error")
			assert.Empty(t, out, "nothing created, nothing printed")
			assert.Contains(t, errOut, tc.msg)
		})
	}
	code, out, errOut := c.run("tokens", "list", "--account", "acctTxt")
	require.Equal(t, exitOK, code, errOut)
	assert.NotContains(t, out, "ci", "no token was stored")
	code, out, errOut = c.run("apps", "list", "--company", "coTxt")
	require.Equal(t, exitOK, code, errOut)
	assert.NotContains(t, out, "Bridge", "no app was stored")
}
