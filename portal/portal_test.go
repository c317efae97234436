package portal_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/users"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/portal"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/metrics/emftest"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

const password = "a long enough password"

// site is the API (ping area) and the portal on one table and clock, with
// accounts acct1, acct2 (company co1), acct3 (co2) and their users.
type site struct {
	env    *testenv.Env
	portal *portal.Portal
	http   *httptest.Server
	logs   *testenv.LogBuffer
}

const seedUsers = `{"users":[
 {"id":"usrAdmin1","companyId":"co1","name":"Ada Admin","email":"ada@co1.example","roles":{"type":"account","role":"admin","locationIds":["acct1"]}},
 {"id":"usrAgency","companyId":"co1","name":"Gus Agency","email":"gus@co1.example","roles":{"type":"agency","role":"admin","locationIds":[]}},
 {"id":"usrPlain1","companyId":"co1","name":"Pat Plain","email":"pat@co1.example","roles":{"type":"account","role":"user","locationIds":["acct1"]}},
 {"id":"usrAdmin3","companyId":"co2","name":"Cy Other","email":"cy@co2.example","roles":{"type":"account","role":"admin","locationIds":["acct3"]}}
]}`

func newSite(t *testing.T, opts ...func(*portal.Options)) *site {
	logs := &testenv.LogBuffer{}
	env := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithLogOutput(logs))
	env.Account(t, "acct1", "co1")
	env.Account(t, "acct2", "co1")
	env.Account(t, "acct3", "co2")
	env.Seed(t, users.Area, seedUsers)
	var o portal.Options
	for _, f := range opts {
		f(&o)
	}
	p, err := portal.New(env.Server.Core, o)
	require.NoError(t, err)
	for _, u := range [][2]string{{"co1", "usrAdmin1"}, {"co1", "usrAgency"}, {"co1", "usrPlain1"}, {"co2", "usrAdmin3"}} {
		_, err := p.Identities().SetPasswordDirectly(context.Background(), u[0], u[1], password)
		require.NoError(t, err)
	}
	s := &site{env: env, portal: p, http: httptest.NewServer(p), logs: logs}
	t.Cleanup(s.http.Close)
	return s
}

// browser is a client with cookies that does not follow redirects and
// sends what a browser sends with a same-site form.
type browser struct {
	t    *testing.T
	s    *site
	http *http.Client
}

func (s *site) browser(t *testing.T) *browser {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &browser{t: t, s: s, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

type page struct {
	status int
	header http.Header
	body   string
}

func (b *browser) do(method, path string, form url.Values, headers map[string]string) page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.s.http.URL+path, body)
	require.NoError(b.t, err)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := b.http.Do(req)
	require.NoError(b.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(b.t, err)
	return page{status: resp.StatusCode, header: resp.Header, body: string(raw)}
}

func (b *browser) get(path string) page { return b.do("GET", path, nil, nil) }

func (b *browser) post(path string, form url.Values) page { return b.do("POST", path, form, nil) }

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func csrfOf(t *testing.T, p page) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(p.body)
	require.NotNil(t, m, "the page has a CSRF field: %s", p.body)
	return m[1]
}

// signIn signs in and returns the session's CSRF token.
func (b *browser) signIn(email string) string {
	b.t.Helper()
	form := csrfOf(b.t, b.get("/portal/sign-in"))
	resp := b.post("/portal/sign-in", url.Values{"csrf": {form}, "email": {email}, "password": {password}})
	require.Equal(b.t, http.StatusSeeOther, resp.status, resp.body)
	return csrfOf(b.t, b.get("/portal/accounts"))
}

// shownValue finds the value the shown-once page shows, in its field.
var shownValue = regexp.MustCompile(`id="new-token"[^>]*>(bpt_[A-Za-z0-9]+)</textarea>`)

// create generates a token through the form and returns the value shown.
func (b *browser) create(csrf, account, name string, scopes ...string) string {
	b.t.Helper()
	resp := b.post("/portal/accounts/"+account+"/tokens", url.Values{"csrf": {csrf}, "name": {name}, "scope": scopes})
	require.Equal(b.t, http.StatusSeeOther, resp.status, resp.body)
	require.Equal(b.t, "/portal/accounts/"+account+"/tokens/shown-once", resp.header.Get("Location"))
	shown := b.get(resp.header.Get("Location"))
	require.Equal(b.t, http.StatusOK, shown.status, shown.body)
	m := shownValue.FindStringSubmatch(shown.body)
	require.NotNil(b.t, m, shown.body)
	return m[1]
}

