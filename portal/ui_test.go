package portal_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/scopes"
)

// longName is one unbroken name at the limit, such as a pasted URL.
var longName = "https://ci.example.com/" + strings.Repeat("x", auth.MaxNameLength-len("https://ci.example.com/"))

// tokenID is the id of the account's token of that name.
func (s *site) tokenID(t *testing.T, account, name string) string {
	t.Helper()
	for _, info := range s.tokens(t, account) {
		if info.Name == name && info.ReplacedBy == "" {
			return info.TokenID
		}
	}
	t.Fatalf("no token %q in %s", name, account)
	return ""
}

// section is the part of body from the first start to the first end after
// it ("" when start is absent).
func section(body, start, end string) string {
	i := strings.Index(body, start)
	if i < 0 {
		return ""
	}
	rest := body[i:]
	if j := strings.Index(rest, end); j >= 0 {
		return rest[:j]
	}
	return rest
}

// tag is the HTML start tag of the element with that id.
func tag(t *testing.T, body, id string) string {
	t.Helper()
	m := regexp.MustCompile(`<[a-z]+ [^>]*id="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindString(body)
	require.NotEmpty(t, m, "an element with id %s", id)
	return m
}

func TestNamesAndDescriptionsAreEditedThroughTheirFormWithANoticeAndAnAuditEntry(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	value := b.create(csrf, "acct1", longName, "contacts.readonly")
	id := s.tokenID(t, "acct1", longName)
	editPath := "/portal/accounts/acct1/tokens/" + id + "/edit"

	settings := b.get("/portal/accounts/acct1").body
	assert.Contains(t, settings, `action="`+editPath+`"`, "the row has an Edit button")
	form := b.get(editPath)
	require.Equal(t, http.StatusOK, form.status)
	assert.Contains(t, tag(t, form.body, "name"), `value="`+longName+`"`, "the form starts from the name as it is")

	cases := []struct {
		name   string
		form   url.Values
		status int
		field  string
		msg    string
	}{
		{"an empty name", url.Values{"name": {" "}}, http.StatusUnprocessableEntity, "name", "Token name is required."},
		{"a name over the limit", url.Values{"name": {strings.Repeat("n", 101)}}, http.StatusUnprocessableEntity, "name", "Token name must be at most 100 characters (it has 101)."},
		{"a description over the limit", url.Values{"name": {"x"}, "description": {strings.Repeat("d", 501)}}, http.StatusUnprocessableEntity, "description", "Description must be at most 500 characters (it has 501)."},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is refused on the form, its field marked", func(t *testing.T) {
			tc.form.Set("csrf", csrf)
			resp := b.post(editPath, tc.form)
			assert.Equal(t, tc.status, resp.status)
			assert.Contains(t, resp.body, "Nothing was changed.")
			field := tag(t, resp.body, tc.field)
			assert.Contains(t, field, `aria-invalid="true"`)
			assert.Contains(t, field, `aria-describedby="`+tc.field+`-error `)
			assert.Contains(t, tag(t, resp.body, tc.field+"-error"), "field-error")
			assert.Contains(t, section(resp.body, `id="`+tc.field+`-error"`, "</p>"), tc.msg)
			assert.Contains(t, tag(t, resp.body, "problem"), "autofocus", "focus moves to the errors")
		})
	}
	assert.Equal(t, longName, s.tokens(t, "acct1")[0].Name, "nothing was changed")
	assert.Equal(t, http.StatusForbidden, b.post(editPath, url.Values{"name": {"x"}}).status, "the form needs its CSRF token")

	resp := b.post(editPath, url.Values{"csrf": {csrf}, "name": {"  Nightly sync  "}, "description": {"Runs at 02:00 on ci-01"}})
	require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
	after := b.get(resp.header.Get("Location")).body
	assert.Contains(t, section(after, `class="notice"`, "</div>"), "The token &#34;Nightly sync&#34; is saved")
	assert.Contains(t, after, "Runs at 02:00 on ci-01")
	assert.NotContains(t, after, longName)
	assert.Equal(t, http.StatusOK, s.ping(t, value), "the token works as before")
	audit := b.get("/portal/accounts/acct1/audit").body
	assert.Contains(t, audit, `<span class="action edited">edited</span>`)
	assert.Contains(t, audit, "name was &#34;"+longName)

	_, otherID := s.env.Token(t, "acct2")
	assert.Equal(t, http.StatusNotFound, b.get("/portal/accounts/acct1/tokens/"+otherID+"/edit").status, "another account's token does not exist here")
	assert.Equal(t, http.StatusNotFound, b.post("/portal/accounts/acct1/tokens/"+otherID+"/edit", url.Values{"csrf": {csrf}, "name": {"mine"}}).status)
	require.Equal(t, http.StatusSeeOther, b.post("/portal/accounts/acct1/tokens/"+id+"/revoke", url.Values{"csrf": {csrf}}).status)
	revoked := b.post(editPath, url.Values{"csrf": {csrf}, "name": {"renamed after the fact"}})
	assert.Equal(t, http.StatusConflict, revoked.status, "a revoked token keeps its name")
	assert.Equal(t, "Nightly sync", s.tokens(t, "acct1")[0].Name)
}

