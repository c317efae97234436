package portal_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// hooks is the store the portal's webhooks pages write through, on the
// site's table.
func (s *site) hooks() *endpoints.Store {
	return endpoints.New(s.env.Table, s.env.Clock, false).Sealing(s.env.Deps.Secrets)
}

// onlyHook is the account's one endpoint.
func (s *site) onlyHook(t *testing.T, account string) endpoints.Endpoint {
	t.Helper()
	list, err := s.hooks().List(context.Background(), account)
	require.NoError(t, err)
	require.Len(t, list, 1)
	return list[0]
}

func TestAnAdminAddsEditsDisablesAndRemovesAWebhookEndpoint(t *testing.T) {
	s := newSite(t)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	base := "/portal/accounts/acct1/webhooks"

	assert.Contains(t, b.get("/portal/accounts/acct1").body, `href="/portal/accounts/acct1/webhooks">Webhooks</a>`, "the API settings page links to it")
	empty := b.get(base)
	require.Equal(t, http.StatusOK, empty.status, empty.body)
	assert.Contains(t, empty.body, "This account has no webhook endpoint.")

	t.Run("the add form offers every event type with its summary and scope, grouped by area", func(t *testing.T) {
		form := b.get(base + "/new")
		require.Equal(t, http.StatusOK, form.status)
		for _, name := range events.EndpointTypes() {
			assert.Contains(t, form.body, `name="event" value="`+name+`"`)
		}
		assert.Contains(t, form.body, "A contact&#39;s task was deleted")
		assert.Contains(t, form.body, "Scope <code>contacts.readonly</code>")
		assert.Contains(t, form.body, "<legend>Contacts</legend>")
	})

	t.Run("a URL on a private host is refused beside its field, keeping what was entered", func(t *testing.T) {
		resp := b.post(base, url.Values{"csrf": {csrf}, "url": {"http://10.0.0.1/in"}, "description": {"CRM sync"}, "event": {"TaskDelete"}, "enabled": {"on"}})
		require.Equal(t, http.StatusUnprocessableEntity, resp.status, resp.body)
		assert.Contains(t, tag(t, resp.body, "url"), `aria-invalid="true"`)
		assert.Contains(t, section(resp.body, `id="url-error"`, "</p>"), "The URL must be an https URL with a public host on port 443 or 8443: it uses http, not https")
		assert.Contains(t, tag(t, resp.body, "url"), `value="http://10.0.0.1/in"`)
		assert.Contains(t, resp.body, ">CRM sync</textarea>")
		assert.Regexp(t, `value="TaskDelete"[^>]* checked`, resp.body)
		list, err := s.hooks().List(context.Background(), "acct1")
		require.NoError(t, err)
		assert.Empty(t, list, "nothing was added")
	})
	t.Run("no event type is refused beside the types", func(t *testing.T) {
		resp := b.post(base, url.Values{"csrf": {csrf}, "url": {"https://hooks.example.com/in"}})
		require.Equal(t, http.StatusUnprocessableEntity, resp.status)
		assert.Contains(t, section(resp.body, `id="events-error"`, "</p>"), "Choose at least one event type")
	})

	resp := b.post(base, url.Values{"csrf": {csrf}, "url": {"https://hooks.example.com/in"}, "description": {"CRM sync"}, "event": {"TaskDelete", "OpportunityCreate"}, "enabled": {"on"}})
	require.Equal(t, http.StatusUnprocessableEntity, resp.status, "a type the registry does not have is refused")
	resp = b.post(base, url.Values{"csrf": {csrf}, "url": {"https://hooks.example.com/in"}, "description": {"CRM sync"}, "event": {"TaskDelete", "CouponDelete"}, "enabled": {"on"}})
	require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
	hook := s.onlyHook(t, "acct1")
	assert.Equal(t, []string{"TaskDelete", "CouponDelete"}, hook.Events)
	assert.True(t, hook.Enabled)

	t.Run("the list shows the endpoint, its types and state, with the notice of the change", func(t *testing.T) {
		require.Equal(t, base+"/shown-once?made=added", resp.header.Get("Location"), "its signing secret is shown first")
		shown := b.get(resp.header.Get("Location"))
		require.Equal(t, http.StatusOK, shown.status, shown.body)
		list := b.get(base + "?notice=added&webhook=" + hook.ID)
		require.Equal(t, http.StatusOK, list.status)
		assert.Contains(t, list.body, "The endpoint https://hooks.example.com/in is added")
		row := section(list.body, `data-webhook-id="`+hook.ID+`"`, "</tr>")
		assert.Contains(t, row, "CRM sync")
		assert.Contains(t, row, "<code>TaskDelete</code>")
		assert.Contains(t, row, "<code>CouponDelete</code>")
		assert.Contains(t, row, ">Enabled</span>")
		assert.Contains(t, row, ">Disable<")
	})

	t.Run("the edit form changes its types", func(t *testing.T) {
		form := b.get(base + "/" + hook.ID + "/edit")
		require.Equal(t, http.StatusOK, form.status)
		assert.Contains(t, tag(t, form.body, "url"), `value="https://hooks.example.com/in"`)
		resp := b.post(base+"/"+hook.ID+"/edit", url.Values{"csrf": {csrf}, "url": {"https://hooks.example.com/in"}, "description": {"CRM sync"}, "event": {"CouponDelete"}, "enabled": {"on"}})
		require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
		assert.Contains(t, b.get(resp.header.Get("Location")).body, "The endpoint https://hooks.example.com/in is saved.")
		assert.Equal(t, []string{"CouponDelete"}, s.onlyHook(t, "acct1").Events)
		again := b.post(base+"/"+hook.ID+"/edit", url.Values{"csrf": {csrf}, "url": {"https://hooks.example.com/in"}, "description": {"CRM sync"}, "event": {"CouponDelete"}, "enabled": {"on"}})
		assert.Contains(t, again.header.Get("Location"), "notice=unchanged")
	})

	t.Run("disable and enable change its state", func(t *testing.T) {
		resp := b.post(base+"/"+hook.ID+"/state", url.Values{"csrf": {csrf}, "enabled": {"false"}})
		require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
		off := s.onlyHook(t, "acct1")
		assert.False(t, off.Enabled)
		assert.Equal(t, endpoints.DisabledByAdmin, off.DisabledReason)
		row := section(b.get(base).body, `data-webhook-id="`+hook.ID+`"`, "</tr>")
		assert.Contains(t, row, ">Disabled by an admin</span>")
		assert.Contains(t, row, ">Enable<")
		resp = b.post(base+"/"+hook.ID+"/state", url.Values{"csrf": {csrf}, "enabled": {"true"}})
		require.Equal(t, http.StatusSeeOther, resp.status)
		assert.True(t, s.onlyHook(t, "acct1").Enabled)
		assert.Equal(t, http.StatusBadRequest, b.post(base+"/"+hook.ID+"/state", url.Values{"csrf": {csrf}, "enabled": {"maybe"}}).status)
	})

	t.Run("removing asks first, then removes it", func(t *testing.T) {
		confirm := b.get(base + "/" + hook.ID + "/remove")
		require.Equal(t, http.StatusOK, confirm.status)
		assert.Contains(t, confirm.body, "Remove this webhook endpoint?")
		assert.Contains(t, confirm.body, "https://hooks.example.com/in")
		resp := b.post(base+"/"+hook.ID+"/remove", url.Values{"csrf": {csrf}})
		require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
		assert.Contains(t, b.get(resp.header.Get("Location")).body, "The endpoint is removed")
		list, err := s.hooks().List(context.Background(), "acct1")
		require.NoError(t, err)
		assert.Empty(t, list)
		assert.Equal(t, http.StatusNotFound, b.post(base+"/"+hook.ID+"/remove", url.Values{"csrf": {csrf}}).status, "a removed endpoint is no such endpoint")
	})

	t.Run("the audit page names each change with the endpoint's URL and id", func(t *testing.T) {
		audit := b.get("/portal/accounts/acct1/audit").body
		for _, action := range []string{"webhook added", "webhook updated", "webhook removed"} {
			assert.Contains(t, audit, ">"+action+"</span>")
		}
		assert.Contains(t, audit, `<span class="token-name">https://hooks.example.com/in</span> <code class="token-id">`+hook.ID+`</code>`)
		assert.Contains(t, audit, "Ada Admin &lt;ada@co1.example&gt;")
	})
}