func (s *site) ping(t *testing.T, token string) int {
	return s.env.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: token}).Status
}

func (s *site) tokens(t *testing.T, account string) []auth.Info {
	list, err := s.env.Server.Tokens.List(context.Background(), account)
	require.NoError(t, err)
	return list
}

func TestEveryPageCarriesTheSecurityHeadersAndNoInlineScript(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	signedOut := []string{"/portal/sign-in", "/portal/invite/nope", "/portal/nowhere"}
	csrf := b.signIn("ada@co1.example")
	value := b.create(csrf, "acct1", "CI", "contacts.readonly")
	list := s.tokens(t, "acct1")
	signedIn := []string{"/portal/accounts", "/portal/accounts/acct1", "/portal/accounts/acct1/tokens/new",
		"/portal/accounts/acct1/audit", "/portal/accounts/acct3", "/portal/accounts/acct1/tokens/" + list[0].TokenID + "/revoke",
		"/portal/accounts/acct1/tokens/" + list[0].TokenID + "/rotate", "/portal/accounts/acct1/tokens/shown-once"}
	inline := regexp.MustCompile(`<script(?:\s(?:[^>](?:src=))*[^>]*)?>`)
	for _, path := range append(signedOut, signedIn...) {
		t.Run(path, func(t *testing.T) {
			p := b.get(path)
			h := p.header
			csp := h.Get("Content-Security-Policy")
			assert.Contains(t, csp, "script-src 'self'")
			assert.Contains(t, csp, "frame-ancestors 'none'")
			assert.NotContains(t, csp, "unsafe-inline")
			assert.Equal(t, "no-referrer", h.Get("Referrer-Policy"))
			assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
			assert.Equal(t, "no-store", h.Get("Cache-Control"))
			for _, tag := range inline.FindAllString(p.body, -1) {
				assert.Contains(t, tag, "src=", "only scripts from the site: %s", tag)
			}
			assert.NotContains(t, p.body, value, "no page but the one that shows it once shows the value")
			if strings.Contains(p.body, "<html") {
				assert.Contains(t, p.body, `<link rel="icon" href="/portal/assets/favicon.svg" type="image/svg+xml">`,
					"the page names its icon: the browser does not ask for /favicon.ico, which the API answers 404 (a console error)")
			}
		})
	}
	assert.NotContains(t, s.logs.String(), value, "no log line holds a token value")

	t.Run("the icon is served as an image the policy allows", func(t *testing.T) {
		icon := b.get("/portal/assets/favicon.svg")
		require.Equal(t, http.StatusOK, icon.status)
		assert.Equal(t, "image/svg+xml", icon.header.Get("Content-Type"))
		assert.True(t, strings.HasPrefix(icon.body, "<svg"), icon.body)
		assert.Contains(t, icon.header.Get("Content-Security-Policy"), "img-src 'self'")
	})
}