func TestRevokedTokensFoldAwayAndEveryRowKeepsItsActionsAndLinks(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	b.create(csrf, "acct1", longName, "contacts.readonly")
	b.create(csrf, "acct1", "Old", "contacts.readonly")
	long, old := s.tokenID(t, "acct1", longName), s.tokenID(t, "acct1", "Old")
	require.Equal(t, http.StatusSeeOther, b.post("/portal/accounts/acct1/tokens/"+old+"/revoke", url.Values{"csrf": {csrf}}).status)
	resp := b.post("/portal/accounts/acct1/tokens/"+long+"/rotate", url.Values{"csrf": {csrf}, "old": {"keep"}})
	require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
	successor := s.tokenID(t, "acct1", longName)

	body := b.get("/portal/accounts/acct1").body
	working := section(body, "<table", "</table>")
	ended := section(body, `<details class="ended">`, "</details>\n")
	assert.Contains(t, section(ended, "<summary>", "</summary>"), "Ended tokens")
	assert.NotContains(t, ended, " open", "folded until opened")
	assert.Contains(t, ended, `data-token-id="`+old+`"`, "the revoked token is under Ended tokens")
	assert.NotContains(t, working, `data-token-id="`+old+`"`)
	for _, id := range []string{long, successor} {
		row := section(working, `data-token-id="`+id+`"`, "</tr>")
		require.NotEmpty(t, row, "the working table has %s", id)
		assert.Contains(t, row, "Revoke<span class=\"visually-hidden\"> "+longName, "each working row has its actions, named")
		assert.Contains(t, row, "Edit<span class=\"visually-hidden\"> "+longName)
	}
	assert.Contains(t, section(working, `data-token-id="`+long+`"`, "</tr>"), "Replaced by <code>"+successor+"</code>", "the rotated token names its successor")
	assert.Contains(t, section(working, `data-token-id="`+successor+`"`, "</tr>"), "Replaces <code>"+long+"</code>")
}

// scopeText is a scope as the page writes it, as copied.
func scopeText(html string) string {
	return strings.NewReplacer(`<span class="seg">`, "", "</span>", "", "<wbr>", "").Replace(html)
}

var scopeCode = regexp.MustCompile(`<code class="scope">(.*?)</code>`)

func TestATokenWithEveryScopeSaysSoAndEveryScopeCanBeOpenedWithoutBreakingAtAHyphen(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	// Every scope a private token can use: the form refuses the one it cannot.
	usable := slices.DeleteFunc(scopes.All(), func(sc string) bool { return sc == operations.CreateWhitelabelProvider.Scope })
	b.create(csrf, "acct1", "Everything", usable...)
	row := section(b.get("/portal/accounts/acct1").body, "<tr class=\"\" data-token-id=", "</tr>")
	assert.Contains(t, row, "<strong>Every scope</strong>", "every scope is said as such, not as its first four")
	assert.Contains(t, row, fmt.Sprintf("all %d operations a private token can call", len(operations.All)-1))
	more := section(row, `<details class="more-scopes">`, "</details>")
	require.NotEmpty(t, more, "the scopes fold under a details element")
	assert.Contains(t, more, "<summary>its "+strconv.Itoa(len(usable))+" scopes")
	shown := scopeCode.FindAllStringSubmatch(row, -1)
	require.Len(t, shown, len(usable), "every scope is on the page, once")
	var texts []string
	for _, m := range shown {
		texts = append(texts, scopeText(m[1]))
		for _, seg := range regexp.MustCompile(`<span class="seg">([^<]*)</span>`).FindAllStringSubmatch(m[1], -1) {
			assert.NotContains(t, seg[1], ".", "a line may break after a dot, never inside a part (hyphens included)")
		}
	}
	assert.ElementsMatch(t, usable, texts, "copied, a scope is itself")
	assert.Equal(t, operations.ListContacts.Scope, texts[0], "the scopes that unlock operations come first, in the operations' order")
	assert.Contains(t, row, `<span class="seg">agency-accounts</span>`, "accounts.agency-accounts.manage keeps its hyphenated part whole")
}

