package oauth_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/metrics/emftest"
	"github.com/bizplatform/api/shared/storage"
)

func TestTheCodeExchangeAnswersThePublicPlatformsFieldsAndInstallsTheApp(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	a := f.install(t, acct)

	assert.Equal(t, "Bearer", a.str("token_type"))
	assert.EqualValues(t, ttl/time.Second, a.Body["expires_in"])
	assert.Equal(t, "contacts.readonly payments/integration.write", a.str("scope"), "space-separated")
	assert.Equal(t, marketplace.UserLocation, a.str("userType"))
	assert.Equal(t, acct, a.str("locationId"))
	assert.Equal(t, company, a.str("companyId"))
	assert.Equal(t, admin.ID, a.str("userId"))
	assert.Equal(t, "no-store", a.Header.Get("Cache-Control"))
	require.NoError(t, auth.CheckFormat(a.str("access_token")), "an access token is a bpt_ token")
	require.NoError(t, auth.CheckSecretFormat(marketplace.RefreshPrefix, a.str("refresh_token")))

	assert.Equal(t, http.StatusOK, f.ping(t, a.str("access_token")), "the access token calls the API")

	inst := f.storedInstall(t, storage.AccountPK(acct), f.app.ID)
	assert.Equal(t, marketplace.StatusInstalled, inst.Status)
	assert.Equal(t, admin, inst.InstalledBy)
	assert.Len(t, inst.Tokens, 2, "the install lists its access and refresh token")
	events := f.installEvents(t)
	require.Len(t, events, 1)
	assert.Equal(t, marketplace.Installed.Name, events[0].Type)
	entries, err := f.env.Server.Tokens.Audit(context.Background(), acct, 10)
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	assert.Equal(t, auth.AuditAppInstalled, entries[0].Action)
}

func TestTheTokenEndpointRefusesWithRFC6749Errors(t *testing.T) {
	cases := []struct {
		name   string
		change func(f *fixture, form url.Values)
		status int
		error  string
	}{
		{"a code exchanged with another registered redirect URI", func(_ *fixture, form url.Values) { form.Set("redirect_uri", redirect+"/other") }, http.StatusBadRequest, "invalid_grant"},
		{"a code exchanged after its 10 minutes", func(f *fixture, _ url.Values) { f.env.Clock.Advance(marketplace.CodeLifetime) }, http.StatusBadRequest, "invalid_grant"},
		{"a code that was never issued", func(_ *fixture, form url.Values) { form.Set("code", "bpc_NeverIssuedNeverIssuedNeverIss00000") }, http.StatusBadRequest, "invalid_grant"},
		{"a wrong client secret", func(_ *fixture, form url.Values) { form.Set("client_secret", "bps_wrong") }, http.StatusUnauthorized, "invalid_client"},
		{"an unknown client", func(_ *fixture, form url.Values) { form.Set("client_id", "0123456789abcdef01234567-aaaaaaaa") }, http.StatusUnauthorized, "invalid_client"},
		{"a grant type the server does not run", func(_ *fixture, form url.Values) { form.Set("grant_type", "password") }, http.StatusBadRequest, "unsupported_grant_type"},
		{"a user type other than the app's", func(_ *fixture, form url.Values) { form.Set("user_type", marketplace.UserCompany) }, http.StatusBadRequest, "invalid_request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, marketplace.TargetLocation)
			form := f.exchangeForm(f.code(t, acct), marketplace.UserLocation)
			c.change(f, form)
			a := f.post(t, "/oauth/token", form, "")
			assert.Equal(t, c.status, a.Status, a.Body)
			assert.Equal(t, c.error, a.str("error"))
			assert.NotEmpty(t, a.str("error_description"))
			assert.Empty(t, a.str("access_token"))
		})
	}
}

func TestACodeUsedTwiceIsRefusedAndRevokesWhatItIssued(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	code := f.code(t, acct)
	first := f.post(t, "/oauth/token", f.exchangeForm(code, marketplace.UserLocation), "")
	require.Equal(t, http.StatusOK, first.Status)
	require.Equal(t, http.StatusOK, f.ping(t, first.str("access_token")), "a warm instance caches the token")

	again := f.post(t, "/oauth/token", f.exchangeForm(code, marketplace.UserLocation), "")
	assert.Equal(t, http.StatusBadRequest, again.Status)
	assert.Equal(t, "invalid_grant", again.str("error"))
	assert.Equal(t, http.StatusUnauthorized, f.ping(t, first.str("access_token")), "the replay revokes the first exchange's access token on its next request")
	refreshed := f.post(t, "/oauth/token", f.refreshForm(first.str("refresh_token"), marketplace.UserLocation), "")
	assert.Equal(t, "invalid_grant", refreshed.str("error"), "and its refresh token")
}