func TestSignInAnswersAlikeForUnknownAddressesAndWrongPasswordsAndLocksAfterFiveFailures(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	attempt := func(email, pw string) page {
		form := csrfOf(t, b.get("/portal/sign-in"))
		return b.post("/portal/sign-in", url.Values{"csrf": {form}, "email": {email}, "password": {pw}})
	}
	unknown := attempt("nobody@co1.example", "whatever password")
	wrong := attempt("ada@co1.example", "whatever password")
	assert.Equal(t, http.StatusUnauthorized, unknown.status)
	assert.Equal(t, unknown.status, wrong.status)
	strip := func(p page) string {
		return strings.ReplaceAll(csrfField.ReplaceAllString(p.body, ""), "ada@co1.example", "nobody@co1.example")
	}
	assert.Equal(t, strip(unknown), strip(wrong), "the same page")
	assert.Contains(t, wrong.body, "The email or password is incorrect.")

	for i := 0; i < 4; i++ {
		require.Equal(t, http.StatusUnauthorized, attempt("ada@co1.example", "still wrong password").status)
	}
	locked := attempt("ada@co1.example", password)
	assert.Equal(t, http.StatusTooManyRequests, locked.status, "the fifth failure locked it: even the right password is refused")
	assert.Contains(t, locked.body, "locked until")
	for i := 0; i < 5; i++ {
		attempt("nobody@co1.example", "x")
	}
	assert.Equal(t, http.StatusTooManyRequests, attempt("nobody@co1.example", "x").status, "an unknown address locks alike")

	s.env.Clock.Advance(15 * time.Minute)
	assert.Equal(t, http.StatusSeeOther, attempt("ada@co1.example", password).status, "the lock ends after 15 minutes")

	// The portal's lines count each failure and each lock, as members Logs
	// Insights sums (no alarm reads them: no metric).
	lines, err := emftest.MetricLines(s.logs.String())
	require.NoError(t, err, "every metric line is valid EMF")
	assert.Empty(t, lines)
	portal := map[string]string{"Function": "portal"}
	assert.Equal(t, 10.0, emftest.Sum(s.logs.String(), "PortalSignInFailures", portal), "five for each address, then refusals before any check")
	assert.Equal(t, 2.0, emftest.Sum(s.logs.String(), "PortalLockouts", portal))
}

func TestOneClientAddressIsThrottled(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	form := csrfOf(t, b.get("/portal/sign-in"))
	var last page
	for i := 0; i <= 30; i++ {
		last = b.post("/portal/sign-in", url.Values{"csrf": {form}, "email": {"x" + strings.Repeat("y", i) + "@co1.example"}, "password": {"p"}})
	}
	assert.Equal(t, http.StatusTooManyRequests, last.status)
	assert.Contains(t, last.body, "Too many sign-in attempts from your network")
}

func TestTheSessionCookieIsHttpOnlyLaxAndSecureWhenServedOverHTTPS(t *testing.T) {
	for _, secure := range []bool{false, true} {
		t.Run(map[bool]string{false: "over plain HTTP locally", true: "behind API Gateway"}[secure], func(t *testing.T) {
			s := newSite(t, func(o *portal.Options) { o.SecureCookies = secure })
			b := s.browser(t)
			form := csrfOf(t, b.get("/portal/sign-in"))
			resp := b.post("/portal/sign-in", url.Values{"csrf": {form}, "email": {"ada@co1.example"}, "password": {password}})
			require.Equal(t, http.StatusSeeOther, resp.status)
			var cookie *http.Cookie
			for _, c := range (&http.Response{Header: resp.header}).Cookies() {
				if c.Name == "portal_session" {
					cookie = c
				}
			}
			require.NotNil(t, cookie)
			assert.True(t, cookie.HttpOnly)
			assert.Equal(t, http.SameSiteLaxMode, cookie.SameSite)
			assert.Equal(t, secure, cookie.Secure)
			assert.Regexp(t, `^[A-Za-z0-9_-]{43}$`, cookie.Value, "256 random bits")
		})
	}
}

func TestASessionEndsAfterAnHourIdleOrTwelveHoursAndAFormThenChangesNothing(t *testing.T) {
	cases := []struct {
		name string
		wait func(s *site, b *browser)
	}{
		{"an hour without a request", func(s *site, _ *browser) { s.env.Clock.Advance(time.Hour) }},
		{"twelve hours of activity", func(s *site, b *browser) {
			for i := 0; i < 24; i++ {
				s.env.Clock.Advance(30 * time.Minute)
				if i < 23 {
					require.Equal(b.t, http.StatusOK, b.get("/portal/accounts").status)
				}
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t)
			b := s.browser(t)
			csrf := b.signIn("ada@co1.example")
			tc.wait(s, b)
			resp := b.post("/portal/accounts/acct1/tokens", url.Values{"csrf": {csrf}, "name": {"late"}, "scope": {"contacts.readonly"}})
			assert.Equal(t, http.StatusUnauthorized, resp.status)
			assert.Contains(t, resp.body, "nothing was changed")
			assert.Empty(t, s.tokens(t, "acct1"))
			resp = b.get("/portal/accounts/acct1")
			assert.Equal(t, http.StatusSeeOther, resp.status)
			assert.Equal(t, "/portal/sign-in?next=%2Fportal%2Faccounts%2Facct1", resp.header.Get("Location"), "the cookie was cleared (an ended session would say so), and the page asked for comes back after signing in")
		})
	}
}