func TestATokensScopesReadAsTheOperationsTheyUnlockWithTheRestCounted(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	cases := []struct {
		name         string
		scopes       []string
		shown        []string // the scopes in view, in order
		ops          []string // operations the row names
		summary      string   // the folding control's text ("" when nothing folds)
		foldedScopes []string
	}{
		{"one scope names its operations", []string{"contacts.readonly"},
			[]string{"contacts.readonly"}, []string{contactsReadonlyOps}, "", nil},
		{"scopes that unlock nothing here are folded and counted after those that do", []string{"accounts.agency-accounts.manage", "medias.write", "oauth.readonly"},
			[]string{"medias.write"}, []string{"POST /medias/{id}"}, "and 2 more<span class=\"visually-hidden\"> scopes of T</span> <span class=\"idle-count\">(2 unlock no operation here)</span>",
			[]string{"accounts.agency-accounts.manage", "oauth.readonly"}},
		{"a scope with two operations names both", []string{"products.write"},
			[]string{"products.write"}, []string{operations.UpdateShippingZone.ID() + ", " + operations.UpdateShippingRate.ID()}, "", nil},
		{"past four scopes that unlock operations the rest fold", []string{"contacts.readonly", "contacts.write", "medias.readonly", "medias.write", "surveys.readonly", "users.readonly"},
			[]string{"contacts.readonly", "contacts.write", "medias.readonly", "medias.write"}, []string{contactsReadonlyOps},
			"and 2 more<span class=\"visually-hidden\"> scopes of T</span></summary>", []string{"users.readonly", "surveys.readonly"}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name := "T" + strconv.Itoa(i)
			b.create(csrf, "acct1", name, tc.scopes...)
			id := s.tokenID(t, "acct1", name)
			row := strings.ReplaceAll(section(b.get("/portal/accounts/acct1").body, `data-token-id="`+id+`"`, "</tr>"), name, "T")
			more := section(row, `<details class="more-scopes">`, "</details>")
			inView := strings.Replace(row, more, "", 1)
			var shown []string
			for _, m := range scopeCode.FindAllStringSubmatch(inView, -1) {
				shown = append(shown, scopeText(m[1]))
			}
			assert.Equal(t, tc.shown, shown)
			for _, op := range tc.ops {
				assert.Contains(t, row, `<span class="ops">`+op+`</span>`)
			}
			if tc.summary == "" {
				assert.Empty(t, more, "nothing is folded")
				return
			}
			assert.Contains(t, more, "<summary>"+tc.summary)
			var folded []string
			for _, m := range scopeCode.FindAllStringSubmatch(more, -1) {
				folded = append(folded, scopeText(m[1]))
			}
			assert.Equal(t, tc.foldedScopes, folded)
		})
	}
}

func TestTheNewTokenFormLeadsWithScopesThatUnlockOperationsAndOffersNoneAPrivateTokenCannotUse(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	b.signIn("ada@co1.example")
	form := b.get("/portal/accounts/acct1/tokens/new").body
	areas := section(form, `<div class="scope-areas">`, `<details class="scope-group other"`)
	other := section(form, `<details class="scope-group other"`, "</details>")
	require.NotEmpty(t, areas)
	require.NotEmpty(t, other, "the other scopes are folded")
	assert.NotContains(t, other, " open>", "folded unless one of them is ticked")
	assert.Contains(t, areas, `value="contacts.readonly"`)
	assert.Contains(t, areas, "<code>GET /contacts/</code>")
	assert.Less(t, strings.Index(form, `value="contacts.readonly"`), strings.Index(form, `value="accounts.agency-accounts.manage"`), "the scopes that unlock operations lead")
	assert.NotContains(t, form, `value="payments/integration.write"`, "a private token can never use it: not offered")
	assert.Contains(t, areas, "Not offered: payments/integration.write is of no use to a private token", "its area says why")
}

