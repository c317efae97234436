package marketplace_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/marketplace"
)

const (
	company = "coMarket"
	acct    = "acctMarket"
)

// newStore is the app store beside an API serving /ping, on a table with
// one account of company.
func newStore(t *testing.T, localURLs bool) (*marketplace.Apps, *testenv.Env) {
	env := testenv.New(t, []app.Area{testenv.PingArea})
	env.Account(t, acct, company)
	return marketplace.New(env.Server.Tokens, env.Clock, localURLs), env
}

func sampleApp() marketplace.NewApp {
	return marketplace.NewApp{
		CompanyID: company, Name: "Payments Bridge", RedirectURIs: []string{"https://app.example.com/oauth/callback"},
		Scopes: []string{"contacts.readonly", "payments/integration.write"}, WebhookURL: "https://app.example.com/hooks",
	}
}

func TestAnAppGetsAClientIdAndASecretShownOnceAndStoredOnlyAsAHash(t *testing.T) {
	store, env := newStore(t, false)
	ctx := context.Background()
	created, secret, err := store.Create(ctx, sampleApp())
	require.NoError(t, err)

	assert.Regexp(t, `^[0-9a-f]{24}$`, created.ID)
	assert.Equal(t, created.ID, marketplace.AppIDOf(created.ClientID), "the client id is the app id, a dash, a suffix (the SDK reads the app id so)")
	assert.Regexp(t, `^[0-9a-f]{24}-[0-9a-z]{8}$`, created.ClientID)
	require.NoError(t, auth.CheckSecretFormat(marketplace.SecretPrefix, secret))
	assert.Equal(t, marketplace.TargetLocation, created.Target, "a location install by default")

	for _, item := range testenv.Items[map[string]any](t, env.Table) {
		assert.NotContains(t, fmt.Sprint(item), secret, "no item holds the secret")
	}
	got, err := store.Authenticate(ctx, created.ClientID, secret)
	require.NoError(t, err)
	assert.Equal(t, created, got)
	_, err = store.Authenticate(ctx, created.ClientID, secret+"x")
	assert.ErrorIs(t, err, marketplace.ErrNoApp)
	_, err = store.Authenticate(ctx, created.ID+"-zzzzzzzz", secret)
	assert.ErrorIs(t, err, marketplace.ErrNoApp, "the client id must be the app's exactly")

	list, err := store.List(ctx, company)
	require.NoError(t, err)
	assert.Equal(t, []marketplace.App{created}, list)
}

func TestAppRegistrationFollowsTheOutsideURLRule(t *testing.T) {
	cases := []struct {
		name      string
		localURLs bool
		change    func(*marketplace.NewApp)
		problem   string
	}{
		{"a redirect URI is required", false, func(n *marketplace.NewApp) { n.RedirectURIs = nil }, "redirect-uri must be given"},
		{"an http redirect URI is refused", false, func(n *marketplace.NewApp) { n.RedirectURIs = []string{"http://app.example.com/cb"} }, "redirect-uri"},
		{"a redirect URI with a fragment is refused (RFC 6749 3.1.2)", false, func(n *marketplace.NewApp) { n.RedirectURIs = []string{"https://app.example.com/cb#done"} }, "fragment"},
		{"a redirect URI with an empty fragment is refused", false, func(n *marketplace.NewApp) { n.RedirectURIs = []string{"https://app.example.com/cb#"} }, "fragment"},
		{"a loopback redirect URI with an empty fragment is refused on a local engine", true, func(n *marketplace.NewApp) { n.RedirectURIs = []string{"http://127.0.0.1:8080/cb#"} }, "fragment"},
		{"a private webhook host is refused", false, func(n *marketplace.NewApp) { n.WebhookURL = "https://10.0.0.8/hooks" }, "webhook-url"},
		{"loopback http is refused on AWS", false, func(n *marketplace.NewApp) { n.RedirectURIs = []string{"http://127.0.0.1:8080/cb"} }, "redirect-uri"},
		{"an unknown scope is refused", false, func(n *marketplace.NewApp) { n.Scopes = []string{"contacts.everything"} }, "not a known scope"},
		{"a target other than location or company is refused", false, func(n *marketplace.NewApp) { n.Target = "agency" }, "target"},
		{"a company that does not exist is refused", false, func(n *marketplace.NewApp) { n.CompanyID = "coNowhere" }, "company does not exist"},
		{"loopback http is taken on a local engine", true, func(n *marketplace.NewApp) {
			n.RedirectURIs, n.WebhookURL = []string{"http://127.0.0.1:8080/cb", "http://localhost/cb"}, "http://localhost:9/hooks"
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store, _ := newStore(t, c.localURLs)
			n := sampleApp()
			c.change(&n)
			_, _, err := store.Create(context.Background(), n)
			if c.problem == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.problem)
		})
	}
}

func TestARotatedSecretKeepsWorkingFor24HoursBesideTheNewOne(t *testing.T) {
	store, env := newStore(t, false)
	ctx := context.Background()
	created, old, err := store.Create(ctx, sampleApp())
	require.NoError(t, err)
	_, fresh, err := store.RotateSecret(ctx, created.ID, auth.Operator)
	require.NoError(t, err)
	require.NotEqual(t, old, fresh)

	env.Clock.Advance(marketplace.SecretGrace - time.Second)
	for name, secret := range map[string]string{"the old secret": old, "the new secret": fresh} {
		_, err := store.Authenticate(ctx, created.ClientID, secret)
		assert.NoError(t, err, "%s works a second before the grace ends", name)
	}
	env.Clock.Advance(time.Second)
	_, err = store.Authenticate(ctx, created.ClientID, old)
	assert.ErrorIs(t, err, marketplace.ErrNoApp, "the old secret ends with the grace")
	_, err = store.Authenticate(ctx, created.ClientID, fresh)
	assert.NoError(t, err)

	var audited bool
	for _, item := range testenv.Items[map[string]any](t, env.Table) {
		audited = audited || (item["action"] == auth.AuditSecretRotated && strings.HasPrefix(fmt.Sprint(item["PK"]), "COMPANY#"+company))
	}
	assert.True(t, audited, "the rotation is in the company's audit list")
}