func TestAFormWithoutItsCSRFTokenOrFromAnotherSiteChangesNothing(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	stale := b.signIn("ada@co1.example")
	require.Equal(t, http.StatusSeeOther, b.post("/portal/sign-out", url.Values{"csrf": {stale}}).status)
	csrf := b.signIn("ada@co1.example")
	good := url.Values{"csrf": {csrf}, "name": {"x"}, "scope": {"contacts.readonly"}}
	cases := []struct {
		name    string
		form    url.Values
		headers map[string]string
		msg     string
	}{
		{"no CSRF token", url.Values{"name": {"x"}, "scope": {"contacts.readonly"}}, nil, "security token is missing or out of date"},
		{"a stale CSRF token from an earlier session", url.Values{"csrf": {stale}, "name": {"x"}, "scope": {"contacts.readonly"}}, nil, "security token is missing or out of date"},
		{"a cross-site request", good, map[string]string{"Sec-Fetch-Site": "cross-site"}, "sent from another website"},
		{"another origin", good, map[string]string{"Sec-Fetch-Site": "", "Origin": "https://evil.example"}, "sent from another website"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := b.do("POST", "/portal/accounts/acct1/tokens", tc.form, tc.headers)
			assert.Equal(t, http.StatusForbidden, resp.status)
			assert.Contains(t, resp.body, tc.msg)
			assert.Contains(t, resp.body, "nothing was changed")
		})
	}
	assert.Empty(t, s.tokens(t, "acct1"))
	signIn := b.do("POST", "/portal/sign-in", url.Values{"email": {"ada@co1.example"}, "password": {password}}, nil)
	assert.Equal(t, http.StatusForbidden, signIn.status, "the sign-in form needs its token too")
}

func TestBadTokenFormsSayWhyAndCreateNothing(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	cases := []struct {
		name string
		form url.Values
		msg  string
	}{
		{"an empty name", url.Values{"name": {"  "}, "scope": {"contacts.readonly"}}, "Token name is required."},
		{"a 10,000-character name", url.Values{"name": {strings.Repeat("n", 10000)}, "scope": {"contacts.readonly"}}, "Token name must be at most 100 characters (it has 10000)."},
		{"no scope", url.Values{"name": {"x"}}, "Choose at least one scope."},
		{"an unknown scope", url.Values{"name": {"x"}, "scope": {"contacts.readonly", "contacts.everything"}}, "&#34;contacts.everything&#34; is not a known scope."},
		{"a 501-character description", url.Values{"name": {"x"}, "description": {strings.Repeat("d", 501)}, "scope": {"contacts.readonly"}}, "Description must be at most 500 characters"},
		{"a scope only marketplace apps' tokens can use", url.Values{"name": {"x"}, "scope": {"contacts.readonly", "payments/integration.write"}},
			"payments/integration.write is of no use to a private token: POST /payments/integrations/provider/whitelabel accepts only marketplace apps&#39; tokens."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.form.Set("csrf", csrf)
			resp := b.post("/portal/accounts/acct1/tokens", tc.form)
			assert.Equal(t, http.StatusUnprocessableEntity, resp.status)
			assert.Contains(t, resp.body, tc.msg)
			assert.Contains(t, resp.body, "Nothing was changed.")
		})
	}
	assert.Empty(t, s.tokens(t, "acct1"))
}

func TestANewTokensValueIsShownOnceThenNeverAgain(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	value := b.create(csrf, "acct1", "CI", "contacts.readonly")
	require.Equal(t, http.StatusOK, s.ping(t, value))
	again := b.get("/portal/accounts/acct1/tokens/shown-once")
	assert.Equal(t, http.StatusGone, again.status)
	assert.Contains(t, again.body, "shown only once")
	assert.NotContains(t, again.body, value)

	other := s.browser(t)
	other.signIn("ada@co1.example")
	assert.Equal(t, http.StatusGone, other.get("/portal/accounts/acct1/tokens/shown-once").status, "another session of the same person sees nothing")
}

