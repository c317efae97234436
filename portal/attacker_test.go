package portal_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/portal"
	"github.com/bizplatform/api/portal/identity"
)

// What an attacker (or a careless client) sends that the portal's pages do
// not: these tests go through the real handlers on the engine.

func TestAFormThatCannotBeReadWholeIsRefusedForWhatItIsNotAsExpired(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	for _, tc := range []struct {
		name, body string
		status     int
		title      string
	}{
		{"a form over the size limit", url.Values{"csrf": {csrf}, "name": {"big"}, "scope": {"contacts.readonly"}, "description": {strings.Repeat("d", 70<<10)}}.Encode(),
			http.StatusRequestEntityTooLarge, "Form too large"},
		{"a form whose encoding is broken", "csrf=" + csrf + "&name=%zz&scope=contacts.readonly", http.StatusBadRequest, "The form could not be read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("POST", s.http.URL+"/portal/accounts/acct1/tokens", strings.NewReader(tc.body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
			resp, err := b.http.Do(req)
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Contains(t, string(body), tc.title)
			assert.NotContains(t, string(body), "has expired")
		})
	}
	assert.Empty(t, s.tokens(t, "acct1"))
}

func TestOnlyTheGetOfItsOwnAccountUsesTheShownOnceValueUp(t *testing.T) {
	cases := []struct {
		name   string
		before func(b *browser) page
		status int
	}{
		{"a HEAD of the page", func(b *browser) page { return b.do("HEAD", "/portal/accounts/acct1/tokens/shown-once", nil, nil) },
			http.StatusMethodNotAllowed},
		{"another account's page of the same admin", func(b *browser) page { return b.get("/portal/accounts/acct2/tokens/shown-once") },
			http.StatusGone},
	}
	for _, tc := range cases {
		t.Run(tc.name+" leaves the value to the page that shows it", func(t *testing.T) {
			s := newSite(t)
			b := s.browser(t)
			csrf := b.signIn("gus@co1.example") // an agency admin: acct1 and acct2
			resp := b.post("/portal/accounts/acct1/tokens", url.Values{"csrf": {csrf}, "name": {"CI"}, "scope": {"contacts.readonly"}})
			require.Equal(t, http.StatusSeeOther, resp.status, resp.body)

			first := tc.before(b)
			assert.Equal(t, tc.status, first.status)
			assert.NotContains(t, first.body, "bpt_")

			shown := b.get("/portal/accounts/acct1/tokens/shown-once")
			require.Equal(t, http.StatusOK, shown.status, shown.body)
			assert.Regexp(t, shownValue, shown.body)
		})
	}
}

func TestMethodsThePortalDoesNotServeGet405WithAllowAndTheSecurityHeaders(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	cases := []struct {
		method, path string
		allow        string
	}{
		{"PUT", "/portal", "GET, HEAD"},
		{"DELETE", "/portal", "GET, HEAD"},
		{"OPTIONS", "/portal", "GET, HEAD"},
		{"TRACE", "/portal", "GET, HEAD"},
		{"PUT", "/portal/sign-in", "GET, HEAD, POST"},
		{"DELETE", "/portal/accounts/acct1/tokens/tok_x/revoke", "GET, HEAD, POST"},
		{"POST", "/portal/accounts/acct1", "GET, HEAD"},
		{"GET", "/portal/sign-out", "POST"},
		{"HEAD", "/portal/accounts/acct1/tokens/shown-once", "GET"},
	}
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			resp := b.do(tc.method, tc.path, nil, nil)
			assert.Equal(t, http.StatusMethodNotAllowed, resp.status)
			assert.Equal(t, tc.allow, resp.header.Get("Allow"))
			assert.Contains(t, resp.header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
			assert.Equal(t, "nosniff", resp.header.Get("X-Content-Type-Options"))
			assert.Equal(t, "no-store", resp.header.Get("Cache-Control"))
		})
	}
	t.Run("a path no method is served on is not found", func(t *testing.T) {
		assert.Equal(t, http.StatusNotFound, b.do("PUT", "/portal/nowhere", nil, nil).status)
	})
}

func TestThePortalAsDeployedTellsBrowsersToKeepToHTTPS(t *testing.T) {
	for _, secure := range []bool{false, true} {
		t.Run(map[bool]string{false: "not over plain HTTP locally", true: "behind API Gateway"}[secure], func(t *testing.T) {
			s := newSite(t, func(o *portal.Options) { o.SecureCookies = secure })
			b := s.browser(t)
			for _, path := range []string{"/portal/sign-in", "/portal/nowhere"} {
				hsts := b.get(path).header.Get("Strict-Transport-Security")
				if secure {
					assert.Equal(t, "max-age=31536000", hsts, path)
				} else {
					assert.Empty(t, hsts, path)
				}
			}
		})
	}
}