func TestARefreshRotatesThePairAndAReusedRefreshTokenRevokesTheInstall(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	first := f.install(t, acct)
	require.Equal(t, http.StatusOK, f.ping(t, first.str("access_token")))

	second := f.post(t, "/oauth/token", f.refreshForm(first.str("refresh_token"), marketplace.UserLocation), "")
	require.Equal(t, http.StatusOK, second.Status, second.Body)
	assert.NotEqual(t, first.str("refresh_token"), second.str("refresh_token"), "a new refresh token")
	assert.Equal(t, acct, second.str("locationId"))
	assert.Equal(t, http.StatusOK, f.ping(t, second.str("access_token")))
	assert.Equal(t, http.StatusUnauthorized, f.ping(t, first.str("access_token")), "the used pair's access token is revoked")

	reused := f.post(t, "/oauth/token", f.refreshForm(first.str("refresh_token"), marketplace.UserLocation), "")
	assert.Equal(t, http.StatusBadRequest, reused.Status)
	assert.Equal(t, "invalid_grant", reused.str("error"))
	assert.Equal(t, http.StatusUnauthorized, f.ping(t, second.str("access_token")), "reuse revokes every token of the install")
	third := f.post(t, "/oauth/token", f.refreshForm(second.str("refresh_token"), marketplace.UserLocation), "")
	assert.Equal(t, "invalid_grant", third.str("error"), "the current refresh token too")

	entries, err := f.env.Server.Tokens.Audit(context.Background(), acct, 10)
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	assert.Equal(t, auth.AuditRefreshReused, entries[0].Action, "the audit list records the reuse")
	assert.Empty(t, f.storedInstall(t, storage.AccountPK(acct), f.app.ID).Tokens, "the install holds no token")

	// The server's lines count what happened, once each, as members Logs
	// Insights sums; none declares a metric (nothing failed).
	lines, err := emftest.MetricLines(f.logs.String())
	require.NoError(t, err, "every metric line is valid EMF")
	assert.Empty(t, lines, "no 5xx, no throttle: nothing to declare")
	oauth := map[string]string{"Function": "oauth"}
	assert.Equal(t, 1.0, emftest.Sum(f.logs.String(), "OAuthCodeExchanges", oauth))
	assert.Equal(t, 1.0, emftest.Sum(f.logs.String(), "OAuthRefreshes", oauth))
	assert.Equal(t, 1.0, emftest.Sum(f.logs.String(), "OAuthRefreshReuse", oauth), "the reuse, not the revoked token tried after it")
	assert.NotContains(t, f.logs.String(), `"Operation"`, "its routes are no dimension")
}