func TestOnlyAnAccountsAdminsManageItsTokens(t *testing.T) {
	s := newSite(t)
	cases := []struct {
		email, account string
		allowed        bool
	}{
		{"ada@co1.example", "acct1", true},
		{"ada@co1.example", "acct2", false},
		{"gus@co1.example", "acct1", true},
		{"gus@co1.example", "acct2", true},
		{"gus@co1.example", "acct3", false},
		{"pat@co1.example", "acct1", false},
		{"ada@co1.example", "acct3", false},
		{"ada@co1.example", "noSuchAccount", false},
	}
	for _, tc := range cases {
		t.Run(tc.email+" on "+tc.account, func(t *testing.T) {
			b := s.browser(t)
			b.signIn(tc.email)
			resp := b.get("/portal/accounts/" + tc.account)
			if tc.allowed {
				assert.Equal(t, http.StatusOK, resp.status)
				assert.Contains(t, resp.body, "Generate new token")
			} else {
				assert.Equal(t, http.StatusForbidden, resp.status)
				assert.Contains(t, resp.body, "You do not administer this account")
			}
		})
	}
	b := s.browser(t)
	b.signIn("gus@co1.example")
	picker := b.get("/portal/accounts").body
	assert.Contains(t, picker, `href="/portal/accounts/acct1"`, "an agency admin picks among the company's accounts")
	assert.Contains(t, picker, `href="/portal/accounts/acct2"`)
	assert.NotContains(t, picker, "acct3")
}

func TestAnotherAccountsTokenIdIsTreatedAsNonexistent(t *testing.T) {
	s := newSite(t)
	otherValue, otherID := s.env.Token(t, "acct2")
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	for _, id := range []string{otherID, "tok_doesNotExist0000"} {
		for _, action := range []string{"revoke", "rotate"} {
			t.Run(action+" "+id, func(t *testing.T) {
				resp := b.post("/portal/accounts/acct1/tokens/"+id+"/"+action, url.Values{"csrf": {csrf}, "old": {"revoke"}})
				assert.Equal(t, http.StatusNotFound, resp.status)
				assert.Contains(t, resp.body, "This account has no token with that id, so nothing was changed.")
				assert.Equal(t, http.StatusNotFound, b.get("/portal/accounts/acct1/tokens/"+id+"/"+action).status)
			})
		}
	}
	assert.Equal(t, http.StatusOK, s.ping(t, otherValue))
	assert.Len(t, s.tokens(t, "acct2"), 1)
}

func TestRevokeAndRotateTakeEffectOnTheAPI(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	first := b.create(csrf, "acct1", "CI", "contacts.readonly")
	require.Equal(t, http.StatusOK, s.ping(t, first))
	id := s.tokens(t, "acct1")[0].TokenID

	resp := b.post("/portal/accounts/acct1/tokens/"+id+"/rotate", url.Values{"csrf": {csrf}})
	assert.Equal(t, http.StatusUnprocessableEntity, resp.status, "the admin must choose")
	assert.Equal(t, http.StatusOK, s.ping(t, first))

	resp = b.post("/portal/accounts/acct1/tokens/"+id+"/rotate", url.Values{"csrf": {csrf}, "old": {"keep"}})
	require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
	shown := b.get(resp.header.Get("Location"))
	second := shownValue.FindStringSubmatch(shown.body)[1]
	assert.Equal(t, http.StatusOK, s.ping(t, second))
	assert.Equal(t, http.StatusOK, s.ping(t, first), "kept for 7 days")
	settings := b.get("/portal/accounts/acct1").body
	assert.Regexp(t, `Expires at \d{4}-\d\d-\d\d \d\d:\d\d UTC`, settings)

	s.env.Clock.Advance(auth.RotationGrace)
	assert.Equal(t, http.StatusUnauthorized, s.ping(t, first), "after 7 days the API answers 401")

	var secondID string
	for _, info := range s.tokens(t, "acct1") {
		if info.Replaces == id {
			secondID = info.TokenID
		}
	}
	csrf = b.signIn("ada@co1.example") // the session ended during the 7 days
	resp = b.post("/portal/accounts/acct1/tokens/"+secondID+"/revoke", url.Values{"csrf": {csrf}})
	require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
	assert.Equal(t, http.StatusUnauthorized, s.ping(t, second))
	notice := b.get(resp.header.Get("Location")).body
	assert.Contains(t, notice, "is revoked: its next API request gets 401")
	again := b.post("/portal/accounts/acct1/tokens/"+secondID+"/revoke", url.Values{"csrf": {csrf}})
	require.Equal(t, http.StatusSeeOther, again.status, again.body)
	assert.Contains(t, b.get(again.header.Get("Location")).body, "was revoked already: nothing was changed", "a second revoke says so")

	audit := b.get("/portal/accounts/acct1/audit").body
	for _, want := range []string{"Ada Admin", "created", "rotated", "revoked"} {
		assert.Contains(t, audit, want)
	}
	assert.NotContains(t, audit, first)
	assert.NotContains(t, audit, second)
}