// lastLine is the last request line logged since before (an offset in the
// log): the line of the request a case sends last.
func (s *site) lastLine(t *testing.T, before int) map[string]any {
	t.Helper()
	var found map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.logs.String()[before:]), "\n") {
		var line map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &line), l)
		if line["msg"] == "portal request" {
			found = line
		}
	}
	require.NotNil(t, found, "a portal request line")
	return found
}

func TestRedirectsAndMistakesLogAtInfoAndRefusalsThatMeanSomethingAtWarn(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	form := func(v url.Values) url.Values { v.Set("csrf", csrf); return v }
	other, stranger := s.browser(t), s.browser(t)
	strangerForm := csrfOf(t, stranger.get("/portal/sign-in"))
	wrong := func() page {
		return stranger.post("/portal/sign-in", url.Values{"csrf": {strangerForm}, "email": {"nobody@co1.example"}, "password": {"a wrong password"}})
	}
	cases := []struct {
		name     string
		send     func() page
		status   int
		level    string
		refusal  string
		repeated int // sends before the one logged
	}{
		{"a created token's redirect", func() page {
			return b.post("/portal/accounts/acct1/tokens", form(url.Values{"name": {"CI"}, "scope": {"contacts.readonly"}}))
		}, http.StatusSeeOther, "INFO", "", 0},
		{"a rotation's redirect", func() page {
			return b.post("/portal/accounts/acct1/tokens/"+s.tokens(t, "acct1")[0].TokenID+"/rotate", form(url.Values{"old": {"keep"}}))
		}, http.StatusSeeOther, "INFO", "", 0},
		{"a revocation's redirect", func() page {
			return b.post("/portal/accounts/acct1/tokens/"+s.tokens(t, "acct1")[0].TokenID+"/revoke", form(url.Values{}))
		}, http.StatusSeeOther, "INFO", "", 0},
		{"a sign-in's redirect", func() page {
			return other.post("/portal/sign-in", url.Values{"csrf": {csrfOf(t, other.get("/portal/sign-in"))}, "email": {"gus@co1.example"}, "password": {password}})
		}, http.StatusSeeOther, "INFO", "", 0},
		{"a sign-out's redirect", func() page {
			return other.post("/portal/sign-out", url.Values{"csrf": {csrfOf(t, other.get("/portal/accounts"))}})
		}, http.StatusSeeOther, "INFO", "", 0},
		{"a form with a mistake", func() page {
			return b.post("/portal/accounts/acct1/tokens", form(url.Values{"name": {""}, "scope": {"contacts.readonly"}}))
		}, http.StatusUnprocessableEntity, "INFO", "", 0},
		{"a wrong password", wrong, http.StatusUnauthorized, "INFO", "", 0},
		{"a page that does not exist", func() page { return b.get("/portal/nowhere") }, http.StatusNotFound, "INFO", "", 0},
		{"a form without its CSRF token", func() page {
			return b.post("/portal/accounts/acct1/tokens", url.Values{"name": {"x"}, "scope": {"contacts.readonly"}})
		}, http.StatusForbidden, "WARN", "missing or stale CSRF token", 0},
		{"a form from another site", func() page {
			return b.do("POST", "/portal/accounts/acct1/tokens", form(url.Values{"name": {"x"}}), map[string]string{"Sec-Fetch-Site": "cross-site"})
		}, http.StatusForbidden, "WARN", "cross-site form", 0},
		{"a form over the size limit", func() page {
			return b.post("/portal/accounts/acct1/tokens", form(url.Values{"description": {strings.Repeat("d", 70<<10)}}))
		}, http.StatusRequestEntityTooLarge, "WARN", "form over the size limit", 0},
		{"a locked sign-in", wrong, http.StatusTooManyRequests, "WARN", "sign-in throttled", 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for range tc.repeated {
				tc.send()
			}
			before := len(s.logs.String())
			resp := tc.send()
			require.Equal(t, tc.status, resp.status, resp.body)
			line := s.lastLine(t, before)
			require.EqualValues(t, tc.status, line["status"], "the line of the request sent")
			assert.Equal(t, tc.level, line["level"])
			assert.NotEmpty(t, resp.header.Get("X-Request-Id"))
			assert.Equal(t, resp.header.Get("X-Request-Id"), line["request_id"], "the line names the request id its answer gave")
			assert.NotContains(t, line, "error", "no error field: nothing for an operator to act on")
			if tc.refusal == "" {
				assert.NotContains(t, line, "refusal")
			} else {
				assert.Equal(t, tc.refusal, line["refusal"])
			}
		})
	}
	assert.NotContains(t, s.logs.String(), `"level":"ERROR"`, "normal use and refusals alike log no error")
}

