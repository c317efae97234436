package portal

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/validate"
)

// The account's own webhook endpoints (package endpoints): the list, the
// add and edit forms, removal with a confirmation, and each endpoint's
// deliveries with redelivery.

// deliveriesPageSize is how many deliveries one page lists.
const deliveriesPageSize = 25

// hookRow is one endpoint as the pages show it.
type hookRow struct {
	endpoints.Endpoint
	// State is "Enabled", "Disabled by an admin" or "Disabled after
	// <the store's FailingLimit> of failures"; Failing is the last.
	State   string
	Failing bool
	// FailedSince is the first failed attempt, for the failing notice:
	// where "Redeliver failed since" starts.
	FailedSince string
	// Since is FailedSince as the redelivery form's field takes it.
	Since string
	// Troubled: enabled, and every attempt since FailedSince failed
	// (State "Failing"); DisableAt is when it is disabled if none
	// succeeds before.
	Troubled  bool
	DisableAt string
	// Checked: Health was read (the list and the deliveries page).
	Checked bool
	endpoints.Health
	// LastAnswer is Health.Last's answer (answerOf).
	LastAnswer string
	// PreviousUntil is when the previous signing secret stops signing,
	// while it still does (the list's rows).
	PreviousUntil string
}

// withHealth is row with what its newest deliveries say (Store.Health).
func (p *Portal) withHealth(ctx context.Context, row hookRow) (hookRow, error) {
	h, err := p.endpoints.Health(ctx, row.Endpoint)
	if err != nil {
		return row, err
	}
	row.Checked, row.Health, row.LastAnswer = true, h, answerOf(h.Last)
	return row, nil
}

func (p *Portal) newHookRow(e endpoints.Endpoint) hookRow {
	limit := p.endpoints.FailingLimit()
	row := hookRow{Endpoint: e, State: "Enabled"}
	switch {
	case e.Enabled && e.FailingSince != "":
		row.State, row.Troubled = "Failing", true
		row.DisableAt = formatMinute(clock.Parse(e.FailingSince).Add(limit))
	case e.Enabled:
	case e.DisabledReason == endpoints.DisabledFailing:
		row.State, row.Failing = "Disabled after "+clock.Span(limit)+" of failures", true
	default:
		row.State = "Disabled by an admin"
	}
	since := e.FailingSince
	if since == "" && row.Failing {
		since = e.DisabledAt
	}
	if t := clock.Parse(since); !t.IsZero() {
		if row.Failing && e.FailingSince == "" {
			t = t.Add(-limit)
		}
		row.FailedSince, row.Since = formatMinute(t), t.UTC().Format(sinceLayout)
	}
	return row
}

// sinceLayout is an <input type="datetime-local">'s value, read as UTC.
const sinceLayout = "2006-01-02T15:04"

// eventGroup is one group of the form's event type checkboxes: the area of
// the API whose changes make them.
type eventGroup struct {
	Title string
	Types []eventChoice
}

type eventChoice struct {
	ID                   string // the checkbox's element id
	Name, Scope, Summary string
}

// eventGroups are the registry's types grouped by the area whose
// operations need their scope, in operations.Areas order; a type no
// operation's scope matches goes last, under "Other events".
var eventGroups = sync.OnceValue(func() []eventGroup {
	areaOf := map[string]string{}
	for _, area := range operations.Areas {
		for _, op := range operations.OfArea(area) {
			for _, s := range []string{op.Scope, strings.TrimSuffix(op.Scope, ".write") + ".readonly"} {
				if _, ok := areaOf[s]; !ok {
					areaOf[s] = area
				}
			}
		}
	}
	byArea := map[string][]eventChoice{}
	for i, t := range events.Registry {
		if !slices.Contains(events.EndpointTypes(), t.Name) {
			continue // no account's endpoint receives it
		}
		area := areaOf[t.Scope]
		byArea[area] = append(byArea[area], eventChoice{ID: fmt.Sprintf("event-%d", i+1), Name: t.Name, Scope: t.Scope, Summary: t.Summary})
	}
	var groups []eventGroup
	for _, area := range append(operations.Areas[:len(operations.Areas):len(operations.Areas)], "") {
		if types := byArea[area]; len(types) > 0 {
			title := "Other events"
			if area != "" {
				title = areaTitle(area)
			}
			groups = append(groups, eventGroup{Title: title, Types: types})
		}
	}
	return groups
})

