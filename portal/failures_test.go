package portal_test

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
	"github.com/bizplatform/api/shared/failures"
)

func TestAnAccountsAdminsSeeItsFailedRequestsAndNoOtherAccounts(t *testing.T) {
	s := newSite(t)
	// A token without the ping's scope is refused 403: a failure of acct1.
	narrow, narrowID := s.env.Token(t, "acct1", "contacts.write")
	named, namedID := s.env.Token(t, "acct1", "contacts.readonly")
	other, _ := s.env.Token(t, "acct2", "contacts.write")
	for range 3 {
		require.Equal(t, http.StatusForbidden, s.ping(t, narrow))
		s.env.Clock.Advance(time.Second)
	}
	require.Equal(t, http.StatusOK, s.ping(t, named), "a success is not listed")
	require.Equal(t, http.StatusForbidden, s.ping(t, other))
	otherRequest := s.env.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: other}).Header.Get("X-Request-Id")

	b := s.browser(t)
	b.signIn("ada@co1.example")
	settings := b.get("/portal/accounts/acct1")
	assert.Contains(t, settings.body, `href="/portal/accounts/acct1/failures">Failed requests</a>`, "the API settings page links to it")

	page := b.get("/portal/accounts/acct1/failures")
	require.Equal(t, http.StatusOK, page.status, page.body)
	t.Run("each failure is listed with its route, status, message, token and request id", func(t *testing.T) {
		assert.Equal(t, 3, strings.Count(page.body, `<strong class="status">403</strong>`))
		assert.Contains(t, page.body, `<strong class="status">403</strong><br><code>GET /ping</code>`)
		assert.Contains(t, page.body, "The token is not authorized for this scope")
		assert.Contains(t, page.body, narrowID)
		assert.NotContains(t, page.body, narrow, "never a token's value")
		assert.Contains(t, page.body, "2026-06-15 12:00 UTC")
	})
	t.Run("another account's failures are not on it", func(t *testing.T) {
		assert.NotContains(t, page.body, otherRequest)
	})
	t.Run("a filter by token lists that token's failures only", func(t *testing.T) {
		byNamed := b.get("/portal/accounts/acct1/failures?token=" + namedID)
		require.Equal(t, http.StatusOK, byNamed.status)
		assert.Contains(t, byNamed.body, "No failed request of the last 7 days matches this filter.")
		byNarrow := b.get("/portal/accounts/acct1/failures?status=403&token=" + narrowID)
		assert.Equal(t, 3, strings.Count(byNarrow.body, `<strong class="status">403</strong>`))
		assert.Contains(t, byNarrow.body, `<option value="403" selected>403</option>`, "the filter shows what it is set to")
	})
	t.Run("a filter by status class lists that class only", func(t *testing.T) {
		assert.Contains(t, b.get("/portal/accounts/acct1/failures?status=5xx").body, "No failed request of the last 7 days matches this filter.")
	})
	t.Run("a filter or a page the list does not offer is refused", func(t *testing.T) {
		for _, q := range []url.Values{
			{"status": {"200"}},
			{"status": {"4xx' OR 1=1"}},
			{"token": {"tok_doesNotExist0000"}},
			{"after": {"ACCOUNT#acct2"}},
			{"after": {"2026-06-15T12:00:03.000Z#a#b"}},
		} {
			resp := b.get("/portal/accounts/acct1/failures?" + q.Encode())
			assert.Equal(t, http.StatusBadRequest, resp.status, q.Encode())
			assert.Contains(t, resp.body, "This list cannot be shown")
		}
	})
	t.Run("an admin of another account cannot open it", func(t *testing.T) {
		assert.Equal(t, http.StatusForbidden, b.get("/portal/accounts/acct2/failures").status)
		plain := s.browser(t)
		plain.signIn("pat@co1.example")
		assert.Equal(t, http.StatusForbidden, plain.get("/portal/accounts/acct1/failures").status)
	})
}

func TestTheFailedRequestsPageGoesFromPageToPage(t *testing.T) {
	s := newSite(t)
	narrow, _ := s.env.Token(t, "acct1", "contacts.write")
	for range 53 {
		require.Equal(t, http.StatusForbidden, s.ping(t, narrow))
		s.env.Clock.Advance(time.Second)
	}
	b := s.browser(t)
	b.signIn("ada@co1.example")
	first := b.get("/portal/accounts/acct1/failures")
	require.Equal(t, http.StatusOK, first.status)
	assert.Equal(t, 50, strings.Count(first.body, `<strong class="status">403</strong>`))
	older := regexHref(t, first.body, "Older failures")
	second := b.get(older)
	require.Equal(t, http.StatusOK, second.status, second.body)
	assert.Equal(t, 3, strings.Count(second.body, `<strong class="status">403</strong>`))
	assert.NotContains(t, second.body, "Older failures")
	assert.Contains(t, second.body, "Newest failures")
}

// regexHref returns the href of the link whose text is text.
func regexHref(t *testing.T, body, text string) string {
	t.Helper()
	i := strings.Index(body, ">"+text+"</a>")
	require.GreaterOrEqual(t, i, 0, "a link %q", text)
	start := strings.LastIndex(body[:i], `href="`)
	require.GreaterOrEqual(t, start, 0)
	href := body[start+len(`href="`) : i-1]
	return strings.ReplaceAll(href, "&amp;", "&")
}

func TestRateLimitedRequestsAreCountedByDayNotListed(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	b.signIn("ada@co1.example")
	page := b.get("/portal/accounts/acct1/failures")
	assert.Contains(t, page.body, "No request of this account was rate-limited in the last 7 days.")
	assert.Contains(t, page.body, "No request of this account failed in the last 7 days.")

	// The pipeline counts each 429 so (shared/failures tests it over
	// HTTP): 4 at 12:00, 2 at 13:00, 1 the next day; 1 for another account.
	store := failures.New(s.env.Table, s.env.Clock)
	count := func(account string, n int) {
		for range n {
			require.NoError(t, store.CountRateLimited(context.Background(), account))
		}
	}
	count("acct1", 4)
	s.env.Clock.Advance(time.Hour)
	count("acct1", 2)
	s.env.Clock.Advance(24 * time.Hour)
	count("acct1", 1)
	count("acct2", 9)

	b = s.browser(t) // the first session has ended by now
	b.signIn("ada@co1.example")
	page = b.get("/portal/accounts/acct1/failures")
	require.Equal(t, http.StatusOK, page.status)
	assert.Contains(t, page.body, "7 requests were answered 429 in the last 7 days")
	assert.Contains(t, page.body, `<td data-label="Day (UTC)" class="when">2026-06-16</td>`)
	assert.Contains(t, page.body, "13:00 UTC (2), 12:00 UTC (4)")
	assert.Contains(t, page.body, "No request of this account failed in the last 7 days.", "no 429 is listed one by one")
	assert.NotContains(t, page.body, "(9)", "another account's count is not shown")
}