func TestCreateAndRotateSayWhatHappenedAndTheRotationKeepsThePromisedEnd(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	resp := b.post("/portal/accounts/acct1/tokens", url.Values{"csrf": {csrf}, "name": {"CI"}, "scope": {"contacts.readonly"}})
	require.Equal(t, http.StatusSeeOther, resp.status)
	shown := b.get(resp.header.Get("Location")).body
	id := s.tokenID(t, "acct1", "CI")
	assert.Contains(t, section(shown, `class="notice"`, "</div>"), "The token &#34;CI&#34; is created.")
	done := regexp.MustCompile(`href="([^"]+)">Done`).FindStringSubmatch(shown)
	require.NotNil(t, done)
	settings := b.get(strings.ReplaceAll(done[1], "&amp;", "&")).body
	assert.Contains(t, section(settings, `class="notice"`, "</div>"), "The token &#34;CI&#34; is created.", "the settings page says so too")

	now := s.env.Clock.Now()
	lateInMinute := now.Truncate(time.Minute).Add(50 * time.Second)
	if lateInMinute.Before(now) {
		lateInMinute = lateInMinute.Add(time.Minute)
	}
	s.env.Clock.Advance(lateInMinute.Sub(now)) // the page is read late in its minute
	page := b.get("/portal/accounts/acct1/tokens/" + id + "/rotate").body
	promised := regexp.MustCompile(`until (\d{4}-\d\d-\d\d \d\d:\d\d UTC)\)`).FindStringSubmatch(page)
	require.NotNil(t, promised, page)
	until := regexp.MustCompile(`name="until" value="([^"]+)"`).FindStringSubmatch(page)
	require.NotNil(t, until)
	s.env.Clock.Advance(30 * time.Second) // the admin reads, and posts in the next minute
	resp = b.post("/portal/accounts/acct1/tokens/"+id+"/rotate", url.Values{"csrf": {csrf}, "old": {"keep"}, "until": {until[1]}})
	require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
	shown = b.get(resp.header.Get("Location")).body
	assert.Contains(t, section(shown, `class="notice"`, "</div>"), "is rotated: this new token replaces "+id+", which keeps working until "+promised[1])
	old, err := s.env.Server.Tokens.Get(context.Background(), "acct1", id)
	require.NoError(t, err)
	end := clock.Parse(old.ExpiresAt)
	assert.Equal(t, promised[1], end.UTC().Format("2006-01-02 15:04 UTC"), "the token got the end the page promised")
	assert.Zero(t, end.Second(), "to the minute")

	next := s.tokenID(t, "acct1", "CI")
	stale := b.post("/portal/accounts/acct1/tokens/"+next+"/rotate", url.Values{"csrf": {csrf}, "old": {"keep"}, "until": {s.env.Clock.Now().Add(-time.Minute).UTC().Format(time.RFC3339)}})
	assert.Equal(t, http.StatusUnprocessableEntity, stale.status, "an end already past is not given")
	assert.Contains(t, stale.body, "check the new end and rotate again")
	assert.Contains(t, tag(t, stale.body, "old-keep"), "checked")
}

func TestSignInErrorsMarkTheFieldsAndNeverSayNothingWasChanged(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	form := csrfOf(t, b.get("/portal/sign-in"))
	resp := b.post("/portal/sign-in", url.Values{"csrf": {form}, "email": {"ada@co1.example"}, "password": {"not the password"}})
	assert.Equal(t, http.StatusUnauthorized, resp.status)
	assert.NotContains(t, resp.body, "Nothing was changed")
	assert.Contains(t, section(resp.body, `class="problem"`, "</div>"), "You are not signed in.")
	assert.Contains(t, tag(t, resp.body, "problem"), "autofocus", "focus moves to the error")
	for _, field := range []string{"email", "password"} {
		assert.Contains(t, tag(t, resp.body, field), `aria-invalid="true"`)
		assert.Contains(t, tag(t, resp.body, field), `aria-describedby="problem"`)
	}
}