// List page notices, by the code a redirect names.
var hookNotices = map[string]string{
	"added":     "The endpoint %s is added: the account's events of the chosen types are sent to it from now on.",
	"saved":     "The endpoint %s is saved.",
	"unchanged": "The endpoint %s already had these settings: nothing was changed.",
	"enabled":   "The endpoint %s is enabled: events are sent to it again. Failed deliveries are not sent again by themselves: redeliver them from its deliveries.",
	"disabled":  "The endpoint %s is disabled: no event is sent to it until it is enabled.",
	"rotated":   "The endpoint %s has a new signing secret: its receiver verifies webhook-signature with it from now on.",
}

type webhooksData struct {
	Rows []hookRow
	// Full: the account has MaxPerAccount endpoints, so none can be added.
	Full bool
	Max  int
	// Verify is how a receiver checks a delivery (signatures.go).
	Verify verifying
}

func (p *Portal) webhooksPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	list, err := p.endpoints.List(r.Context(), v.account.ID)
	if err != nil {
		return err
	}
	verify, err := p.verifying(r)
	if err != nil {
		return err
	}
	data := webhooksData{Full: len(list) >= endpoints.MaxPerAccount, Max: endpoints.MaxPerAccount, Verify: verify}
	// Each endpoint's health is a query of its own: up to MaxPerAccount of
	// them, made together rather than one after another.
	data.Rows = make([]hookRow, len(list))
	g, ctx := errgroup.WithContext(r.Context())
	for i, e := range list {
		g.Go(func() error {
			row, err := p.withHealth(ctx, p.newHookRow(e))
			if err != nil {
				return err
			}
			if until := clock.Parse(e.PreviousSecretUntil); until.After(p.clock.Now()) {
				row.PreviousUntil = formatMinute(until)
			}
			data.Rows[i] = row
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	view := &view{Title: "Webhooks", Person: v.person, CSRF: v.session.CSRF, Account: v.account, Data: data}
	q := r.URL.Query()
	if format, ok := hookNotices[q.Get("notice")]; ok {
		for _, e := range list {
			if e.ID == q.Get("webhook") {
				view.Notice = fmt.Sprintf(format, e.URL)
			}
		}
	}
	if q.Get("notice") == "removed" {
		view.Notice = "The endpoint is removed: nothing more is sent to it. Its deliveries are kept until they expire (" + clock.Span(events.Lifetime) + ")."
	}
	p.render(w, http.StatusOK, "webhooks", view)
	return nil
}

// hookFormData is the add or edit form of an endpoint.
type hookFormData struct {
	// Row is the endpoint edited; nil when adding one.
	Row              *hookRow
	URL, Description string
	Checked          map[string]bool
	Enabled          bool
	Groups           []eventGroup
	MaxDesc, MaxURL  int
}

func newHookForm(row *hookRow, url, description string, events []string, enabled bool) hookFormData {
	checked := map[string]bool{}
	for _, e := range events {
		checked[e] = true
	}
	return hookFormData{Row: row, URL: clip(url, endpoints.MaxURL), Description: clip(description, endpoints.MaxDescription),
		Checked: checked, Enabled: enabled, Groups: eventGroups(), MaxDesc: endpoints.MaxDescription, MaxURL: endpoints.MaxURL}
}

func (p *Portal) hookFormView(v *visit, data hookFormData) *view {
	title := "Add a webhook endpoint"
	if data.Row != nil {
		title = "Edit webhook endpoint"
	}
	return &view{Title: title, Person: v.person, CSRF: v.session.CSRF, Account: v.account, Data: data}
}

func (p *Portal) newHookPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	p.render(w, http.StatusOK, "webhook-form", p.hookFormView(v, newHookForm(nil, "", "", nil, true)))
	return nil
}

// hookInput reads the add or edit form.
func hookInput(r *http.Request) (url, description string, events []string, enabled bool) {
	return strings.TrimSpace(r.PostFormValue("url")), strings.TrimSpace(r.PostFormValue("description")),
		r.PostForm["event"], r.PostFormValue("enabled") == "on"
}

// hookProblems are the store's refusal as the form shows it: each rule
// beside the field it is about; nil when err is not a refusal of the input.
func hookProblems(err error) []fieldProblem {
	if errors.Is(err, endpoints.ErrTooMany) {
		return []fieldProblem{{Message: err.Error() + "."}}
	}
	a, ok := apierror.As(err)
	if !ok || a.Code != apierror.CodeValidation {
		return nil
	}
	var out []fieldProblem
	for _, msg := range a.Violations {
		field := "events"
		switch {
		case strings.HasPrefix(msg, "url "):
			field = "url"
		case strings.HasPrefix(msg, "description "):
			field = "description"
		}
		// The store's messages name its fields; the form's say it in words.
		if rest, ok := strings.CutPrefix(msg, "url "); ok {
			msg = "The URL is refused: " + rest
			if strings.HasPrefix(rest, "must ") || strings.HasPrefix(rest, "is ") {
				msg = "The URL " + rest
			}
		}
		// The form lists the types: no need to point at docs/events.md.
		msg = strings.Replace(msg, "events must name at least one event type", "choose at least one event type", 1)
		msg = strings.TrimSuffix(msg, " (docs/events.md lists them)")
		out = append(out, fieldProblem{field, strings.ToUpper(msg[:1]) + msg[1:] + "."})
	}
	return out
}

func (p *Portal) addHook(w http.ResponseWriter, r *http.Request, v *visit) error {
	u, description, events, enabled := hookInput(r)
	e, err := p.endpoints.Add(r.Context(), v.account.ID, endpoints.Input{URL: &u, Description: &description, Events: &events, Enabled: &enabled}, actor(v))
	if problems := hookProblems(err); problems != nil {
		p.render(w, http.StatusUnprocessableEntity, "webhook-form", p.hookFormView(v, newHookForm(nil, u, description, events, enabled)).withProblems(problems))
		return nil
	}
	if err != nil {
		return err
	}
	return p.revealSecret(r, v, e, "added")
}

// accountHook is the path's endpoint of the visit's account: another
// account's endpoint is no such endpoint.
func (p *Portal) accountHook(r *http.Request, v *visit) (hookRow, error) {
	e, err := p.endpoints.Get(r.Context(), v.account.ID, r.PathValue("webhook"))
	if errors.Is(err, endpoints.ErrNoEndpoint) {
		return hookRow{}, hookNotFound(v.account.ID)
	}
	return p.newHookRow(e), err
}

func (p *Portal) editHookPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountHook(r, v)
	if err != nil {
		return err
	}
	p.render(w, http.StatusOK, "webhook-form", p.hookFormView(v, newHookForm(&row, row.URL, row.Description, row.Events, row.Enabled)))
	return nil
}

