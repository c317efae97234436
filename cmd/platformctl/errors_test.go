package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/validate"
)

// TestEveryFailurePrintsOneLineInOneForm: "platformctl: " and what failed,
// a refused input naming each rule it breaks (never Go's "validation: [...]"
// nor a form of its own per command), and a URL refused for its real
// reason: the credentials of an http URL on a local engine's loopback
// host, where http itself is allowed. A refused value is a usage error:
// exit 2, in every command.
func TestEveryFailurePrintsOneLineInOneForm(t *testing.T) {
	c, _ := setup(t)
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctForm", "--company", "coForm", "--name", "Form")))
	const webhookRule = "must be an https URL with a public host on port 443 or 8443: "
	for _, tc := range []struct {
		name string
		args []string
		line string
	}{
		{"an account's name", []string{"accounts", "create", "--id", "acctForm2", "--company", "coForm", "--name", "Bad\x1b[31m"},
			"platformctl: name must not contain a control character (U+001B at character 4)"},
		{"a token's unknown scope", []string{"tokens", "create", "--account", "acctForm", "--scopes", "contacts.readwrite"},
			`platformctl: scope "contacts.readwrite" is not a known scope (nearest: contacts.write, contacts.readonly, contacts/bulkActions.write)`},
		{"an endpoint's URL with credentials on the loopback host", []string{"webhooks", "add", "--account", "acctForm", "--url", "http://user:secret@127.0.0.1:8091/hooks", "--events", "TaskDelete"},
			"platformctl: url " + webhookRule + "it must not hold a user name or password"},
		{"an endpoint's URL with a fragment on the loopback host", []string{"webhooks", "add", "--account", "acctForm", "--url", "http://127.0.0.1:8091/hooks#top", "--events", "TaskDelete"},
			"platformctl: url " + webhookRule + "it must not hold a fragment (#...), which a receiver never gets"},
		{"an endpoint's URL on SSH's port", []string{"webhooks", "add", "--account", "acctForm", "--url", "https://8.8.8.8:22/", "--events", "TaskDelete"},
			"platformctl: url " + webhookRule + "its port is 22"},
		{"an endpoint breaking two rules", []string{"webhooks", "add", "--account", "acctForm", "--url", "https://8.8.8.8:22/", "--events", "Nope"},
			"platformctl: url " + webhookRule + `its port is 22; "Nope" is not an event type an account receives (docs/events.md lists them)`},
		{"an app's webhook URL with credentials", []string{"apps", "create", "--company", "coForm", "--name", "Bridge", "--redirect-uri", "https://bridge.example.com/cb",
			"--scopes", "contacts.readonly", "--webhook-url", "http://user:secret@127.0.0.1:8091/hooks"},
			"platformctl: webhook-url " + webhookRule + "it must not hold a user name or password"},
		{"an app's redirect URI", []string{"apps", "create", "--company", "coForm", "--name", "Bridge", "--redirect-uri", "ftp://bridge.example.com/cb", "--scopes", "contacts.readonly"},
			"platformctl: redirect-uri must be an https URL with a public host: it uses ftp, not https"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := c.run(tc.args...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, out)
			assert.Equal(t, tc.line+"\n", errOut)
		})
	}
}

func TestAFailureLineKeepsWhatWrapsARefusal(t *testing.T) {
	var v validate.Errors
	v.Add("name is required")
	v.Add("url must not be empty")
	assert.Equal(t, "platformctl: seed apps: name is required; url must not be empty", failureLine(fmt.Errorf("seed apps: %w", v.Err())))
	assert.Equal(t, "platformctl: account nobody does not exist", failureLine(errors.New("account nobody does not exist")))
}