// sourcesSite serves s's portal as if each request came from the client
// address its browser names (as API Gateway's source IP would).
func (s *site) fromSources(t *testing.T) *site {
	copied := *s
	copied.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ip := r.Header.Get("X-Test-Source"); ip != "" {
			r.RemoteAddr = ip + ":4321"
		}
		s.portal.ServeHTTP(w, r)
	}))
	t.Cleanup(copied.http.Close)
	return &copied
}

// signInFrom sends the sign-in form from the client address ip.
func (b *browser) signInFrom(ip, email, pw string) page {
	b.t.Helper()
	form := csrfOf(b.t, b.do("GET", "/portal/sign-in", nil, map[string]string{"X-Test-Source": ip}))
	return b.do("POST", "/portal/sign-in", url.Values{"csrf": {form}, "email": {email}, "password": {pw}}, map[string]string{"X-Test-Source": ip})
}

func TestAStrangersFailuresDoNotLockTheOwnerOutButTheOwnersOwnDo(t *testing.T) {
	cases := []struct {
		name       string
		failFrom   string
		ownerFrom  string
		ownerIsIn  bool
		retryAfter string
	}{
		{"a stranger's five failures lock only the stranger's network", "203.0.113.9", "198.51.100.1", true, ""},
		{"the owner's five failures lock the owner's network for 15 minutes", "198.51.100.1", "198.51.100.1", false, "900"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t).fromSources(t)
			stranger, owner := s.browser(t), s.browser(t)
			for range identity.FailureLimit {
				require.Equal(t, http.StatusUnauthorized, stranger.signInFrom(tc.failFrom, "ada@co1.example", "a wrong password").status)
			}
			refused := stranger.signInFrom(tc.failFrom, "ada@co1.example", password)
			assert.Equal(t, http.StatusTooManyRequests, refused.status, "the failing network is locked, even with the right password")
			assert.Equal(t, "900", refused.header.Get("Retry-After"))
			assert.Contains(t, refused.body, "locked until")

			resp := owner.signInFrom(tc.ownerFrom, "ada@co1.example", password)
			if tc.ownerIsIn {
				assert.Equal(t, http.StatusSeeOther, resp.status, resp.body)
			} else {
				assert.Equal(t, http.StatusTooManyRequests, resp.status)
				assert.Equal(t, tc.retryAfter, resp.header.Get("Retry-After"))
			}
		})
	}
}

// Failures sent together (a script, many tabs) are each counted: the lock
// comes however they interleave, and still only for their source.
func TestFailuresSentTogetherLockTheirSourceAndOnlyIt(t *testing.T) {
	s := newSite(t).fromSources(t)
	const attempts = 2 * identity.FailureLimit
	statuses := make([]int, attempts)
	var wg sync.WaitGroup
	for i := range attempts {
		b := s.browser(t)
		wg.Go(func() { statuses[i] = b.signInFrom("203.0.113.9", "ada@co1.example", "a wrong password").status })
	}
	wg.Wait()
	for _, st := range statuses {
		assert.Contains(t, []int{http.StatusUnauthorized, http.StatusTooManyRequests}, st)
	}
	b := s.browser(t)
	assert.Equal(t, http.StatusTooManyRequests, b.signInFrom("203.0.113.9", "ada@co1.example", password).status, "the failing source is locked")
	assert.Equal(t, http.StatusSeeOther, b.signInFrom("198.51.100.1", "ada@co1.example", password).status, "the owner's is not")
}

func TestAnAddressFailingFromManySourcesIsSlowedByAGrowingDelayNotWalled(t *testing.T) {
	s := newSite(t).fromSources(t)
	b := s.browser(t)
	source := 0
	fail := func() page {
		source++
		return b.signInFrom(fmt.Sprintf("203.0.113.%d", source), "ada@co1.example", "a wrong password")
	}
	for range identity.SpreadFailureLimit {
		require.Equal(t, http.StatusUnauthorized, fail().status, "the first failures from many networks cost no wait")
	}
	for _, wait := range []int{1, 2, 4, 8} {
		require.Equal(t, http.StatusUnauthorized, fail().status)
		held := fail()
		require.Equal(t, http.StatusTooManyRequests, held.status, held.body)
		assert.Equal(t, strconv.Itoa(wait), held.header.Get("Retry-After"), "each failure doubles the wait")
		assert.Contains(t, held.body, fmt.Sprintf("(in %d second", wait), "the page says how long")
		s.env.Clock.Advance(time.Duration(wait) * time.Second)
	}
	s.env.Clock.Advance(time.Hour)
	assert.Equal(t, http.StatusSeeOther, b.signInFrom("198.51.100.1", "ada@co1.example", password).status, "the owner gets in once the wait is over")
}

