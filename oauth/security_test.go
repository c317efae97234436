package oauth_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage"
)

// otherCompany and its account: an agency admin of both companies could
// approve accounts of each on one consent.
const (
	otherCompany = "coOther"
	otherAcct    = "acctOther1"
)

func TestACodeForAccountsOfTwoCompaniesIsNeverIssued(t *testing.T) {
	f := newFixture(t, marketplace.TargetCompany, "contacts.readonly", "oauth.write", "oauth.readonly")
	f.env.Account(t, otherAcct, otherCompany)
	// The attack as found: A2 of CoA and B1 of CoB, the company the last
	// ticked account's.
	_, err := f.apps.IssueCode(context.Background(), marketplace.Consent{
		App: f.app, RedirectURI: redirect, Scopes: f.app.Scopes, CompanyID: otherCompany, Approved: []string{acct2, otherAcct}, UserID: admin.ID, By: admin,
	})
	require.ErrorIs(t, err, marketplace.ErrAccountsOfTwoCompanies)
	assert.Empty(t, f.installEvents(t), "no INSTALL names another company")
	assert.Empty(t, testenv.Events(t, f.env.Table, events.Owner{LocationID: otherAcct}), "nor another company's account")
}

func TestALocationTokenIsRefusedForAnAccountOutsideTheInstallsCompany(t *testing.T) {
	f := newFixture(t, marketplace.TargetCompany, "contacts.readonly", "oauth.write", "oauth.readonly")
	f.env.Account(t, otherAcct, otherCompany)
	code, err := f.apps.IssueCode(context.Background(), marketplace.Consent{
		App: f.app, RedirectURI: redirect, Scopes: f.app.Scopes, CompanyID: otherCompany, Approved: []string{otherAcct}, UserID: admin.ID, By: admin,
	})
	require.NoError(t, err)
	a := f.post(t, "/oauth/token", f.exchangeForm(code, marketplace.UserCompany), "")
	require.Equal(t, http.StatusOK, a.Status, a.Body)
	companyToken := a.str("access_token")

	// An install that spans two companies, as the hole wrote them before
	// consent refused the mix: such items may be on the table.
	ctx := context.Background()
	key := storage.Key{PK: storage.CompanyPK(otherCompany), SK: "INSTALL#" + f.app.ID}
	spanning := append(f.storedInstall(t, key.PK, f.app.ID).Approved, acct2)
	require.NoError(t, f.env.Table.Update(ctx, key, expression.Set(expression.Name("approved"), expression.Value(spanning)), nil))

	loc := f.post(t, "/oauth/locationToken", url.Values{"companyId": {otherCompany}, "locationId": {acct2}}, companyToken)
	assert.Equal(t, http.StatusBadRequest, loc.Status, loc.Body)
	assert.Empty(t, loc.str("access_token"))
	own := f.post(t, "/oauth/locationToken", url.Values{"companyId": {otherCompany}, "locationId": {otherAcct}}, companyToken)
	assert.Equal(t, http.StatusOK, own.Status, "the install's own company's account still gets its token")
}

// An RFC 7636 (appendix B) verifier and its S256 challenge.
const (
	verifier  = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
)

func TestTheTokenEndpointChecksTheCodeVerifierAgainstTheCodesChallenge(t *testing.T) {
	cases := []struct {
		name        string
		challenge   string
		requirePKCE bool // set on the app after the code was issued
		verifier    string
		status      int
		error       string
	}{
		{"the verifier of the code's challenge gets tokens", challenge, false, verifier, http.StatusOK, ""},
		{"another verifier is refused", challenge, false, "x" + verifier[1:], http.StatusBadRequest, "invalid_grant"},
		{"a verifier too short to be one is refused", challenge, false, "short", http.StatusBadRequest, "invalid_grant"},
		{"no verifier for a code with a challenge is refused", challenge, false, "", http.StatusBadRequest, "invalid_grant"},
		{"a verifier for a code without a challenge is refused", "", false, verifier, http.StatusBadRequest, "invalid_grant"},
		{"a code without a challenge and without a verifier gets tokens", "", false, "", http.StatusOK, ""},
		{"a code without a challenge of an app that now requires PKCE is refused", "", true, "", http.StatusBadRequest, "invalid_grant"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, marketplace.TargetLocation)
			consent := marketplace.Consent{App: f.app, RedirectURI: redirect, Scopes: f.app.Scopes, CompanyID: company, AccountID: acct, UserID: admin.ID, By: admin}
			if c.challenge != "" {
				consent.CodeChallenge, consent.CodeChallengeMethod = c.challenge, marketplace.PKCEMethodS256
			}
			code, err := f.apps.IssueCode(context.Background(), consent)
			require.NoError(t, err)
			if c.requirePKCE {
				_, err := f.apps.Update(context.Background(), f.app.ID, marketplace.AppChange{RequirePKCE: &c.requirePKCE}, admin)
				require.NoError(t, err)
			}
			form := f.exchangeForm(code, marketplace.UserLocation)
			if c.verifier != "" {
				form.Set("code_verifier", c.verifier)
			}
			a := f.post(t, "/oauth/token", form, "")
			assert.Equal(t, c.status, a.Status, a.Body)
			assert.Equal(t, c.error, a.str("error"))
			if c.error != "" {
				assert.Empty(t, a.str("access_token"))
				assert.NotEmpty(t, a.str("error_description"))
			}
		})
	}
}

