package portal_test

import (
	"context"
	"crypto/ed25519"
	"html"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/shared/endpoints"
)

// shownSecret is the value of the page that shows a secret once.
func shownSecret(t *testing.T, body string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<textarea id="signing-secret"[^>]*>([^<]*)</textarea>`).FindStringSubmatch(body)
	require.NotNil(t, m, "the secret's field: %s", body)
	return html.UnescapeString(m[1])
}

func TestAnEndpointsSigningSecretIsShownOnceWhenItIsAdded(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	base := "/portal/accounts/acct1/webhooks"
	resp := b.post(base, url.Values{"csrf": {csrf}, "url": {"https://hooks.example.com/in"}, "event": {"TaskDelete"}, "enabled": {"on"}})
	require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
	require.Equal(t, base+"/shown-once?made=added", resp.header.Get("Location"))
	hook := s.onlyHook(t, "acct1")

	assert.Equal(t, http.StatusMethodNotAllowed, b.do("HEAD", base+"/shown-once?made=added", nil, nil).status, "a HEAD (a prefetch) does not use it up")
	shown := b.get(resp.header.Get("Location"))
	require.Equal(t, http.StatusOK, shown.status, shown.body)
	secret := shownSecret(t, shown.body)
	key, err := deliveries.ParseSecret(secret)
	require.NoError(t, err)
	keys, err := s.hooks().SigningKeys(context.Background(), hook, s.env.Clock.Now())
	require.NoError(t, err)
	assert.Equal(t, [][]byte{key}, keys, "the secret shown is the one that signs")
	assert.Contains(t, shown.body, "Copy it now: this is the only time it is shown.")
	assert.Contains(t, shown.body, `href="/portal/accounts/acct1/webhooks?notice=added&amp;webhook=`+hook.ID+`"`)

	again := b.get(resp.header.Get("Location"))
	assert.Equal(t, http.StatusGone, again.status, "shown once")
	assert.NotContains(t, again.body, secret)
	assert.Contains(t, again.body, "rotate the endpoint")

	list := b.get(base)
	assert.NotContains(t, list.body, strings.TrimPrefix(secret, deliveries.SecretPrefix), "never shown again")
	assert.Contains(t, section(list.body, `data-webhook-id="`+hook.ID+`"`, "</tr>"), "Signing secret <code>"+html.EscapeString(hook.SecretHint)+"</code>")

	t.Run("a token's page does not take it, nor another account's", func(t *testing.T) {
		_, err := s.hooks().RotateSecret(context.Background(), endpoints.Rotation{AccountID: "acct1", EndpointID: hook.ID, By: auth.Operator})
		require.NoError(t, err)
		resp := b.post(base+"/"+hook.ID+"/rotate-secret", url.Values{"csrf": {csrf}, "old": {"end"}})
		require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
		assert.Equal(t, http.StatusGone, b.get("/portal/accounts/acct1/tokens/shown-once").status)
		assert.Equal(t, http.StatusOK, b.get(base+"/shown-once").status, "still there for its own page")
	})
}

func TestRotatingAnEndpointsSigningSecretInThePortal(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	base := "/portal/accounts/acct1/webhooks"
	added, err := s.hooks().Add(ctx, "acct1", endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	rotate := base + "/" + added.ID + "/rotate-secret"

	form := b.get(rotate)
	require.Equal(t, http.StatusOK, form.status, form.body)
	assert.Contains(t, form.body, "<h1>Rotate signing secret</h1>")
	assert.Regexp(t, `id="old-keep" name="old" value="keep" checked`, form.body)
	assert.Contains(t, form.body, "Keep it signing beside the new one for 24 hours")

	t.Run("without the form's token nothing changes", func(t *testing.T) {
		resp := b.post(rotate, url.Values{"old": {"keep"}})
		assert.Equal(t, http.StatusForbidden, resp.status)
		e, err := s.hooks().Get(ctx, "acct1", added.ID)
		require.NoError(t, err)
		assert.Equal(t, added.SecretHint, e.SecretHint)
	})
	t.Run("no choice is refused beside the choices", func(t *testing.T) {
		resp := b.post(rotate, url.Values{"csrf": {csrf}})
		require.Equal(t, http.StatusUnprocessableEntity, resp.status)
		assert.Contains(t, section(resp.body, `id="old-error"`, "</p>"), "Choose what happens to the current secret")
	})
	t.Run("keeping the old one: the new one shown once, the old one signing until the end shown", func(t *testing.T) {
		resp := b.post(rotate, url.Values{"csrf": {csrf}, "old": {"keep"}})
		require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
		shown := b.get(resp.header.Get("Location"))
		require.Equal(t, http.StatusOK, shown.status)
		assert.Contains(t, shown.body, "<h1>The endpoint's new signing secret</h1>")
		assert.Contains(t, shown.body, "a delivery carries two signatures")
		secret := shownSecret(t, shown.body)
		assert.NotEqual(t, added.SigningSecret, secret)
		e, err := s.hooks().Get(ctx, "acct1", added.ID)
		require.NoError(t, err)
		keys, err := s.hooks().SigningKeys(ctx, e, s.env.Clock.Now())
		require.NoError(t, err)
		new, _ := deliveries.ParseSecret(secret)
		old, _ := deliveries.ParseSecret(added.SigningSecret)
		assert.Equal(t, [][]byte{new, old}, keys)
		list := b.get(base + "?notice=rotated&webhook=" + added.ID)
		assert.Contains(t, list.body, "has a new signing secret")
		assert.Contains(t, section(list.body, `data-webhook-id="`+added.ID+`"`, "</tr>"), "the previous one signs too until")
	})
	t.Run("another account's endpoint is no such endpoint", func(t *testing.T) {
		theirs, err := s.hooks().Add(ctx, "acct3", endpoints.Input{URL: ptr("https://hooks.example.com/co2"), Events: &[]string{"TaskDelete"}}, auth.Operator)
		require.NoError(t, err)
		for _, path := range []string{"/portal/accounts/acct1/webhooks/" + theirs.ID + "/rotate-secret", "/portal/accounts/acct3/webhooks/" + theirs.ID + "/rotate-secret"} {
			resp := b.post(path, url.Values{"csrf": {csrf}, "old": {"end"}})
			assert.Contains(t, []int{http.StatusNotFound, http.StatusForbidden}, resp.status, path)
		}
		e, err := s.hooks().Get(ctx, "acct3", theirs.ID)
		require.NoError(t, err)
		assert.Equal(t, theirs.SecretHint, e.SecretHint, "unchanged")
	})
}

func TestTheWebhooksPageShowsHowToVerifyADelivery(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	b.signIn("ada@co1.example")
	base := "/portal/accounts/acct1/webhooks"

	before := b.get(base)
	require.Equal(t, http.StatusOK, before.status)
	assert.Contains(t, before.body, "No key is published yet")

	_, priv, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	_, err = deliveries.PublishKey(context.Background(), s.env.Table, signingkey.PublicPEM(priv), s.env.Clock.Now())
	require.NoError(t, err)
	page := b.get(base)
	require.Equal(t, http.StatusOK, page.status)
	verify := section(page.body, `<section class="card verify"`, "</section>")
	require.NotEmpty(t, verify)
	m := regexp.MustCompile(`(?s)<textarea id="public-key"[^>]*>([^<]*)</textarea>`).FindStringSubmatch(verify)
	require.NotNil(t, m)
	assert.Equal(t, signingkey.PublicPEM(priv), html.UnescapeString(m[1]), "the published key, to copy")
	for _, want := range []string{"<code>x-ghl-signature</code>", "the raw body", "<code>webhook-id</code>", "<code>webhook-timestamp</code>", "<code>webhook-signature</code>", "5 minutes", "<code>whsec_</code>"} {
		assert.Contains(t, verify, want)
	}
	// The receiver's code shown is the code the receiver tests run.
	for file, label := range map[string]string{"receiver/verify.js": "Node.js receiver code", "receiver/verify.go": "Go receiver code"} {
		code, err := os.ReadFile(file)
		require.NoError(t, err)
		shown := regexp.MustCompile(`(?s)aria-label="` + label + `"><code>(.*?)</code></pre>`).FindStringSubmatch(verify)
		require.NotNil(t, shown, label)
		assert.Equal(t, string(code), html.UnescapeString(shown[1]), file)
	}
}
