package deliveries

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// Receiver is who an event can be delivered to: a marketplace app
// installed in the event's account (or, for a company's event, for its
// company), or one of the account's own webhook endpoints.
type Receiver struct {
	// ID is the app's or the endpoint's id: its deliveries' partition.
	ID string
	// URL is where its deliveries go (an endpoint's is read again at each
	// attempt: the deliverer's).
	URL string
	// Types are the event types it chose.
	Types []string
	// App says the receiver is an app, which receives an event its
	// install's Scopes read, with its appId added to the body; else it is
	// the endpoint of AccountID, its account admins' own, which receives
	// every type it chose of its account.
	App       bool
	Scopes    []string
	AccountID string
	// Failing says its attempts fail lately: FanOut makes its deliveries
	// due now, unclaimed, for the sweep, rather than claimed for an
	// attempt by the run handing the event on, whose other receivers its
	// timeouts would hold up.
	Failing bool
}

// takes reports whether r receives ev.
func (r Receiver) takes(ev events.Recorded) bool {
	if !slices.Contains(r.Types, ev.Type) {
		return false
	}
	if r.App {
		return events.Readable(r.Scopes, ev.Scope)
	}
	return r.AccountID != "" && r.AccountID == ev.Owner.LocationID
}

// body is ev's body as sent to r: an app's names the app, its appId added
// last (the official SDK's WebhookManager handles only a webhook naming
// its app), unless it names it already (a routed event's); an endpoint's
// is the event's, unchanged.
func (r Receiver) body(ev events.Recorded) string {
	if !r.App || ev.Route != nil {
		return ev.Body
	}
	id, _ := events.Marshal(r.ID) // a string: cannot fail
	return strings.TrimSuffix(ev.Body, "}") + `,"appId":` + string(id) + "}"
}

// delivery is ev's delivery to r.
func (r Receiver) delivery(ev events.Recorded) Delivery {
	// Made when its event was: its age, and its GiveUp, count from the
	// change, however long the event waited to be handed on.
	d := Delivery{ID: ev.ID, Type: ev.Type, URL: r.URL, Body: r.body(ev), Source: ev.Owner.PK(), CreatedAt: ev.CreatedAt}
	if r.App {
		d.AppID = r.ID
	} else {
		d.EndpointID, d.AccountID = r.ID, r.AccountID
	}
	return d
}

// routedTo is a routed event's one receiver: its app, when it has a
// webhook URL; failing as the caller's receivers say it is.
func routedTo(route events.Route, given []Receiver) []Receiver {
	if route.URL == "" {
		return nil
	}
	r := Receiver{ID: route.AppID, URL: route.URL, App: true}
	for _, g := range given {
		r.Failing = r.Failing || g.ID == route.AppID && g.Failing
	}
	return []Receiver{r}
}

// FanOut hands ev to every receiver of receivers that takes it (a routed
// event: to its route alone), one delivery each, then takes ev out of the
// fan-out index with its counts. A delivery's key is made of ev's, so a
// fan-out run again adds nothing twice. Each is claimed by the caller
// until leasedUntil for its first attempt (zero, or a Failing receiver:
// due now; see Claimed). It returns the deliveries it added (those a run
// before added are not). A routed event's receivers are its route's
// alone: receivers only say whether its app is failing.
func FanOut(ctx context.Context, table *storage.Table, receivers []Receiver, ev events.Recorded, now, leasedUntil time.Time) ([]Item, error) {
	if ev.Route != nil {
		receivers = routedTo(*ev.Route, receivers)
	}
	var added []Item
	took := 0
	for _, r := range receivers {
		if ev.Route == nil && !r.takes(ev) {
			continue
		}
		took++
		lease := leasedUntil
		if r.Failing {
			lease = time.Time{}
		}
		it := newItem(storage.Key{PK: PK(r.ID), SK: ev.Key().SK}, r.delivery(ev), now, lease)
		err := table.Put(ctx, it, storage.ItemAbsent())
		if storage.IsConditionFailed(err) {
			continue // a run before added it
		}
		if err != nil {
			return added, err
		}
		added = append(added, it)
	}
	// An event gone meanwhile (its TTL), or handed on by another run, has
	// nothing left to count.
	if err := handedOn(ctx, table, ev.Key(), took); err != nil && !storage.IsConditionFailed(err) {
		return added, err
	}
	return added, nil
}
