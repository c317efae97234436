package portal_test

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/users"
	"github.com/bizplatform/api/oauth"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage"
)

const appRedirect = "https://bridge.example.com/oauth/callback"

// marketplaceApp registers an app of co1 on the site's table and starts
// the OAuth server beside the portal.
func (s *site) marketplaceApp(t *testing.T, target string, scopes ...string) (marketplace.App, string, *httptest.Server) {
	apps := marketplace.New(s.env.Server.Tokens, s.env.Clock, false)
	app, secret, err := apps.Create(context.Background(), marketplace.NewApp{
		CompanyID: "co1", Name: "Payments Bridge", RedirectURIs: []string{appRedirect}, Scopes: scopes, Target: target,
	})
	require.NoError(t, err)
	srv := httptest.NewServer(oauth.New(s.env.Server.Core, time.Hour, 0))
	t.Cleanup(srv.Close)
	return app, secret, srv
}

func authorizeQuery(app marketplace.App, scope string) string {
	return url.Values{"response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {appRedirect}, "scope": {scope}, "state": {"st-42"}}.Encode()
}

// exchange trades a code at the OAuth server as the app does.
func exchange(t *testing.T, srv *httptest.Server, app marketplace.App, secret, code, userType string) map[string]any {
	resp, err := http.PostForm(srv.URL+"/oauth/token", url.Values{
		"grant_type": {"authorization_code"}, "client_id": {app.ClientID}, "client_secret": {secret},
		"code": {code}, "redirect_uri": {appRedirect}, "user_type": {userType},
	})
	require.NoError(t, err)
	defer resp.Body.Close()
	var body map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	return body
}

// backTo checks that an answer sends the browser back to the app, and
// returns the query it carries.
func backTo(t *testing.T, p page) url.Values {
	require.Equal(t, http.StatusSeeOther, p.status, p.body)
	u, err := url.Parse(p.header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, appRedirect, u.Scheme+"://"+u.Host+u.Path, "back to the registered redirect URI")
	return u.Query()
}

func TestConsentSignsInFirstThenAllowSendsACodeTheAppExchanges(t *testing.T) {
	s := newSite(t)
	app, secret, srv := s.marketplaceApp(t, marketplace.TargetLocation, "contacts.readonly", "payments/integration.write")
	b := s.browser(t)

	entry := b.get("/oauth/chooselocation?" + authorizeQuery(app, "contacts.readonly payments/integration.write"))
	require.Equal(t, http.StatusSeeOther, entry.status)
	consentURL := entry.header.Get("Location")
	require.True(t, strings.HasPrefix(consentURL, "/portal/oauth/chooselocation?"), consentURL)
	assert.Equal(t, consentURL, b.get("/v2/oauth/chooselocation?"+authorizeQuery(app, "contacts.readonly payments/integration.write")).header.Get("Location"), "the newer path leads there too")

	toSignIn := b.get(consentURL)
	require.Equal(t, http.StatusSeeOther, toSignIn.status, "sign-in first")
	signInPage := b.get(toSignIn.header.Get("Location"))
	require.Contains(t, signInPage.body, `name="next"`)
	signedIn := b.post("/portal/sign-in", url.Values{"csrf": {csrfOf(t, signInPage)}, "email": {"ada@co1.example"}, "password": {password}, "next": {consentURL}})
	require.Equal(t, http.StatusSeeOther, signedIn.status)
	require.Equal(t, consentURL, signedIn.header.Get("Location"), "and back")

	consent := b.get(consentURL)
	require.Equal(t, http.StatusOK, consent.status, consent.body)
	for _, want := range []string{"Payments Bridge", "co1", "contacts.readonly", "GET /contacts/", "payments/integration.write", "POST /payments/integrations/provider/whitelabel", "Account acct1", ">Allow<", ">Cancel<"} {
		assert.Contains(t, consent.body, want)
	}
	assert.NotContains(t, consent.body, "Account acct3", "only accounts the admin administers")
	assert.Contains(t, consent.header.Get("Content-Security-Policy"), "form-action 'self' https://bridge.example.com", "the form may go on to the app")

	q := backTo(t, b.post("/portal/oauth/chooselocation", url.Values{
		"csrf": {csrfOf(t, consent)}, "response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {appRedirect},
		"scope": {"contacts.readonly payments/integration.write"}, "state": {"st-42"}, "account": {"acct1"}, "decision": {"allow"},
	}))
	assert.Equal(t, "st-42", q.Get("state"))
	require.True(t, strings.HasPrefix(q.Get("code"), marketplace.CodePrefix))

	tokens := exchange(t, srv, app, secret, q.Get("code"), marketplace.UserLocation)
	assert.Equal(t, "acct1", tokens["locationId"])
	assert.Equal(t, "usrAdmin1", tokens["userId"])
	assert.Equal(t, http.StatusOK, s.ping(t, tokens["access_token"].(string)))
}

func TestCancelSendsAccessDeniedBackAndAnAccountNotAdministeredIsRefused(t *testing.T) {
	s := newSite(t)
	app, _, _ := s.marketplaceApp(t, marketplace.TargetLocation, "contacts.readonly")
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	form := url.Values{"csrf": {csrf}, "response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {appRedirect}, "scope": {"contacts.readonly"}, "state": {"st-42"}}

	form.Set("decision", "cancel")
	q := backTo(t, b.post("/portal/oauth/chooselocation", form))
	assert.Equal(t, "access_denied", q.Get("error"))
	assert.Equal(t, "st-42", q.Get("state"))
	assert.Empty(t, q.Get("code"))

	form.Set("decision", "allow")
	form.Set("account", "acct3")
	refused := b.post("/portal/oauth/chooselocation", form)
	assert.Equal(t, http.StatusUnprocessableEntity, refused.status, "another company's account")
	assert.Empty(t, refused.header.Get("Location"))
}

func TestAnAuthorizationRequestThatIsNotTheAppsGetsAnErrorPageNeverARedirect(t *testing.T) {
	s := newSite(t)
	app, _, _ := s.marketplaceApp(t, marketplace.TargetLocation, "contacts.readonly")
	cases := []struct{ name, change, value string }{
		{"an unknown client", "client_id", "0123456789abcdef01234567-aaaaaaaa"},
		{"a redirect URI the app did not register", "redirect_uri", "https://evil.example.com/cb"},
		{"a scope outside the app's", "scope", "contacts.readonly contacts.write"},
		{"a response type other than code", "response_type", "token"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := s.browser(t)
			b.signIn("ada@co1.example")
			q, _ := url.ParseQuery(authorizeQuery(app, "contacts.readonly"))
			q.Set(c.change, c.value)
			p := b.get("/portal/oauth/chooselocation?" + q.Encode())
			assert.Equal(t, http.StatusBadRequest, p.status)
			assert.Empty(t, p.header.Get("Location"))
			assert.Contains(t, p.body, "cannot be installed from this link")
			signedOut := s.browser(t).get("/portal/oauth/chooselocation?" + q.Encode())
			assert.Equal(t, http.StatusBadRequest, signedOut.status, "refused before any sign-in")
		})
	}
}

func TestACompanyAppIsApprovedByAnAgencyAdminForTheAccountsChosen(t *testing.T) {
	s := newSite(t)
	app, secret, srv := s.marketplaceApp(t, marketplace.TargetCompany, "contacts.readonly", "oauth.write", "oauth.readonly")

	accountAdmin := s.browser(t)
	accountAdmin.signIn("ada@co1.example")
	page := accountAdmin.get("/portal/oauth/chooselocation?" + authorizeQuery(app, ""))
	require.Equal(t, http.StatusOK, page.status)
	assert.Contains(t, page.body, "Only an agency admin can install this app")
	assert.NotContains(t, page.body, ">Allow<")

	agency := s.browser(t)
	csrf := agency.signIn("gus@co1.example")
	page = agency.get("/portal/oauth/chooselocation?" + authorizeQuery(app, ""))
	require.Equal(t, http.StatusOK, page.status)
	assert.Contains(t, page.body, `type="checkbox"`)
	assert.Contains(t, page.body, "Account acct2")
	q := backTo(t, agency.post("/portal/oauth/chooselocation", url.Values{
		"csrf": {csrf}, "response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {appRedirect}, "scope": {""},
		"approved": {"acct1", "acct2"}, "decision": {"allow"},
	}))
	tokens := exchange(t, srv, app, secret, q.Get("code"), marketplace.UserCompany)
	assert.Equal(t, []any{"acct1", "acct2"}, tokens["approvedLocations"])
	assert.Equal(t, "co1", tokens["companyId"])
}

// installThroughConsent installs the app into acct1 as ada, and returns the
// app's access token and the browser.
func installThroughConsent(t *testing.T, s *site) (*browser, string, string) {
	app, secret, srv := s.marketplaceApp(t, marketplace.TargetLocation, "contacts.readonly")
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	q := backTo(t, b.post("/portal/oauth/chooselocation", url.Values{
		"csrf": {csrf}, "response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {appRedirect},
		"scope": {"contacts.readonly"}, "account": {"acct1"}, "decision": {"allow"},
	}))
	return b, exchange(t, srv, app, secret, q.Get("code"), marketplace.UserLocation)["access_token"].(string), app.ID
}

func TestTheSettingsPageListsInstalledAppsAndUninstallRevokesTheirTokensAtOnce(t *testing.T) {
	s := newSite(t)
	b, token, appID := installThroughConsent(t, s)
	require.Equal(t, http.StatusOK, s.ping(t, token), "the instance caches the token")

	settings := b.get("/portal/accounts/acct1")
	require.Equal(t, http.StatusOK, settings.status)
	for _, want := range []string{"Installed apps", "Payments Bridge", appID, `<span class="seg">contacts</span>.<wbr><span class="seg">readonly</span>`, "by Ada Admin", "Installed", "/apps/" + appID + "/uninstall"} {
		assert.Contains(t, settings.body, want)
	}
	assert.NotContains(t, settings.body, ">Never<", "the last use of the app's token is shown")

	confirm := b.get("/portal/accounts/acct1/apps/" + appID + "/uninstall")
	require.Equal(t, http.StatusOK, confirm.status)
	done := b.post("/portal/accounts/acct1/apps/"+appID+"/uninstall", url.Values{"csrf": {csrfOf(t, confirm)}})
	require.Equal(t, http.StatusSeeOther, done.status, done.body)
	assert.Equal(t, http.StatusUnauthorized, s.ping(t, token), "revoked on its very next request")
	after := b.get(done.header.Get("Location"))
	assert.Contains(t, after.body, "is uninstalled: every token it held for this account is revoked")
	assert.Contains(t, after.body, "Uninstalled at")

	audit := b.get("/portal/accounts/acct1/audit")
	assert.Contains(t, audit.body, ">installed<")
	assert.Contains(t, audit.body, ">uninstalled<")

	other := s.browser(t)
	other.signIn("cy@co2.example")
	assert.Equal(t, http.StatusForbidden, other.get("/portal/accounts/acct1/apps/"+appID+"/uninstall").status, "another account's admin")
}

// agencyOfTwoCompanies makes gus an agency admin of co2 as well as co1 (one
// login, a user record in each company).
func agencyOfTwoCompanies(t *testing.T, s *site) {
	s.env.Seed(t, users.Area, `{"users":[{"id":"usrAgency2","companyId":"co2","name":"Gus Agency","email":"gus@co1.example","roles":{"type":"agency","role":"admin","locationIds":[]}}]}`)
	_, err := s.portal.Identities().SetPasswordDirectly(context.Background(), "co2", "usrAgency2", password)
	require.NoError(t, err)
}

func TestACompanyInstallNeverSpansTwoCompanies(t *testing.T) {
	s := newSite(t)
	agencyOfTwoCompanies(t, s)
	require.NoError(t, accounts.NewRegistry(s.env.Table, s.env.Clock).SetCompanyName(context.Background(), "co2", "Second Company"))
	app, secret, srv := s.marketplaceApp(t, marketplace.TargetCompany, "contacts.readonly", "oauth.write", "oauth.readonly")
	b := s.browser(t)
	csrf := b.signIn("gus@co1.example")

	choose := b.get("/portal/oauth/chooselocation?" + authorizeQuery(app, ""))
	require.Equal(t, http.StatusOK, choose.status, choose.body)
	assert.NotContains(t, choose.body, `type="checkbox"`, "no account is offered before the company is chosen")
	assert.Contains(t, choose.body, "companyId=co1")
	assert.Contains(t, choose.body, "companyId=co2")
	assert.Contains(t, choose.body, "Second Company", "a company is shown by its name where it has one")

	ofCo2 := b.get("/portal/oauth/chooselocation?" + authorizeQuery(app, "") + "&companyId=co2")
	require.Equal(t, http.StatusOK, ofCo2.status, ofCo2.body)
	assert.Contains(t, ofCo2.body, "Account acct3")
	assert.NotContains(t, ofCo2.body, "Account acct1", "one company's accounts at a time")
	assert.Contains(t, ofCo2.body, `name="companyId" value="co2"`)
	assert.Contains(t, ofCo2.body, "accounts of company Second Company")

	form := func(company string, approved ...string) url.Values {
		return url.Values{
			"csrf": {csrf}, "response_type": {"code"}, "client_id": {app.ClientID}, "redirect_uri": {appRedirect}, "scope": {""},
			"companyId": {company}, "approved": approved, "decision": {"allow"},
		}
	}
	cases := []struct {
		name, company string
		approved      []string
		says          string
	}{
		{"accounts of two companies, no company chosen (the attack as found)", "", []string{"acct1", "acct3"}, "Choose the company"},
		{"accounts of two companies, the second company chosen", "co2", []string{"acct1", "acct3"}, "one company"},
		{"accounts of two companies, the first company chosen", "co1", []string{"acct3", "acct1"}, "one company"},
		{"another company's account alone", "co1", []string{"acct3"}, "one company"},
	}
	for _, c := range cases {
		t.Run(c.name+" gets no code", func(t *testing.T) {
			p := b.post("/portal/oauth/chooselocation", form(c.company, c.approved...))
			assert.Equal(t, http.StatusUnprocessableEntity, p.status, p.body)
			assert.Empty(t, p.header.Get("Location"), "no redirect, so no code")
			assert.Contains(t, p.body, c.says)
		})
	}

	q := backTo(t, b.post("/portal/oauth/chooselocation", form("co2", "acct3")))
	tokens := exchange(t, srv, app, secret, q.Get("code"), marketplace.UserCompany)
	assert.Equal(t, "co2", tokens["companyId"])
	assert.Equal(t, []any{"acct3"}, tokens["approvedLocations"])
}

// pkce is a code verifier and its S256 challenge (RFC 7636 appendix B).
const (
	pkceVerifier  = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	pkceChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
)

// tokenRequest sends an authorization_code request with extra fields and
// returns the status and the answer.
func tokenRequest(t *testing.T, srv *httptest.Server, app marketplace.App, secret, code string, extra url.Values) (int, map[string]any) {
	form := url.Values{
		"grant_type": {"authorization_code"}, "client_id": {app.ClientID}, "client_secret": {secret},
		"code": {code}, "redirect_uri": {appRedirect}, "user_type": {marketplace.UserLocation},
	}
	for k, v := range extra {
		form[k] = v
	}
	resp, err := http.PostForm(srv.URL+"/oauth/token", form)
	require.NoError(t, err)
	defer resp.Body.Close()
	var body map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	return resp.StatusCode, body
}

var hiddenField = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// allowAsThePageDoes posts the consent page's own form (its hidden fields)
// with Allow for acct1, and returns the code sent back.
func allowAsThePageDoes(t *testing.T, b *browser, query string) string {
	page := b.get("/portal/oauth/chooselocation?" + query)
	require.Equal(t, http.StatusOK, page.status, page.body)
	form := url.Values{"account": {"acct1"}, "decision": {"allow"}}
	for _, m := range hiddenField.FindAllStringSubmatch(page.body, -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	return backTo(t, b.post("/portal/oauth/chooselocation", form)).Get("code")
}

func TestAPKCEChallengeSentOnConsentIsCheckedAtTheExchange(t *testing.T) {
	s := newSite(t)
	app, secret, srv := s.marketplaceApp(t, marketplace.TargetLocation, "contacts.readonly")
	b := s.browser(t)
	b.signIn("ada@co1.example")
	withChallenge := authorizeQuery(app, "contacts.readonly") + "&" + url.Values{"code_challenge": {pkceChallenge}, "code_challenge_method": {"S256"}}.Encode()

	cases := []struct {
		name     string
		verifier []string
		status   int
		error    string
	}{
		{"another code_verifier (the attack as found) is refused", []string{"x" + pkceVerifier[1:]}, http.StatusBadRequest, "invalid_grant"},
		{"no code_verifier is refused", nil, http.StatusBadRequest, "invalid_grant"},
		{"the code_verifier of the challenge gets tokens", []string{pkceVerifier}, http.StatusOK, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code := allowAsThePageDoes(t, b, withChallenge)
			status, body := tokenRequest(t, srv, app, secret, code, url.Values{"code_verifier": c.verifier})
			assert.Equal(t, c.status, status, body)
			if c.error != "" {
				assert.Equal(t, c.error, body["error"])
				assert.Nil(t, body["access_token"])
			}
		})
	}
}

func TestConsentRefusesAPlainChallengeAndAnAppThatRequiresPKCEWithoutOne(t *testing.T) {
	s := newSite(t)
	app, _, _ := s.marketplaceApp(t, marketplace.TargetLocation, "contacts.readonly")
	strict, _, err := marketplace.New(s.env.Server.Tokens, s.env.Clock, false).Create(context.Background(), marketplace.NewApp{
		CompanyID: "co1", Name: "Strict Bridge", RedirectURIs: []string{appRedirect}, Scopes: []string{"contacts.readonly"}, RequirePKCE: true,
	})
	require.NoError(t, err)
	cases := []struct {
		name  string
		app   marketplace.App
		extra url.Values
		says  string
	}{
		{"the plain method", app, url.Values{"code_challenge": {pkceVerifier}, "code_challenge_method": {"plain"}}, "S256"},
		{"a challenge without its method (plain by default)", app, url.Values{"code_challenge": {pkceChallenge}}, "S256"},
		{"a method without a challenge", app, url.Values{"code_challenge_method": {"S256"}}, "code_challenge"},
		{"a challenge that is no S256 digest", app, url.Values{"code_challenge": {"short"}, "code_challenge_method": {"S256"}}, "43"},
		{"no challenge for an app that requires PKCE", strict, url.Values{}, "requires PKCE"},
	}
	for _, c := range cases {
		t.Run(c.name+" is sent back as invalid_request", func(t *testing.T) {
			b := s.browser(t)
			b.signIn("ada@co1.example")
			p := b.get("/portal/oauth/chooselocation?" + authorizeQuery(c.app, "contacts.readonly") + "&" + c.extra.Encode())
			q := backTo(t, p)
			assert.Equal(t, "invalid_request", q.Get("error"))
			assert.Contains(t, q.Get("error_description"), c.says)
			assert.Equal(t, "st-42", q.Get("state"))
			assert.Empty(t, q.Get("code"))
		})
	}
	t.Run("an app that requires PKCE is installed with a challenge", func(t *testing.T) {
		b := s.browser(t)
		b.signIn("ada@co1.example")
		code := allowAsThePageDoes(t, b, authorizeQuery(strict, "contacts.readonly")+"&code_challenge="+pkceChallenge+"&code_challenge_method=S256")
		assert.NotEmpty(t, code)
	})
}

func TestARedirectURIWithAFragmentRegisteredBeforeTheRuleGetsAnErrorPage(t *testing.T) {
	s := newSite(t)
	app, _, _ := s.marketplaceApp(t, marketplace.TargetLocation, "contacts.readonly")
	withFragment := appRedirect + "#done"
	// As an app registered before registration refused fragments is stored.
	key := storage.Key{PK: "APP#" + app.ID, SK: "APP"}
	require.NoError(t, s.env.Table.Update(context.Background(), key, expression.Set(expression.Name("redirectUris"), expression.Value([]string{appRedirect, withFragment})), nil))

	b := s.browser(t)
	b.signIn("ada@co1.example")
	q, _ := url.ParseQuery(authorizeQuery(app, "contacts.readonly"))
	q.Set("redirect_uri", withFragment)
	p := b.get("/portal/oauth/chooselocation?" + q.Encode())
	assert.Equal(t, http.StatusBadRequest, p.status)
	assert.Empty(t, p.header.Get("Location"), "never sent to a URI with a fragment")
	assert.Contains(t, p.body, "fragment")
}