func TestADeepLinkSurvivesSigningInAndNoOtherSiteDoes(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	resp := b.get("/portal/accounts/acct1/audit?x=1")
	require.Equal(t, http.StatusSeeOther, resp.status)
	require.Equal(t, "/portal/sign-in?next=%2Fportal%2Faccounts%2Facct1%2Faudit%3Fx%3D1", resp.header.Get("Location"))
	signIn := b.get(resp.header.Get("Location"))
	assert.Contains(t, signIn.body, `name="next" value="/portal/accounts/acct1/audit?x=1"`)

	cases := []struct{ next, want string }{
		{"/portal/accounts/acct1/audit?x=1", "/portal/accounts/acct1/audit?x=1"},
		{"//evil.example/portal/accounts", "/portal"},
		{"https://evil.example/portal/accounts", "/portal"},
		{"/portal/accounts/..//evil.example", "/portal"},
		{"/portal/sign-out", "/portal"},
		{"/\\evil.example", "/portal"},
	}
	for _, tc := range cases {
		t.Run(tc.next+" leads to "+tc.want, func(t *testing.T) {
			c := s.browser(t)
			form := csrfOf(t, c.get("/portal/sign-in"))
			resp := c.post("/portal/sign-in", url.Values{"csrf": {form}, "email": {"ada@co1.example"}, "password": {password}, "next": {tc.next}})
			require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
			assert.Equal(t, tc.want, resp.header.Get("Location"))
		})
	}
}

func TestTheSignInPageAfterSettingAPasswordFillsInTheAddress(t *testing.T) {
	s := newSite(t)
	code, err := s.portal.Identities().CreateInvite(context.Background(), "co1", "PAT@co1.example")
	require.NoError(t, err)
	b := s.browser(t)
	form := csrfOf(t, b.get("/portal/invite/"+code))
	done := b.post("/portal/invite", url.Values{"csrf": {form}, "code": {code}, "password": {"a brand new password"}, "confirm": {"a brand new password"}})
	require.Equal(t, http.StatusSeeOther, done.status, done.body)
	assert.NotContains(t, done.header.Get("Location"), "co1.example", "the address stays out of the URL")
	signIn := b.get(done.header.Get("Location")).body
	assert.Contains(t, tag(t, signIn, "email"), `value="pat@co1.example"`)
	assert.Contains(t, tag(t, signIn, "password"), "autofocus", "the password is what is left to type")
	assert.NotContains(t, tag(t, b.get("/portal/sign-in").body, "email"), "pat@co1.example", "once only")
}

func TestAPasswordRefusedOnTheInvitePageIsMarkedOnItsField(t *testing.T) {
	s := newSite(t)
	code, err := s.portal.Identities().CreateInvite(context.Background(), "co1", "pat@co1.example")
	require.NoError(t, err)
	b := s.browser(t)
	form := csrfOf(t, b.get("/portal/invite/"+code))
	resp := b.post("/portal/invite", url.Values{"csrf": {form}, "code": {code}, "password": {"short"}, "confirm": {"short"}})
	assert.Equal(t, http.StatusUnprocessableEntity, resp.status)
	assert.Contains(t, section(resp.body, `class="problem"`, "</div>"), "Your password is not set.")
	assert.NotContains(t, resp.body, "Nothing was changed")
	assert.Contains(t, tag(t, resp.body, "password"), `aria-invalid="true"`)
	assert.Contains(t, tag(t, resp.body, "password"), `aria-describedby="password-error password-rule"`)
}

// contactsReadonlyOps are the operations contacts.readonly unlocks, as a
// token's row names them: every operation of the table needing it, in the
// table's order.
var contactsReadonlyOps = func() string {
	var ids []string
	for _, op := range operations.All {
		if op.Scope == "contacts.readonly" && !op.MarketplaceOnly {
			ids = append(ids, op.ID())
		}
	}
	return strings.Join(ids, ", ")
}()