func (p *Portal) editHook(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountHook(r, v)
	if err != nil {
		return err
	}
	u, description, events, enabled := hookInput(r)
	changed, err := p.endpoints.Update(r.Context(), v.account.ID, row.ID, endpoints.Input{URL: &u, Description: &description, Events: &events, Enabled: &enabled}, actor(v))
	if problems := hookProblems(err); problems != nil {
		p.render(w, http.StatusUnprocessableEntity, "webhook-form", p.hookFormView(v, newHookForm(&row, u, description, events, enabled)).withProblems(problems))
		return nil
	}
	return p.afterUpdate(v, row, changed, err, "saved")
}

// afterUpdate answers an update of before: the list with its notice, or
// "unchanged" when the endpoint already was as asked (the store then
// answers it as it was, writing nothing).
func (p *Portal) afterUpdate(v *visit, before hookRow, changed endpoints.Endpoint, err error, notice string) error {
	switch {
	case errors.Is(err, endpoints.ErrNoEndpoint):
		return hookNotFound(v.account.ID)
	case err != nil:
		return err
	case changed.URL == before.URL && changed.Description == before.Description &&
		slices.Equal(changed.Events, before.Events) && changed.Enabled == before.Enabled:
		notice = "unchanged"
	}
	return redirect{hooksPath(v.account.ID) + "?notice=" + notice + "&webhook=" + before.ID}
}