func TestAnAppThatRequiresPKCEGetsNoCodeWithoutAChallenge(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	on := true
	app, err := f.apps.Update(context.Background(), f.app.ID, marketplace.AppChange{RequirePKCE: &on}, admin)
	require.NoError(t, err)
	require.True(t, app.RequirePKCE)
	_, err = f.apps.IssueCode(context.Background(), marketplace.Consent{App: app, RedirectURI: redirect, Scopes: app.Scopes, CompanyID: company, AccountID: acct, UserID: admin.ID, By: admin})
	assert.ErrorIs(t, err, marketplace.ErrPKCERequired)
}

func TestACodeApprovedBeforeAnUninstallNoLongerInstallsTheApp(t *testing.T) {
	t.Run("a location install", func(t *testing.T) {
		f := newFixture(t, marketplace.TargetLocation)
		early := f.code(t, acct)
		f.install(t, acct)
		f.env.Clock.Advance(time.Second)
		require.NoError(t, f.apps.Uninstall(context.Background(), acct, f.app.ID, admin))

		a := f.post(t, "/oauth/token", f.exchangeForm(early, marketplace.UserLocation), "")
		assert.Equal(t, http.StatusBadRequest, a.Status, a.Body)
		assert.Equal(t, "invalid_grant", a.str("error"))
		assert.Contains(t, a.str("error_description"), "uninstalled")
		assert.Equal(t, marketplace.StatusUninstalled, f.storedInstall(t, storage.AccountPK(acct), f.app.ID).Status, "not installed again")

		f.env.Clock.Advance(time.Second)
		f.install(t, acct) // a consent after the uninstall installs it
	})
	t.Run("an account of a company install", func(t *testing.T) {
		f := newFixture(t, marketplace.TargetCompany, "contacts.readonly", "oauth.write", "oauth.readonly")
		early := f.code(t, "", acct, acct2)
		first := f.post(t, "/oauth/token", f.exchangeForm(f.code(t, "", acct, acct2), marketplace.UserCompany), "")
		require.Equal(t, http.StatusOK, first.Status, first.Body)
		f.env.Clock.Advance(time.Second)
		require.NoError(t, f.apps.Uninstall(context.Background(), acct2, f.app.ID, admin))

		a := f.post(t, "/oauth/token", f.exchangeForm(early, marketplace.UserCompany), "")
		assert.Equal(t, http.StatusBadRequest, a.Status, a.Body)
		assert.Equal(t, "invalid_grant", a.str("error"))
		assert.Equal(t, marketplace.StatusUninstalled, f.storedInstall(t, storage.AccountPK(acct2), f.app.ID).Status, "acct2 not installed again")
	})
}

func TestARefreshAskingForAWiderScopeIsInvalidScope(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	first := f.install(t, acct)
	cases := []struct {
		name, scope string
		status      int
		error       string
	}{
		{"a scope the grant does not hold", "contacts.readonly contacts.write", http.StatusBadRequest, "invalid_scope"},
		{"a scope the app does not hold either", "locations.readonly", http.StatusBadRequest, "invalid_scope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			form := f.refreshForm(first.str("refresh_token"), marketplace.UserLocation)
			form.Set("scope", c.scope)
			a := f.post(t, "/oauth/token", form, "")
			assert.Equal(t, c.status, a.Status, a.Body)
			assert.Equal(t, c.error, a.str("error"))
			assert.Empty(t, a.str("access_token"))
		})
	}
	t.Run("the grant's own scopes are refreshed, and the refresh token was not spent", func(t *testing.T) {
		form := f.refreshForm(first.str("refresh_token"), marketplace.UserLocation)
		form.Set("scope", "payments/integration.write contacts.readonly")
		a := f.post(t, "/oauth/token", form, "")
		require.Equal(t, http.StatusOK, a.Status, a.Body)
		assert.Equal(t, "contacts.readonly payments/integration.write", a.str("scope"))
	})
}