func TestRotationsSentTogetherThroughTheFormMakeOneSuccessor(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	first := b.create(csrf, "acct1", "CI", "contacts.readonly")
	id := s.tokens(t, "acct1")[0].TokenID

	// The form sent six times at once: a double click, several tabs.
	const rotations = 6
	answers := make([]page, rotations)
	var wg sync.WaitGroup
	for i := range rotations {
		wg.Go(func() {
			answers[i] = b.post("/portal/accounts/acct1/tokens/"+id+"/rotate", url.Values{"csrf": {csrf}, "old": {"keep"}})
		})
	}
	wg.Wait()
	statuses := map[int]int{}
	for _, a := range answers {
		statuses[a.status]++
		if a.status == http.StatusConflict {
			assert.Contains(t, a.body, "This token cannot be rotated")
			assert.Contains(t, a.body, "rotated already")
			assert.Contains(t, a.body, "Nothing was changed.")
		}
	}
	assert.Equal(t, map[int]int{http.StatusSeeOther: 1, http.StatusConflict: rotations - 1}, statuses,
		"one rotation shows its new value, every other one says why nothing was changed")

	shown := b.get("/portal/accounts/acct1/tokens/shown-once")
	require.Equal(t, http.StatusOK, shown.status, shown.body)
	second := shownValue.FindStringSubmatch(shown.body)[1]
	assert.Equal(t, http.StatusOK, s.ping(t, second))
	assert.Equal(t, http.StatusOK, s.ping(t, first), "kept for 7 days")

	list := s.tokens(t, "acct1")
	require.Len(t, list, 2, "the old token and one successor")
	entries, err := s.env.Server.Tokens.Audit(context.Background(), "acct1", 50)
	require.NoError(t, err)
	rotated := 0
	for _, e := range entries {
		if e.Action == auth.AuditRotated {
			rotated++
		}
	}
	assert.Equal(t, 1, rotated, "the audit list names one rotation")
}

func TestTheSettingsPageAdvisesRotationAfterNinetyDaysAndShowsTheLastUse(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	value := b.create(csrf, "acct1", "Old one", "contacts.readonly")
	assert.NotContains(t, b.get("/portal/accounts/acct1").body, "Rotation recommended")
	s.env.Clock.Advance(91 * 24 * time.Hour)
	require.Equal(t, http.StatusOK, s.ping(t, value))
	b.signIn("ada@co1.example")
	page := b.get("/portal/accounts/acct1").body
	assert.Contains(t, page, "Rotation recommended")
	assert.Contains(t, page, s.env.Clock.Now().Format("2006-01-02 15:04 UTC"), "last used, to the minute")
}