// setHookState enables or disables the path's endpoint (the list's
// buttons).
func (p *Portal) setHookState(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountHook(r, v)
	if err != nil {
		return err
	}
	var enabled bool
	switch r.PostFormValue("enabled") {
	case "true":
		enabled = true
	case "false":
	default:
		return errBadForm
	}
	changed, err := p.endpoints.Update(r.Context(), v.account.ID, row.ID, endpoints.Input{Enabled: &enabled}, actor(v))
	return p.afterUpdate(v, row, changed, err, map[bool]string{true: "enabled", false: "disabled"}[enabled])
}

func (p *Portal) removeHookPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountHook(r, v)
	if err != nil {
		return err
	}
	p.render(w, http.StatusOK, "webhook-remove", &view{Title: "Remove webhook endpoint", Person: v.person, CSRF: v.session.CSRF, Account: v.account, Data: row})
	return nil
}

func (p *Portal) removeHook(w http.ResponseWriter, r *http.Request, v *visit) error {
	err := p.endpoints.Remove(r.Context(), v.account.ID, r.PathValue("webhook"), actor(v))
	if errors.Is(err, endpoints.ErrNoEndpoint) {
		return hookNotFound(v.account.ID)
	}
	if err != nil {
		return err
	}
	return redirect{hooksPath(v.account.ID) + "?notice=removed"}
}

// deliveryRow is one delivery as the deliveries page shows it.
type deliveryRow struct {
	deliveries.Delivery
	// Answer is the last attempt's: the receiver's status code, or the
	// error ("" before the first attempt).
	Answer string
	// Redeliverable: delivered or failed (a pending one is still being
	// delivered). Retryable: pending, tried, and not due yet ("Retry
	// now").
	Redeliverable, Retryable bool
}

func newDeliveryRow(d deliveries.Delivery, now time.Time) deliveryRow {
	row := deliveryRow{Delivery: d, Redeliverable: d.Status != deliveries.Pending,
		Retryable: d.Status == deliveries.Pending && len(d.Attempts) > 0 && d.NextAt > clock.Timestamp(now)}
	if n := len(d.Attempts); n > 0 {
		row.Answer = answerOf(d.Attempts[n-1])
	}
	return row
}

// answerOf is what attempt a's receiver answered: its status code, or the
// error ("" for no attempt).
func answerOf(a deliveries.Attempt) string {
	switch {
	case a.Status != 0:
		answer := strconv.Itoa(a.Status) + " " + http.StatusText(a.Status)
		if a.RetryAfter > 0 {
			answer += fmt.Sprintf(" (Retry-After %d s)", a.RetryAfter)
		}
		return answer
	default:
		return a.Error
	}
}

type deliveriesData struct {
	Hook        hookRow
	Rows        []deliveryRow
	Status      deliveries.State // the filter as given
	Statuses    []deliveries.State
	Next, First string // the older page's and the newest page's links
	// Since is the redelivery form's time, as its field takes it.
	Since string
}

// deliveryNotices are the deliveries page's notices, by the code a
// redirect names.
var deliveryNotices = map[string]string{
	"redelivered": "The delivery %s is queued again: the next attempt is within a minute, and its attempts so far are kept.",
	"retried":     "The delivery %s is due now: its next attempt is within a minute, and its attempts so far and its end are kept.",
}

