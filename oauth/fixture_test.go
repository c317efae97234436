package oauth_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/payments"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/oauth"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage"
)

const (
	company  = "coOAuth"
	acct     = "acctOAuth1"
	acct2    = "acctOAuth2"
	acct3    = "acctOAuth3"
	redirect = "https://bridge.example.com/oauth/callback"
	ttl      = time.Hour
)

var admin = auth.Actor{ID: "usrAdmin", Name: "Ada Admin <ada@example.com>"}

// fixture is the API (ping and payments) and the OAuth server on one table,
// with one registered app.
type fixture struct {
	env    *testenv.Env
	apps   *marketplace.Apps
	oauth  *httptest.Server
	app    marketplace.App
	secret string
	logs   *testenv.LogBuffer
}

func newFixture(t *testing.T, target string, scopes ...string) *fixture {
	logs := &testenv.LogBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(logs.String())
		}
	})
	env := testenv.New(t, []app.Area{testenv.PingArea, payments.Area, contacts.Area}, testenv.WithLogOutput(logs))
	for _, a := range []string{acct, acct2, acct3} {
		env.Account(t, a, company)
	}
	f := &fixture{env: env, apps: marketplace.New(env.Server.Tokens, env.Clock, false), logs: logs}
	f.oauth = httptest.NewServer(oauth.New(env.Server.Core, ttl, 0))
	t.Cleanup(f.oauth.Close)
	if len(scopes) == 0 {
		scopes = []string{"contacts.readonly", "payments/integration.write"}
	}
	var err error
	f.app, f.secret, err = f.apps.Create(context.Background(), marketplace.NewApp{
		CompanyID: company, Name: "Payments Bridge", RedirectURIs: []string{redirect, redirect + "/other"},
		Scopes: scopes, WebhookURL: "https://bridge.example.com/hooks", Target: target,
	})
	require.NoError(t, err)
	return f
}

// code is what the consent page issues when admin approves the app for
// accountID (a location app) or for the approved accounts (a company app).
func (f *fixture) code(t *testing.T, accountID string, approved ...string) string {
	code, err := f.apps.IssueCode(context.Background(), marketplace.Consent{
		App: f.app, RedirectURI: redirect, Scopes: f.app.Scopes, CompanyID: company, AccountID: accountID, Approved: approved, UserID: admin.ID, By: admin,
	})
	require.NoError(t, err)
	return code
}

// exchangeForm is the SDK's authorization_code request.
func (f *fixture) exchangeForm(code, userType string) url.Values {
	return url.Values{
		"grant_type": {"authorization_code"}, "client_id": {f.app.ClientID}, "client_secret": {f.secret},
		"code": {code}, "redirect_uri": {redirect}, "user_type": {userType},
	}
}

// refreshForm is the SDK's refresh_token request.
func (f *fixture) refreshForm(refresh, userType string) url.Values {
	return url.Values{
		"grant_type": {"refresh_token"}, "client_id": {f.app.ClientID}, "client_secret": {f.secret},
		"refresh_token": {refresh}, "user_type": {userType},
	}
}

// answer is a decoded answer of the OAuth server.
type answer struct {
	Status int
	Header http.Header
	Body   map[string]any
}

func (a answer) str(name string) string { s, _ := a.Body[name].(string); return s }

// post sends a form to the OAuth server's path, with a bearer token when
// token is not empty.
func (f *fixture) post(t testing.TB, path string, form url.Values, token string) answer {
	req, err := http.NewRequest(http.MethodPost, f.oauth.URL+path, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return send(t, req)
}

func (f *fixture) get(t testing.TB, path, token string) answer {
	req, err := http.NewRequest(http.MethodGet, f.oauth.URL+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	return send(t, req)
}

func send(t testing.TB, req *http.Request) answer {
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	a := answer{Status: resp.StatusCode, Header: resp.Header, Body: map[string]any{}}
	require.NoError(t, json.Unmarshal(raw, &a.Body), "a JSON answer: %s", raw)
	return a
}

// install exchanges a fresh code of accountID and returns the answer.
func (f *fixture) install(t *testing.T, accountID string) answer {
	a := f.post(t, "/oauth/token", f.exchangeForm(f.code(t, accountID), marketplace.UserLocation), "")
	require.Equal(t, http.StatusOK, a.Status, a.Body)
	return a
}

// ping calls the API with token: 200 while the token works.
func (f *fixture) ping(t testing.TB, token string) int {
	return f.env.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: token}).Status
}

// listContacts lists the account's contacts with token: 200 when the token
// may read the account's data.
func (f *fixture) listContacts(t testing.TB, token, accountID string) int {
	return f.env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/?locationId=" + accountID, Token: token}).Status
}

// installItem is an install as stored, for the checks of what was written.
type installItem struct {
	PK, SK string
	marketplace.Install
}

func (f *fixture) storedInstall(t testing.TB, pk, appID string) marketplace.Install {
	it, err := storage.Get[installItem](context.Background(), f.env.Table, storage.Key{PK: pk, SK: "INSTALL#" + appID})
	require.NoError(t, err)
	require.NotNil(t, it, "an install at %s", pk)
	return it.Install
}

// installEvents are the INSTALL and UNINSTALL events of the fixture's
// accounts routed to its app, oldest first: written in the transaction of
// the exchange or the uninstall.
func (f *fixture) installEvents(t testing.TB) []events.Recorded {
	var out []events.Recorded
	for _, a := range []string{acct, acct2, acct3} {
		for _, ev := range testenv.Events(t, f.env.Table, events.Owner{LocationID: a}) {
			if ev.Route != nil && ev.Route.AppID == f.app.ID {
				out = append(out, ev)
			}
		}
	}
	return out
}