func TestInviteLinksWorkOnceWithinADay(t *testing.T) {
	s := newSite(t)
	ids := s.portal.Identities()
	ctx := context.Background()
	code, err := ids.CreateInvite(ctx, "co1", "PAT@co1.example")
	require.NoError(t, err)
	b := s.browser(t)
	pageOf := b.get("/portal/invite/" + code)
	require.Equal(t, http.StatusOK, pageOf.status)
	assert.Contains(t, pageOf.body, "pat@co1.example")
	form := csrfOf(t, pageOf)
	set := func(pw, confirm string) page {
		return b.post("/portal/invite", url.Values{"csrf": {form}, "code": {code}, "password": {pw}, "confirm": {confirm}})
	}
	short := set("short", "short")
	assert.Equal(t, http.StatusUnprocessableEntity, short.status)
	assert.Contains(t, short.body, "at least 12 characters")
	assert.Contains(t, set("a new password one", "a new password two").body, "do not match")

	done := set("a brand new password", "a brand new password")
	require.Equal(t, http.StatusSeeOther, done.status, done.body)
	assert.Equal(t, "/portal/sign-in?welcome=1", done.header.Get("Location"))
	reused := set("another password!!", "another password!!")
	assert.Equal(t, http.StatusGone, reused.status)
	assert.Contains(t, reused.body, "already been used")
	assert.Equal(t, http.StatusGone, b.get("/portal/invite/"+code).status)

	late, err := ids.CreateInvite(ctx, "co1", "ada@co1.example")
	require.NoError(t, err)
	s.env.Clock.Advance(24 * time.Hour)
	expired := b.get("/portal/invite/" + late)
	assert.Equal(t, http.StatusGone, expired.status)
	assert.Contains(t, expired.body, "has expired")
	assert.Equal(t, http.StatusNotFound, b.get("/portal/invite/"+strings.Repeat("A", 43)).status)
	assert.NotContains(t, s.logs.String(), code, "the request log names the route, never the link")
}

func TestSignOutEndsTheSession(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	resp := b.post("/portal/sign-out", url.Values{"csrf": {csrf}})
	require.Equal(t, http.StatusSeeOther, resp.status)
	assert.Equal(t, "/portal/sign-in?signedout=1", resp.header.Get("Location"))
	assert.Equal(t, http.StatusSeeOther, b.get("/portal/accounts/acct1").status)
}

func TestEachRequestLogsOneLineNamingTheRouteNeverThePath(t *testing.T) {
	// A table whose engine is gone: nothing listens where it was.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	stopped := "http://" + ln.Addr().String()
	require.NoError(t, ln.Close())
	db, err := dynamo.NewClient(context.Background(), stopped, "us-east-1", nil, dynamo.WithMaxAttempts(1))
	require.NoError(t, err)
	logs := &testenv.LogBuffer{}
	deps := wiring.Deps{Table: &storage.Table{DB: db, Name: "t"}, Logger: slog.New(slog.NewJSONHandler(logs, nil))}
	p, err := portal.New(apiserver.NewCore(config.Config{}, deps), portal.Options{})
	require.NoError(t, err)
	srv := httptest.NewServer(p)
	defer srv.Close()
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	code := strings.Repeat("c", 43) // an invite code's length: its page reads the invite

	for _, tc := range []struct {
		name, path, route string
		status            int
		level             string
		cause             string // "" when the line has none
	}{
		{"a redirect is an answer like any other", "/portal", "GET /portal", http.StatusSeeOther, "INFO", ""},
		{"a storage outage is the try-again page, its cause logged", "/portal/invite/" + code, "GET /portal/invite/{code}", http.StatusServiceUnavailable, "ERROR", "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(logs.String())
			resp, err := noRedirects.Get(srv.URL + tc.path)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, tc.status, resp.StatusCode, "%s", body)
			if tc.status == http.StatusServiceUnavailable {
				assert.Equal(t, "1", resp.Header.Get("Retry-After"))
				assert.Contains(t, string(body), "Try again in a moment")
			}

			lines := strings.Split(strings.TrimSpace(logs.String()[before:]), "\n")
			require.Len(t, lines, 1)
			var line map[string]any
			require.NoError(t, json.Unmarshal([]byte(lines[0]), &line))
			assert.Equal(t, "portal request", line["msg"])
			assert.Equal(t, tc.level, line["level"])
			assert.Equal(t, tc.route, line["route"])
			assert.EqualValues(t, tc.status, line["status"])
			assert.NotContains(t, line, "path")
			assert.NotContains(t, lines[0], code, "an invite's code is never logged")
			if tc.cause == "" {
				assert.NotContains(t, line, "error")
			} else {
				assert.Contains(t, line["error"], tc.cause)
			}
		})
	}
}