func (p *Portal) deliveriesPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountHook(r, v)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	since := time.Time{}
	if s, err := time.Parse(sinceLayout, q.Get("since")); err == nil {
		since = s
	}
	view, err := p.deliveriesView(r, v, row, q.Get("status"), q.Get("before"), since)
	if err != nil {
		return err
	}
	switch notice := q.Get("notice"); {
	case (notice == "redelivered" || notice == "retried") && validate.IDProblem("event", q.Get("event")) == "":
		view.Notice = fmt.Sprintf(deliveryNotices[notice], q.Get("event"))
	case notice == "tested" && validate.IDProblem("event", q.Get("event")) == "":
		view.Notice = p.testNotice(r.Context(), v.account.ID, row.ID, q.Get("event"))
	case notice == "requeued" && !since.IsZero():
		n, _ := strconv.Atoi(q.Get("count"))
		switch n {
		case 0:
			view.Notice = fmt.Sprintf("No delivery failed since %s: nothing was queued.", formatMinute(since))
		case 1:
			view.Notice = fmt.Sprintf("1 failed delivery since %s is queued again: the next attempt is within a minute.", formatMinute(since))
		default:
			view.Notice = fmt.Sprintf("%d failed deliveries since %s are queued again: the next attempts are within a minute.", n, formatMinute(since))
		}
		if left, _ := strconv.Atoi(q.Get("left")); left > 0 {
			if until, err := time.Parse(sinceLayout, q.Get("until")); err == nil {
				view.Notice += fmt.Sprintf(" %d more stay failed: an endpoint's deliveries are sent again at most %d times an hour, so redeliver them after %s.", left, deliveries.RedeliverPerHour, until.UTC().Format("15:04 UTC"))
			} else {
				view.Notice += fmt.Sprintf(" %d more stay failed: one redelivery sends at most %d, the oldest first, so redeliver again for the next.", left, deliveries.RedeliverPerRequest)
			}
		}
	}
	p.render(w, http.StatusOK, "webhook-deliveries", view)
	return nil
}

// deliveriesView is the deliveries page of row: a page of deliveries in
// status, older than before; since is the redelivery form's time (zero:
// where the endpoint's failures began, or a week ago).
func (p *Portal) deliveriesView(r *http.Request, v *visit, row hookRow, status, before string, since time.Time) (*view, error) {
	state := deliveries.State(status)
	statuses := []deliveries.State{deliveries.Failed, deliveries.Pending, deliveries.Delivered}
	if state != "" && !slices.Contains(statuses, state) {
		return nil, errBadFilter
	}
	found, next, err := p.endpoints.Deliveries(r.Context(), v.account.ID, row.ID, state, deliveriesPageSize, before)
	if errors.Is(err, deliveries.ErrBadCursor) {
		return nil, errBadFilter
	}
	if err != nil {
		return nil, err
	}
	if row, err = p.withHealth(r.Context(), row); err != nil {
		return nil, err
	}
	data := deliveriesData{Hook: row, Status: state, Statuses: statuses}
	for _, d := range found {
		data.Rows = append(data.Rows, newDeliveryRow(d, p.clock.Now()))
	}
	link := func(before string) string {
		return listLink(hooksPath(v.account.ID)+"/"+row.ID+"/deliveries", map[string]string{"status": status, "before": before})
	}
	if next != "" {
		data.Next = link(next)
	}
	if before != "" {
		data.First = link("")
	}
	switch {
	case !since.IsZero():
		data.Since = since.UTC().Format(sinceLayout)
	case row.Since != "":
		data.Since = row.Since
	default:
		data.Since = p.clock.Now().Add(-7 * 24 * time.Hour).UTC().Format(sinceLayout)
	}
	return &view{Title: "Deliveries", Person: v.person, CSRF: v.session.CSRF, Account: v.account, Data: &data}, nil
}

