package main

import (
	"encoding/json"
	"encoding/pem"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
)

func TestAnEndpointsSigningSecretIsPrintedOnceByAddAndRotateSecret(t *testing.T) {
	c, _ := setup(t)
	c.env["SECRETS_LOCAL_KEY_FILE"] = filepath.Join(t.TempDir(), "secrets.key")
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctSig", "--company", "coSig", "--name", "Sig")))

	code, out, errOut := c.run("webhooks", "add", "--account", "acctSig", "--url", "https://hooks.example.com/in", "--events", "TaskDelete")
	require.Equal(t, exitOK, code, errOut)
	var added endpoints.Endpoint
	require.NoError(t, json.Unmarshal([]byte(out), &added))
	_, err := deliveries.ParseSecret(added.SigningSecret)
	require.NoError(t, err, "stdout's JSON holds the secret: %s", out)
	assert.Contains(t, errOut, "its signingSecret is shown only now")
	body := strings.TrimPrefix(added.SigningSecret, deliveries.SecretPrefix)

	code, out, _ = c.run("webhooks", "list", "--account", "acctSig")
	require.Equal(t, exitOK, code)
	assert.NotContains(t, out, body, "never listed")

	t.Run("rotate-secret --keep-old prints the new one and until when the old one signs", func(t *testing.T) {
		code, out, errOut := c.run("webhooks", "rotate-secret", added.ID, "--account", "acctSig", "--keep-old")
		require.Equal(t, exitOK, code, errOut)
		var rotated endpoints.Endpoint
		require.NoError(t, json.Unmarshal([]byte(out), &rotated))
		assert.NotEqual(t, added.SigningSecret, rotated.SigningSecret)
		assert.NotEmpty(t, rotated.PreviousSecretUntil)
		assert.Regexp(t, `new signing secret, shown only now; the previous one signs too until \d{4}-\d\d-\d\dT\d\d:\d\dZ`, errOut)
	})
	t.Run("rotate-secret without it ends the old one now", func(t *testing.T) {
		code, out, errOut := c.run("webhooks", "rotate-secret", "--account", "acctSig", added.ID)
		require.Equal(t, exitOK, code, errOut)
		var rotated endpoints.Endpoint
		require.NoError(t, json.Unmarshal([]byte(out), &rotated))
		assert.Empty(t, rotated.PreviousSecretUntil)
		assert.Contains(t, errOut, "the previous one signs no more")
	})
	t.Run("rotate-secret of another account's endpoint, or with no id, changes nothing", func(t *testing.T) {
		require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctOther", "--company", "coSig", "--name", "Other")))
		code, _, errOut := c.run("webhooks", "rotate-secret", added.ID, "--account", "acctOther")
		assert.Equal(t, exitError, code)
		assert.Contains(t, errOut, "no such webhook endpoint")
		code, _, errOut = c.run("webhooks", "rotate-secret", "--account", "acctSig")
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, errOut, "give the endpoint id")
	})
}

func TestWebhooksKeyPrintsThePublishedKeyForAnAccountsAdmin(t *testing.T) {
	c, _ := setup(t)
	code, _, errOut := c.run("webhooks", "key")
	assert.Equal(t, exitError, code, "nothing published yet")
	assert.Contains(t, errOut, "no webhook signing key is published yet")

	c.env["WEBHOOK_KEY_FILE"] = filepath.Join(t.TempDir(), "webhook.pem")
	code, published, errOut := c.run("apps", "webhook-key")
	require.Equal(t, exitOK, code, errOut)
	code, out, errOut := c.run("webhooks", "key")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, published, out, "the key apps webhook-key made and published")
	block, _ := pem.Decode([]byte(out))
	require.NotNil(t, block)
	assert.Equal(t, "PUBLIC KEY", block.Type)
	assert.Contains(t, errOut, "x-ghl-signature is the base64 Ed25519 signature of a delivery's raw body")
	assert.Contains(t, errOut, "webhook-signature")

	code, _, errOut = c.run("webhooks", "key", "--account", "acctSig")
	assert.Equal(t, exitUsage, code, errOut)
}