func TestTheTokenEndpointSaysWhatItExpectsOfABodyThatIsNotAForm(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	form := f.exchangeForm(f.code(t, acct), marketplace.UserLocation)
	asJSON, err := json.Marshal(map[string]string{"grant_type": form.Get("grant_type"), "code": form.Get("code"), "client_id": f.app.ClientID, "client_secret": f.secret})
	require.NoError(t, err)
	cases := []struct {
		name, contentType, body, says string
	}{
		{"a JSON body", "application/json", string(asJSON), "application/x-www-form-urlencoded, not application/json"},
		{"a body without a Content-Type", "", form.Encode(), "has no Content-Type"},
		{"a text body", "text/plain; charset=utf-8", form.Encode(), "not text/plain"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, f.oauth.URL+"/oauth/token", strings.NewReader(c.body))
			require.NoError(t, err)
			if c.contentType != "" {
				req.Header.Set("Content-Type", c.contentType)
			}
			a := send(t, req)
			assert.Equal(t, http.StatusBadRequest, a.Status)
			assert.Equal(t, "invalid_request", a.str("error"))
			assert.Contains(t, a.str("error_description"), c.says)
			assert.NotContains(t, a.str("error_description"), "can not be empty")
		})
	}
	a := f.post(t, "/oauth/token", form, "")
	assert.Equal(t, http.StatusOK, a.Status, "the form itself is taken, and the code was not spent: %v", a.Body)
}

func TestARefreshAfterAnUninstallSaysTheAppWasUninstalled(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	a := f.install(t, acct)
	require.NoError(t, f.apps.Uninstall(context.Background(), acct, f.app.ID, admin))
	refreshed := f.post(t, "/oauth/token", f.refreshForm(a.str("refresh_token"), marketplace.UserLocation), "")
	assert.Equal(t, http.StatusBadRequest, refreshed.Status)
	assert.Equal(t, "invalid_grant", refreshed.str("error"), "still RFC 6749's code")
	assert.Contains(t, refreshed.str("error_description"), "uninstalled from account "+acct)
	assert.NotContains(t, refreshed.str("error_description"), "malformed")
}

// TestABodyOverTheLimitIsAnswered413 is the attack as found: 11 MB to
// /oauth/locationToken with a valid company token got no answer (the
// connection closed), and /oauth/token answered "The POST body can not be
// empty". Each endpoint answers 413 in the error shape its clients read:
// the platform's JSON error, and RFC 6749's on the token endpoint. Both
// with and without Content-Length (a chunked body is cut at the limit).
func TestABodyOverTheLimitIsAnswered413(t *testing.T) {
	f := newFixture(t, marketplace.TargetCompany, "contacts.readonly", "oauth.write", "oauth.readonly")
	install := f.post(t, "/oauth/token", f.exchangeForm(f.code(t, "", acct, acct2), marketplace.UserCompany), "")
	require.Equal(t, http.StatusOK, install.Status, install.Body)
	companyToken := install.str("access_token")
	huge := "companyId=" + company + "&locationId=" + acct + "&pad=" + strings.Repeat("a", 11<<20)

	for _, sized := range []bool{true, false} {
		post := func(path, token string) answer {
			var body io.Reader = strings.NewReader(huge)
			if !sized {
				body = io.MultiReader(body) // no length known: sent chunked
			}
			req, err := http.NewRequest(http.MethodPost, f.oauth.URL+path, body)
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			return send(t, req)
		}
		name := map[bool]string{true: "with Content-Length", false: "chunked"}[sized]
		t.Run("locationToken answers the platform's 413, "+name, func(t *testing.T) {
			a := post("/oauth/locationToken", companyToken)
			assert.Equal(t, http.StatusRequestEntityTooLarge, a.Status, a.Body)
			assert.EqualValues(t, 413, a.Body["statusCode"])
			assert.Contains(t, a.str("message"), "exceeds the limit of 1048576 bytes")
			assert.Empty(t, a.str("access_token"))
		})
		t.Run("token answers 413 with an OAuth error, "+name, func(t *testing.T) {
			a := post("/oauth/token", "")
			assert.Equal(t, http.StatusRequestEntityTooLarge, a.Status, a.Body)
			assert.Equal(t, "invalid_request", a.str("error"))
			assert.Contains(t, a.str("error_description"), "exceeds the limit of 1048576 bytes")
		})
		t.Run("installedLocations takes no body and refuses one as large, "+name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, f.oauth.URL+"/oauth/installedLocations?companyId="+company+"&appId="+f.app.ID, strings.NewReader(huge))
			require.NoError(t, err)
			if !sized {
				req.Body = io.NopCloser(io.MultiReader(strings.NewReader(huge)))
				req.ContentLength = -1
			}
			req.Header.Set("Authorization", "Bearer "+companyToken)
			a := send(t, req)
			assert.Equal(t, http.StatusRequestEntityTooLarge, a.Status, a.Body)
		})
	}
	t.Run("a body within the limit still works", func(t *testing.T) {
		a := f.post(t, "/oauth/locationToken", url.Values{"companyId": {company}, "locationId": {acct}, "pad": {strings.Repeat("a", 1<<19)}}, companyToken)
		assert.Equal(t, http.StatusOK, a.Status, a.Body)
	})
}