// redeliver queues one delivery of the path's endpoint again.
func (p *Portal) redeliver(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountHook(r, v)
	if err != nil {
		return err
	}
	event := r.PostFormValue("event")
	_, err = p.endpoints.Redeliver(r.Context(), v.account.ID, row.ID, deliveries.Redelivery{Event: event}, actor(v))
	back := hooksPath(v.account.ID) + "/" + row.ID + "/deliveries"
	switch {
	case errors.Is(err, endpoints.ErrNoEndpoint):
		return hookNotFound(v.account.ID)
	case errors.Is(err, deliveries.ErrNoDelivery):
		return &pageError{Status: http.StatusNotFound, Title: "No such delivery",
			Message: "This endpoint has no delivery with that id (deliveries are kept " + clock.Span(events.Lifetime) + "), so nothing was queued.", Back: back, BackLabel: "Back to its deliveries"}
	case errors.Is(err, deliveries.ErrNotRedeliverable):
		return &pageError{Status: http.StatusConflict, Title: "This delivery is still being attempted",
			Message: "A pending delivery is tried again on its own until it is delivered or its " + clock.Span(p.schedule.GiveUp) + " of retries end; it is not queued twice. Nothing was changed.", Back: back, BackLabel: "Back to its deliveries"}
	case err != nil:
		if page := hourFull(err, back); page != nil {
			return page
		}
		return err
	}
	return redirect{back + "?notice=redelivered&event=" + url.QueryEscape(event)}
}

// testWait is how long "Send test event" waits for the test's attempt
// before it shows the page (the request's deadline allowing): a local
// deliverer looks every 2 s, a deployed sweep every minute.
const testWait = 6 * time.Second

// sendTest sends a test event to the path's endpoint and shows its result
// on the endpoint's deliveries page.
func (p *Portal) sendTest(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountHook(r, v)
	if err != nil {
		return err
	}
	wait := testWait
	if deadline, ok := r.Context().Deadline(); ok {
		wait = min(wait, time.Until(deadline)-2*time.Second)
	}
	d, err := p.endpoints.SendTest(r.Context(), v.account.ID, row.ID, wait)
	back := hooksPath(v.account.ID) + "/" + row.ID + "/deliveries"
	switch {
	case errors.Is(err, endpoints.ErrNoEndpoint):
		return hookNotFound(v.account.ID)
	case errors.Is(err, endpoints.ErrDisabledTest):
		return &pageError{Status: http.StatusConflict, Title: "This endpoint is disabled",
			Message: "A test event is not sent to a disabled endpoint. Enable it on the webhooks page first; nothing was sent.", Back: back, BackLabel: "Back to its deliveries"}
	case err != nil:
		return err
	}
	return redirect{back + "?notice=tested&event=" + url.QueryEscape(d.ID)}
}

// testNotice says what became of the test event id, from its delivery.
func (p *Portal) testNotice(ctx context.Context, accountID, hookID, id string) string {
	d, err := p.endpoints.Delivery(ctx, accountID, hookID, id)
	if err != nil {
		return ""
	}
	switch {
	case d.Status == deliveries.Delivered:
		return fmt.Sprintf("The test event %s was delivered: the receiver answered %s.", id, answerOf(d.Attempts[len(d.Attempts)-1]))
	case d.Status == deliveries.Failed && len(d.Attempts) > 0:
		return fmt.Sprintf("The test event %s failed: %s. Fix the receiver, then send another.", id, answerOf(d.Attempts[len(d.Attempts)-1]))
	default:
		return fmt.Sprintf("The test event %s is sent within a minute (the deliverer's next look): reload this page for its answer.", id)
	}
}