func TestEvery429SaysWhenToRetry(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	form := csrfOf(t, b.get("/portal/sign-in"))
	var last page
	for i := 0; i <= identity.AttemptLimit; i++ {
		last = b.post("/portal/sign-in", url.Values{"csrf": {form}, "email": {fmt.Sprintf("x%d@co1.example", i)}, "password": {"p"}})
	}
	require.Equal(t, http.StatusTooManyRequests, last.status)
	assert.Equal(t, "900", last.header.Get("Retry-After"), "the client's window ends 15 minutes after it began")
	code, err := s.portal.Identities().CreateInvite(context.Background(), "co1", "pat@co1.example")
	require.NoError(t, err)
	invite := b.post("/portal/invite", url.Values{"csrf": {form}, "code": {code}, "password": {"a brand new password"}, "confirm": {"a brand new password"}})
	require.Equal(t, http.StatusTooManyRequests, invite.status)
	assert.Equal(t, "900", invite.header.Get("Retry-After"))
}

func TestAnInviteRefusesCommonAndDegeneratePasswords(t *testing.T) {
	s := newSite(t)
	code, err := s.portal.Identities().CreateInvite(context.Background(), "co1", "pat@co1.example")
	require.NoError(t, err)
	b := s.browser(t)
	form := csrfOf(t, b.get("/portal/invite/"+code))
	set := func(pw string) page {
		return b.post("/portal/invite", url.Values{"csrf": {form}, "code": {code}, "password": {pw}, "confirm": {pw}})
	}
	for _, tc := range []struct{ name, password, msg string }{
		{"a common password", "password1234", "one of the most common"},
		{"a common password in capitals", "PASSWORD1234", "one of the most common"},
		{"a common word with digits and a mark added", "dragon123456!", "one of the most common"},
		{"twelve spaces", strings.Repeat(" ", 12), "must not be only spaces"},
		{"spaces, tabs and a line break", " \t \n         ", "must not be only spaces"},
		{"one character repeated", "zzzzzzzzzzzzzzzz", "one character repeated"},
	} {
		t.Run(tc.name+" is refused and the link still works", func(t *testing.T) {
			resp := set(tc.password)
			assert.Equal(t, http.StatusUnprocessableEntity, resp.status)
			assert.Contains(t, resp.body, tc.msg)
		})
	}
	done := set("plum kettle orbit 42")
	assert.Equal(t, http.StatusSeeOther, done.status, "a password of one's own is taken: %s", done.body)
}

func TestTheNewTokenFormRefusesInvisibleAndReorderingCharacters(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	for _, tc := range []struct{ name, field, value, msg string }{
		{"a NUL in the name", "name", "CI\x00", "Token name must not contain a control character (U+0000 at character 3)."},
		{"a right-to-left override in the name", "name", "invoice\u202Egpj.exe", "Token name must not contain a text-direction control (U+202E at character 8)."},
		{"a zero-width space in the name", "name", "ad\u200Bmin", "Token name must not contain a zero-width character (U+200B at character 3)."},
		{"invalid UTF-8 in the name", "name", "caf\xe9", "Token name is not valid UTF-8 text."},
		{"a right-to-left isolate in the description", "description", "for \u2067CI", "Description must not contain a text-direction control (U+2067 at character 5)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			form := url.Values{"csrf": {csrf}, "name": {"CI"}, "scope": {"contacts.readonly"}}
			form.Set(tc.field, tc.value)
			resp := b.post("/portal/accounts/acct1/tokens", form)
			assert.Equal(t, http.StatusUnprocessableEntity, resp.status)
			assert.Contains(t, html.UnescapeString(resp.body), tc.msg)
			assert.Contains(t, resp.body, "Nothing was changed.")
		})
	}
	assert.Empty(t, s.tokens(t, "acct1"))
	resp := b.post("/portal/accounts/acct1/tokens", url.Values{"csrf": {csrf}, "name": {"Zoë's 日本語 key"}, "description": {"line one\nline two"}, "scope": {"contacts.readonly"}})
	assert.Equal(t, http.StatusSeeOther, resp.status, "letters of any script and line breaks in a description are fine: %s", resp.body)

	list := s.tokens(t, "acct1")
	require.Len(t, list, 1)
	edit := b.post("/portal/accounts/acct1/tokens/"+list[0].TokenID+"/edit", url.Values{"csrf": {csrf}, "name": {"invoice\u202Egpj.exe"}, "description": {""}})
	assert.Equal(t, http.StatusUnprocessableEntity, edit.status, "the edit form keeps the same rule")
	assert.Contains(t, html.UnescapeString(edit.body), "Token name must not contain a text-direction control")
	assert.Equal(t, "Zoë's 日本語 key", s.tokens(t, "acct1")[0].Name)
}