func TestAnotherAccountsEndpointIsNoSuchEndpointAndEveryFormNeedsItsToken(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	theirs, err := s.hooks().Add(ctx, "acct3", endpoints.Input{URL: ptr("https://hooks.example.com/co2"), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	ours, err := s.hooks().Add(ctx, "acct1", endpoints.Input{URL: ptr("https://hooks.example.com/co1"), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	base := "/portal/accounts/acct1/webhooks/"

	t.Run("every page and form of another account's endpoint answers 404 and changes nothing", func(t *testing.T) {
		for _, path := range []string{"edit", "remove", "deliveries"} {
			assert.Equal(t, http.StatusNotFound, b.get(base+theirs.ID+"/"+path).status, path)
		}
		for path, form := range map[string]url.Values{
			"edit":             {"url": {"https://evil.example.com/"}, "event": {"TaskDelete"}, "enabled": {"on"}},
			"state":            {"enabled": {"false"}},
			"remove":           {},
			"redeliver":        {"event": {"a00000000000000000000001"}},
			"redeliver-failed": {"since": {"2026-06-01T00:00"}},
		} {
			form.Set("csrf", csrf)
			resp := b.post(base+theirs.ID+"/"+path, form)
			assert.Equal(t, http.StatusNotFound, resp.status, path)
			assert.Contains(t, resp.body, "No such webhook endpoint", path)
		}
		still, err := s.hooks().Get(ctx, "acct3", theirs.ID)
		require.NoError(t, err)
		assert.Equal(t, theirs.URL, still.URL)
		assert.True(t, still.Enabled)
	})
	t.Run("a form without the session's CSRF token is refused", func(t *testing.T) {
		resp := b.post(base+ours.ID+"/state", url.Values{"enabled": {"false"}})
		assert.Equal(t, http.StatusForbidden, resp.status)
		resp = b.post("/portal/accounts/acct1/webhooks", url.Values{"csrf": {"nope"}, "url": {"https://hooks.example.com/x"}, "event": {"TaskDelete"}})
		assert.Equal(t, http.StatusForbidden, resp.status)
		assert.True(t, s.onlyHook(t, "acct1").Enabled)
	})
	t.Run("an admin of another account and a plain user cannot open the pages", func(t *testing.T) {
		assert.Equal(t, http.StatusForbidden, b.get("/portal/accounts/acct3/webhooks").status)
		plain := s.browser(t)
		plain.signIn("pat@co1.example")
		assert.Equal(t, http.StatusForbidden, plain.get("/portal/accounts/acct1/webhooks").status)
		assert.Equal(t, http.StatusForbidden, plain.get(base+ours.ID+"/deliveries").status)
	})
}

func ptr[T any](v T) *T { return &v }

// delivery writes a delivery of e in status, made at, with attempts
// answered answer.
func (s *site) delivery(t *testing.T, e endpoints.Endpoint, n int, status deliveries.State, at time.Time, answer int) string {
	t.Helper()
	id := fmt.Sprintf("a%023d", n)
	stamp := clock.Timestamp(at)
	ev := deliveries.Delivery{ID: id, EndpointID: e.ID, Type: "TaskDelete", URL: e.URL, Body: `{"type":"TaskDelete"}`, CreatedAt: stamp, Status: status}
	if answer != 0 {
		ev.Attempts = []deliveries.Attempt{{At: stamp, Status: answer}, {At: stamp, Status: answer}}
	}
	if status == deliveries.Pending {
		ev.NextAt = clock.Timestamp(at.Add(time.Minute))
	}
	key := storage.Key{PK: deliveries.PK(e.ID), SK: "EVENT#" + clock.Timestamp(at) + "#" + id}
	require.NoError(t, s.env.Table.Put(context.Background(), deliveries.Item{Key: key, Delivery: ev}, nil))
	return id
}

func TestAnEndpointsDeliveriesArePagedFilteredAndRedelivered(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	hook, err := s.hooks().Add(ctx, "acct1", endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	now := s.env.Clock.Now()
	// 30 delivered a day ago, 2 failed (one 4 days ago, one 2 days ago),
	// the newest pending.
	for i := range 30 {
		s.delivery(t, hook, i+1, deliveries.Delivered, now.Add(-24*time.Hour+time.Duration(i)*time.Second), 200)
	}
	oldFailed := s.delivery(t, hook, 31, deliveries.Failed, now.Add(-96*time.Hour), 500)
	newFailed := s.delivery(t, hook, 32, deliveries.Failed, now.Add(-48*time.Hour), 503)
	pending := s.delivery(t, hook, 33, deliveries.Pending, now.Add(-time.Minute), 0)

	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	base := "/portal/accounts/acct1/webhooks/" + hook.ID + "/deliveries"
	assert.Contains(t, b.get("/portal/accounts/acct1/webhooks").body, `action="`+base+`"`, "the list leads to them")

	first := b.get(base)
	require.Equal(t, http.StatusOK, first.status, first.body)
	t.Run("the newest come first, a page at a time, each with its attempts and last answer", func(t *testing.T) {
		assert.Equal(t, 25, strings.Count(first.body, "<tr data-event-id="))
		assert.Less(t, strings.Index(first.body, pending), strings.Index(first.body, "a00000000000000000000030"), "newest first")
		row := section(first.body, `data-event-id="`+pending+`"`, "</tr>")
		assert.Contains(t, row, "Not tried yet")
		assert.NotContains(t, row, "Redeliver", "a pending delivery is not redelivered")
		row = section(first.body, `data-event-id="a00000000000000000000030"`, "</tr>")
		assert.Contains(t, row, "200 OK")
		assert.Contains(t, row, `<td data-label="Attempts">2</td>`)
		assert.Contains(t, row, ">Redeliver<")
		second := b.get(regexHref(t, first.body, "Older deliveries"))
		require.Equal(t, http.StatusOK, second.status, second.body)
		assert.Equal(t, 8, strings.Count(second.body, "<tr data-event-id="))
		assert.Contains(t, section(second.body, `data-event-id="`+oldFailed+`"`, "</tr>"), "500 Internal Server Error")
		assert.NotContains(t, second.body, "Older deliveries")
		assert.Contains(t, second.body, "Newest deliveries")
	})
	t.Run("a status filter lists that status only", func(t *testing.T) {
		failed := b.get(base + "?status=failed")
		assert.Equal(t, 2, strings.Count(failed.body, "<tr data-event-id="))
		assert.Contains(t, failed.body, "503 Service Unavailable")
		assert.Contains(t, failed.body, `<option value="failed" selected>failed</option>`)
	})
	t.Run("a filter or a cursor the page does not offer is refused", func(t *testing.T) {
		for _, q := range []string{"status=gone", "before=ACCOUNT%23acct2", "before=" + url.QueryEscape("EVENT#"+strings.Repeat("9", 90))} {
			assert.Equal(t, http.StatusBadRequest, b.get(base+"?"+q).status, q)
		}
	})

	redeliver := strings.TrimSuffix(base, "/deliveries") + "/redeliver"
	t.Run("one delivery is redelivered, keeping its attempts, with a notice", func(t *testing.T) {
		resp := b.post(redeliver, url.Values{"csrf": {csrf}, "event": {"a00000000000000000000030"}})
		require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
		page := b.get(resp.header.Get("Location"))
		assert.Contains(t, page.body, "The delivery a00000000000000000000030 is queued again")
		row := section(page.body, `data-event-id="a00000000000000000000030"`, "</tr>")
		assert.Contains(t, row, ">pending</span>")
		assert.Contains(t, row, `<td data-label="Attempts">2</td>`)
	})
	t.Run("a pending delivery is not queued twice, and an unknown one is no such delivery", func(t *testing.T) {
		assert.Equal(t, http.StatusConflict, b.post(redeliver, url.Values{"csrf": {csrf}, "event": {pending}}).status)
		assert.Equal(t, http.StatusNotFound, b.post(redeliver, url.Values{"csrf": {csrf}, "event": {"a00000000000000000000099"}}).status)
	})
	t.Run("every failed delivery since a time is redelivered, saying how many", func(t *testing.T) {
		since := now.Add(-72 * time.Hour).UTC().Format("2006-01-02T15:04")
		resp := b.post(base[:len(base)-len("/deliveries")]+"/redeliver-failed", url.Values{"csrf": {csrf}, "since": {since}})
		require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
		page := b.get(resp.header.Get("Location"))
		assert.Contains(t, page.body, "1 failed delivery since 2026-06-12 12:00 UTC is queued again")
		failed := b.get(base + "?status=failed").body
		assert.Contains(t, failed, oldFailed, "the one before the time stays failed")
		assert.NotContains(t, failed, newFailed)
		again := b.post(base[:len(base)-len("/deliveries")]+"/redeliver-failed", url.Values{"csrf": {csrf}, "since": {since}})
		assert.Contains(t, b.get(again.header.Get("Location")).body, "No delivery failed since 2026-06-12 12:00 UTC: nothing was queued.")
	})
	t.Run("a time that is not one is refused beside its field", func(t *testing.T) {
		for _, since := range []string{"yesterday", now.Add(time.Hour).UTC().Format("2006-01-02T15:04")} {
			resp := b.post(base[:len(base)-len("/deliveries")]+"/redeliver-failed", url.Values{"csrf": {csrf}, "since": {since}})
			require.Equal(t, http.StatusUnprocessableEntity, resp.status, since)
			assert.Contains(t, tag(t, resp.body, "since"), `aria-invalid="true"`)
			assert.Contains(t, tag(t, resp.body, "since"), `value="`+since+`"`, "what was entered is kept")
		}
	})
	t.Run("each redelivery is in the audit list", func(t *testing.T) {
		audit := b.get("/portal/accounts/acct1/audit").body
		assert.Equal(t, 2, strings.Count(audit, ">webhook redelivered</span>"), "one for the delivery, one for the failed ones; none when nothing was queued")
		assert.Contains(t, audit, "event a00000000000000000000030")
	})
}

// One "Redeliver failed" post requeued 303 deliveries at once, and could
// be repeated without end: it queues 100 now, the oldest first, and an
// endpoint's deliveries 500 an hour, each bound saying what is left.
func TestRedeliveryIsBoundedPerPostAndPerHourSayingWhatIsLeft(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	hook, err := s.hooks().Add(ctx, "acct1", endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	now := s.env.Clock.Now()
	for i := range 150 {
		s.delivery(t, hook, i+1, deliveries.Failed, now.Add(-3*time.Hour+time.Duration(i)*time.Second), 500)
	}
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	base := "/portal/accounts/acct1/webhooks/" + hook.ID
	since := now.Add(-4 * time.Hour).UTC().Format("2006-01-02T15:04")
	redeliverFailed := func() page {
		resp := b.post(base+"/redeliver-failed", url.Values{"csrf": {csrf}, "since": {since}})
		require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
		return b.get(resp.header.Get("Location"))
	}

	got := redeliverFailed()
	assert.Contains(t, got.body, "100 failed deliveries since 2026-06-15 08:00 UTC are queued again: the next attempts are within a minute. 50 more stay failed: one redelivery sends at most 100, the oldest first, so redeliver again for the next.")
	got = redeliverFailed()
	assert.Contains(t, got.body, "50 failed deliveries since 2026-06-15 08:00 UTC are queued again: the next attempts are within a minute.</")

	// 300 more sent again this hour (by anyone: the CLI, a script).
	for i := range 100 {
		s.delivery(t, hook, 200+i, deliveries.Failed, now.Add(-2*time.Hour+time.Duration(i)*time.Second), 500)
	}
	hour := storage.Key{PK: deliveries.PK(hook.ID), SK: "REDELIVERED#2026-06-15T12"}
	require.NoError(t, s.env.Table.Update(ctx, hour, expression.Add(expression.Name("count"), expression.Value(300)), nil))
	got = redeliverFailed()
	assert.Contains(t, got.body, "50 failed deliveries since 2026-06-15 08:00 UTC are queued again: the next attempts are within a minute. 50 more stay failed: an endpoint&#39;s deliveries are sent again at most 500 times an hour, so redeliver them after 13:00 UTC.")

	for _, form := range []struct{ path, field, value string }{{"/redeliver-failed", "since", since}, {"/redeliver", "event", fmt.Sprintf("a%023d", 1)}} {
		resp := b.post(base+form.path, url.Values{"csrf": {csrf}, form.field: {form.value}})
		assert.Equal(t, http.StatusTooManyRequests, resp.status, form.path)
		assert.Contains(t, resp.body, "Too many redeliveries this hour")
		assert.Contains(t, resp.body, "This endpoint&#39;s deliveries were sent again 500 times this hour, the most an hour allows, so nothing was queued. Redeliver again after 13:00 UTC.")
	}
}

// An endpoint failing every attempt for hours showed a green "Enabled",
// with no failing since or last success, and delivered rows said "Next
// attempt: None"; a pending delivery could not be tried before its
// backoff ended.
func TestAFailingEndpointShowsItsHealthAndAPendingDeliveryIsRetriedNow(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	hook, err := s.hooks().Add(ctx, "acct1", endpoints.Input{URL: ptr("https://hooks.example.com/flaky"), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	quiet, err := s.hooks().Add(ctx, "acct1", endpoints.Input{URL: ptr("https://hooks.example.com/quiet"), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	now := s.env.Clock.Now()
	ok := s.delivery(t, hook, 1, deliveries.Delivered, now.Add(-5*time.Hour), 200)
	s.delivery(t, hook, 2, deliveries.Failed, now.Add(-4*time.Hour), 500)
	pending := s.delivery(t, hook, 3, deliveries.Pending, now.Add(-time.Minute), 503)
	later := expression.Set(expression.Name("nextAttemptAt"), expression.Value(clock.Timestamp(now.Add(2*time.Hour))))
	require.NoError(t, s.env.Table.Update(ctx, storage.Key{PK: deliveries.PK(hook.ID), SK: "EVENT#" + clock.Timestamp(now.Add(-time.Minute)) + "#" + pending}, later, nil))
	// What the deliverer writes at the first failure.
	upd := expression.Set(expression.Name("failingSince"), expression.Value(clock.Timestamp(now.Add(-4*time.Hour))))
	require.NoError(t, s.env.Table.Update(ctx, storage.Key{PK: storage.AccountPK("acct1"), SK: "WEBHOOK#" + hook.ID}, upd, nil))

	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	list := b.get("/portal/accounts/acct1/webhooks")
	require.Equal(t, http.StatusOK, list.status, list.body)
	t.Run("the list says it is failing, since when, its last success and last answer", func(t *testing.T) {
		state := section(section(list.body, `data-webhook-id="`+hook.ID+`"`, "</tr>"), `data-label="State"`, "</td>")
		assert.Contains(t, state, `<span class="status failing">Failing</span>`)
		assert.NotContains(t, state, "Enabled")
		assert.Contains(t, state, "Every attempt failed since 2026-06-15 08:00 UTC; disabled at 2026-06-18 08:00 UTC unless one succeeds")
		assert.Contains(t, state, "Last success: 2026-06-15 07:00")
		assert.Contains(t, state, "Last answer: 503 Service Unavailable, 2026-06-15 11:59")
		other := section(section(list.body, `data-webhook-id="`+quiet.ID+`"`, "</tr>"), `data-label="State"`, "</td>")
		assert.Contains(t, other, `<span class="status active">Enabled</span>`)
		assert.Contains(t, other, "No attempt yet")
	})
	base := "/portal/accounts/acct1/webhooks/" + hook.ID
	page := b.get(base + "/deliveries")
	require.Equal(t, http.StatusOK, page.status, page.body)
	t.Run("its page says the same, and no delivered row says Next attempt: None", func(t *testing.T) {
		assert.Contains(t, section(page.body, `class="endpoint-health"`, "</p>"), "Every attempt failed since 2026-06-15 08:00 UTC")
		assert.Contains(t, section(page.body, `data-event-id="`+ok+`"`, "</tr>"), "Not needed: delivered")
		assert.NotContains(t, page.body, ">None<")
		assert.NotContains(t, section(page.body, `data-event-id="`+ok+`"`, "</tr>"), "Retry now", "an ended one is redelivered instead")
	})
	t.Run("Retry now makes a pending delivery due at once, keeping its attempts", func(t *testing.T) {
		row := section(page.body, `data-event-id="`+pending+`"`, "</tr>")
		assert.Contains(t, row, ">Retry now<")
		resp := b.post(base+"/retry", url.Values{"csrf": {csrf}, "event": {pending}})
		require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
		after := b.get(resp.header.Get("Location"))
		assert.Contains(t, after.body, "The delivery "+pending+" is due now")
		row = section(after.body, `data-event-id="`+pending+`"`, "</tr>")
		assert.Contains(t, row, `<td data-label="Attempts">2</td>`)
		assert.Contains(t, section(row, `data-label="Next attempt"`, "</td>"), "2026-06-15 12:00")
		assert.NotContains(t, row, ">Retry now<", "due already")
	})
	t.Run("an ended delivery is not retried, and an unknown one is no such delivery", func(t *testing.T) {
		assert.Equal(t, http.StatusConflict, b.post(base+"/retry", url.Values{"csrf": {csrf}, "event": {ok}}).status)
		assert.Equal(t, http.StatusNotFound, b.post(base+"/retry", url.Values{"csrf": {csrf}, "event": {"a00000000000000000000099"}}).status)
	})
}

// "Send test event" writes a test event's delivery for the deliverer
// (here none runs: the page says when it is sent) and is refused for a
// disabled endpoint.
func TestSendTestEventQueuesAPingAndSaysWhatBecameOfIt(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	hook, err := s.hooks().Add(ctx, "acct1", endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	base := "/portal/accounts/acct1/webhooks/" + hook.ID
	assert.Contains(t, b.get(base+"/deliveries").body, ">Send test event</button>")
	resp := b.post(base+"/test", url.Values{"csrf": {csrf}})
	require.Equal(t, http.StatusSeeOther, resp.status, resp.body)
	got := b.get(resp.header.Get("Location"))
	assert.Regexp(t, `The test event [0-9a-f]{24} is sent within a minute`, got.body)
	assert.Contains(t, got.body, `<span class="token-name">WebhookTest</span>`, "listed with its deliveries")

	_, err = s.hooks().Update(ctx, "acct1", hook.ID, endpoints.Input{Enabled: ptr(false)}, auth.Operator)
	require.NoError(t, err)
	assert.NotContains(t, b.get(base+"/deliveries").body, "Send test event")
	refused := b.post(base+"/test", url.Values{"csrf": {csrf}})
	assert.Equal(t, http.StatusConflict, refused.status)
	assert.Contains(t, refused.body, "A test event is not sent to a disabled endpoint")
}

func TestAnEndpointDisabledAfterDaysOfFailuresShowsANoticeSayingWhatToDo(t *testing.T) {
	s := newSite(t)
	ctx := context.Background()
	hook, err := s.hooks().Add(ctx, "acct1", endpoints.Input{URL: ptr("https://hooks.example.com/down"), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	// What the deliverer writes when it disables an endpoint.
	now := s.env.Clock.Now()
	upd := expression.Set(expression.Name("enabled"), expression.Value(false)).
		Set(expression.Name("disabledReason"), expression.Value(endpoints.DisabledFailing)).
		Set(expression.Name("disabledAt"), expression.Value(clock.Timestamp(now))).
		Set(expression.Name("failingSince"), expression.Value(clock.Timestamp(now.Add(-endpoints.FailingLimit))))
	require.NoError(t, s.env.Table.Update(ctx, storage.Key{PK: storage.AccountPK("acct1"), SK: "WEBHOOK#" + hook.ID}, upd, nil))

	b := s.browser(t)
	csrf := b.signIn("ada@co1.example")
	list := b.get("/portal/accounts/acct1/webhooks")
	require.Equal(t, http.StatusOK, list.status)
	notice := section(list.body, `class="warning failing"`, "</div>\n</div>")
	assert.Contains(t, notice, "https://hooks.example.com/down was disabled after 3 days of failures")
	assert.Contains(t, notice, "from 2026-06-12 12:00 UTC until it was disabled at 2026-06-15 12:00 UTC")
	assert.Contains(t, notice, "Fix the receiver")
	assert.Contains(t, notice, "/deliveries?since=2026-06-12T12%3a00", "it leads to the redelivery, since the failures began")
	assert.Contains(t, section(list.body, `data-webhook-id="`+hook.ID+`"`, "</tr>"), ">Disabled after 3 days of failures</span>")

	deliveries := b.get("/portal/accounts/acct1/webhooks/" + hook.ID + "/deliveries?since=2026-06-12T12:00")
	assert.Contains(t, deliveries.body, "This endpoint was disabled after 3 days of failures")
	assert.Contains(t, tag(t, deliveries.body, "since"), `value="2026-06-12T12:00"`)

	resp := b.post("/portal/accounts/acct1/webhooks/"+hook.ID+"/state", url.Values{"csrf": {csrf}, "enabled": {"true"}})
	require.Equal(t, http.StatusSeeOther, resp.status)
	after := b.get(resp.header.Get("Location")).body
	assert.NotContains(t, after, `class="warning failing"`, "enabling it clears the notice")
	assert.Contains(t, after, "redeliver them from its deliveries")
}