func TestAnAccessTokenIsRefusedOnTheFirstRequestPastItsEnd(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	a := f.install(t, acct)
	token := a.str("access_token")
	require.Equal(t, http.StatusOK, f.ping(t, token), "the instance caches the token")

	f.env.Clock.Advance(ttl - time.Second)
	assert.Equal(t, http.StatusOK, f.ping(t, token), "a second before its end")
	f.env.Clock.Advance(time.Second)
	resp := f.env.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: token})
	assert.Equal(t, http.StatusUnauthorized, resp.Status, "at its end, on the warm instance")
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`)

	refreshed := f.post(t, "/oauth/token", f.refreshForm(a.str("refresh_token"), marketplace.UserLocation), "")
	require.Equal(t, http.StatusOK, refreshed.Status, "the refresh token outlives the access token")
	assert.Equal(t, http.StatusOK, f.ping(t, refreshed.str("access_token")))
}

func TestAMarketplaceTokenCreatesAWhiteLabelProviderAndStaysWithinItsScopes(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	token := f.install(t, acct).str("access_token")
	provider := f.env.Do(t, testenv.Request{Method: "POST", Path: "/payments/integrations/provider/whitelabel", Token: token, Body: map[string]any{
		"altId": acct, "altType": "account", "uniqueName": "bridge-pay", "title": "Bridge Pay", "provider": "nmi",
		"description": "Card payments through the bridge", "imageUrl": "https://assets.example.com/bridge.png",
	}})
	assert.Equal(t, http.StatusOK, provider.Status, string(provider.Body))

	outside := f.env.Do(t, testenv.Request{Method: "DELETE", Path: "/payments/coupon", Token: token, Body: map[string]any{"altId": acct, "altType": "account", "id": "cpn1"}})
	assert.Equal(t, http.StatusForbidden, outside.Status, "payments/coupons.write is not the app's")
	other := f.env.Do(t, testenv.Request{Method: "POST", Path: "/payments/integrations/provider/whitelabel", Token: token, Body: map[string]any{
		"altId": acct2, "altType": "account", "uniqueName": "bridge-pay", "title": "Bridge Pay", "provider": "nmi",
		"description": "x", "imageUrl": "https://assets.example.com/bridge.png",
	}})
	assert.Equal(t, http.StatusForbidden, other.Status, "the installed account only")
}

func TestUninstallTakesEffectOnTheVeryNextRequest(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	a := f.install(t, acct)
	require.Equal(t, http.StatusOK, f.ping(t, a.str("access_token")))

	require.NoError(t, f.apps.Uninstall(context.Background(), acct, f.app.ID, admin))
	assert.Equal(t, http.StatusUnauthorized, f.ping(t, a.str("access_token")), "on the warm instance")
	refreshed := f.post(t, "/oauth/token", f.refreshForm(a.str("refresh_token"), marketplace.UserLocation), "")
	assert.Equal(t, "invalid_grant", refreshed.str("error"))
	assert.ErrorIs(t, f.apps.Uninstall(context.Background(), acct, f.app.ID, admin), marketplace.ErrNotInstalled)

	events := f.installEvents(t)
	require.Len(t, events, 2)
	assert.ElementsMatch(t, []string{marketplace.Installed.Name, marketplace.Uninstalled.Name}, []string{events[0].Type, events[1].Type})

	again := f.install(t, acct)
	assert.Equal(t, http.StatusOK, f.ping(t, again.str("access_token")), "the app can be installed again")
}

func TestACompanyInstallGivesAccountTokensForItsApprovedAccounts(t *testing.T) {
	f := newFixture(t, marketplace.TargetCompany, "contacts.readonly", "oauth.write", "oauth.readonly")
	a := f.post(t, "/oauth/token", f.exchangeForm(f.code(t, "", acct, acct2), marketplace.UserCompany), "")
	require.Equal(t, http.StatusOK, a.Status, a.Body)
	assert.Equal(t, marketplace.UserCompany, a.str("userType"))
	assert.Equal(t, []any{acct, acct2}, a.Body["approvedLocations"])
	assert.Empty(t, a.str("locationId"))
	companyToken := a.str("access_token")
	assert.Equal(t, http.StatusForbidden, f.listContacts(t, companyToken, acct), "a company token acts on no account's data")

	loc := f.post(t, "/oauth/locationToken", url.Values{"companyId": {company}, "locationId": {acct}}, companyToken)
	require.Equal(t, http.StatusOK, loc.Status, loc.Body)
	assert.Equal(t, acct, loc.str("locationId"))
	assert.Equal(t, f.app.ID, loc.str("appId"))
	assert.Equal(t, http.StatusOK, f.listContacts(t, loc.str("access_token"), acct))
	assert.Equal(t, http.StatusForbidden, f.listContacts(t, loc.str("access_token"), acct2), "an account's token is that account's only")

	next := f.post(t, "/oauth/locationToken", url.Values{"companyId": {company}, "locationId": {acct}}, companyToken)
	require.Equal(t, http.StatusOK, next.Status)
	assert.Equal(t, http.StatusUnauthorized, f.ping(t, loc.str("access_token")), "an account's new token replaces its previous one")

	notApproved := f.post(t, "/oauth/locationToken", url.Values{"companyId": {company}, "locationId": {acct3}}, companyToken)
	assert.Equal(t, http.StatusBadRequest, notApproved.Status)
	byAccountToken := f.post(t, "/oauth/locationToken", url.Values{"companyId": {company}, "locationId": {acct2}}, next.str("access_token"))
	assert.Equal(t, http.StatusForbidden, byAccountToken.Status, "only a company token")

	list := f.get(t, "/oauth/installedLocations?companyId="+company+"&appId="+f.app.ID, companyToken)
	require.Equal(t, http.StatusOK, list.Status, list.Body)
	assert.EqualValues(t, 3, list.Body["count"])
	installed := map[string]bool{}
	for _, l := range list.Body["locations"].([]any) {
		m := l.(map[string]any)
		installed[m["_id"].(string)] = m["isInstalled"].(bool)
	}
	assert.Equal(t, map[string]bool{acct: true, acct2: true, acct3: false}, installed)
	only := f.get(t, "/oauth/installedLocations?companyId="+company+"&appId="+f.app.ID+"&isInstalled=false", companyToken)
	assert.EqualValues(t, 1, only.Body["count"])

	require.NoError(t, f.apps.Uninstall(context.Background(), acct2, f.app.ID, admin))
	gone := f.post(t, "/oauth/locationToken", url.Values{"companyId": {company}, "locationId": {acct2}}, companyToken)
	assert.Equal(t, http.StatusBadRequest, gone.Status, "an account uninstalled leaves the company install")
	assert.Equal(t, http.StatusOK, f.ping(t, next.str("access_token")), "the other accounts keep theirs")
}

func TestCompanyTokenOperationsNeedTheirScope(t *testing.T) {
	f := newFixture(t, marketplace.TargetCompany, "contacts.readonly", "oauth.readonly")
	companyToken := f.post(t, "/oauth/token", f.exchangeForm(f.code(t, "", acct), marketplace.UserCompany), "").str("access_token")
	loc := f.post(t, "/oauth/locationToken", url.Values{"companyId": {company}, "locationId": {acct}}, companyToken)
	assert.Equal(t, http.StatusForbidden, loc.Status)
	assert.Contains(t, loc.str("message"), "oauth.write")
	private, _ := f.env.Token(t, acct)
	list := f.get(t, "/oauth/installedLocations?companyId="+company+"&appId="+f.app.ID, private)
	assert.Equal(t, http.StatusForbidden, list.Status, "a personal token is no company token")
	missing := f.get(t, "/oauth/installedLocations?companyId="+company+"&appId="+f.app.ID, "")
	assert.Equal(t, http.StatusUnauthorized, missing.Status)
	assert.True(t, strings.HasPrefix(missing.Header.Get("WWW-Authenticate"), "Bearer"))
}