// retry makes one pending delivery of the path's endpoint due now ("Retry
// now").
func (p *Portal) retry(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountHook(r, v)
	if err != nil {
		return err
	}
	event := r.PostFormValue("event")
	err = p.endpoints.Retry(r.Context(), v.account.ID, row.ID, event, actor(v))
	back := hooksPath(v.account.ID) + "/" + row.ID + "/deliveries"
	switch {
	case errors.Is(err, endpoints.ErrNoEndpoint):
		return hookNotFound(v.account.ID)
	case errors.Is(err, deliveries.ErrNoDelivery):
		return &pageError{Status: http.StatusNotFound, Title: "No such delivery",
			Message: "This endpoint has no delivery with that id (deliveries are kept " + clock.Span(events.Lifetime) + "), so nothing was retried.", Back: back, BackLabel: "Back to its deliveries"}
	case errors.Is(err, deliveries.ErrNotPending):
		return &pageError{Status: http.StatusConflict, Title: "This delivery has ended",
			Message: "It was delivered or it failed, so it is not retried: redeliver it to send it again. Nothing was changed.", Back: back, BackLabel: "Back to its deliveries"}
	case errors.Is(err, deliveries.ErrBeingAttempted):
		return &pageError{Status: http.StatusConflict, Title: "This delivery is being attempted right now",
			Message: "Its answer is recorded within a minute; retry it then if it failed. Nothing was changed.", Back: back, BackLabel: "Back to its deliveries"}
	case err != nil:
		if page := hourFull(err, back); page != nil {
			return page
		}
		return err
	}
	return redirect{back + "?notice=retried&event=" + url.QueryEscape(event)}
}

// redeliverFailed queues every failed delivery of the path's endpoint made
// since the form's time again.
func (p *Portal) redeliverFailed(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountHook(r, v)
	if err != nil {
		return err
	}
	raw := strings.TrimSpace(r.PostFormValue("since"))
	since, perr := time.Parse(sinceLayout, raw)
	if perr != nil {
		since, perr = time.Parse(sinceLayout+":05", raw)
	}
	if perr != nil || since.After(p.clock.Now()) {
		msg := "Give the date and time (UTC) the failed deliveries to send again were made since, such as 2026-06-15T12:00."
		if perr == nil {
			msg = "The time is in the future: no delivery was made since then. Give a time in the past."
		}
		view, err := p.deliveriesView(r, v, row, "", "", time.Time{})
		if err != nil {
			return err
		}
		view.Data.(*deliveriesData).Since = clip(raw, 40)
		p.render(w, http.StatusUnprocessableEntity, "webhook-deliveries", view.withProblems([]fieldProblem{{"since", msg}}))
		return nil
	}
	done, err := p.endpoints.Redeliver(r.Context(), v.account.ID, row.ID, deliveries.Redelivery{FailedSince: since}, actor(v))
	back := hooksPath(v.account.ID) + "/" + row.ID + "/deliveries"
	if errors.Is(err, endpoints.ErrNoEndpoint) {
		return hookNotFound(v.account.ID)
	}
	if page := hourFull(err, back); page != nil {
		return page
	}
	if err != nil {
		return err
	}
	q := url.Values{"notice": {"requeued"}, "count": {strconv.Itoa(done.Queued)}, "since": {since.UTC().Format(sinceLayout)}}
	if done.Left > 0 {
		q.Set("left", strconv.Itoa(done.Left))
		if done.HourFull {
			q.Set("until", done.Until.UTC().Format(sinceLayout))
		}
	}
	return redirect{back + "?" + q.Encode()}
}

// hourFull is the page for a redelivery refused because the endpoint's
// deliveries were sent again deliveries.RedeliverPerHour times this hour
// (nil for any other err).
func hourFull(err error, back string) *pageError {
	var full *deliveries.HourLimitError
	if !errors.As(err, &full) {
		return nil
	}
	return &pageError{Status: http.StatusTooManyRequests, Title: "Too many redeliveries this hour",
		Message: fmt.Sprintf("This endpoint's deliveries were sent again %d times this hour, the most an hour allows, so nothing was queued. Redeliver again after %s.",
			deliveries.RedeliverPerHour, full.Until.UTC().Format("15:04 UTC")),
		Back: back, BackLabel: "Back to its deliveries"}
}

func hooksPath(accountID string) string { return accountPath(accountID) + "/webhooks" }

// hookNotFound is the answer for an endpoint id the account does not have:
// another account's endpoint looks exactly like one that does not exist.
func hookNotFound(accountID string) *pageError {
	return &pageError{Status: http.StatusNotFound, Title: "No such webhook endpoint",
		Message: "This account has no webhook endpoint with that id, so nothing was changed.",
		Back:    hooksPath(accountID), BackLabel: "Back to webhooks"}
}
