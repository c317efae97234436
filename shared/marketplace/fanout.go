package marketplace

import (
	"context"
	"slices"
	"time"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// Receiver is an app installed in an account (or a company), as its
// events reach it.
type Receiver struct {
	App App
	// Scopes are the install's.
	Scopes []string
}

// ReceiversOf returns the apps installed in the account that have a
// webhook URL and chose at least one event type.
func ReceiversOf(ctx context.Context, table *storage.Table, accountID string) ([]Receiver, error) {
	return receiversIn(ctx, table, storage.AccountPK(accountID))
}

// ReceiversOfCompany returns the apps installed for the company (target
// company) that have a webhook URL and chose at least one event type: the
// receivers of its company events (UserCreate).
func ReceiversOfCompany(ctx context.Context, table *storage.Table, companyID string) ([]Receiver, error) {
	return receiversIn(ctx, table, storage.CompanyPK(companyID))
}

// receiversIn reads the installs kept in the owner's partition pk.
func receiversIn(ctx context.Context, table *storage.Table, pk string) ([]Receiver, error) {
	installs, err := storage.QueryPartition[installItem](ctx, table, pk, "INSTALL#")
	if err != nil {
		return nil, err
	}
	var out []Receiver
	for _, inst := range installs {
		if !inst.Installed() {
			continue
		}
		app, err := storage.Get[appItem](ctx, table, appKey(inst.AppID))
		if err != nil {
			return nil, err
		}
		if app != nil && app.WebhookURL != "" && len(app.Events) > 0 {
			out = append(out, Receiver{App: app.App, Scopes: inst.Scopes})
		}
	}
	return out, nil
}

// FanOut hands an account's or company's event to every receiver
// (ReceiversOf its account, ReceiversOfCompany its company) that chose its type and whose install reads its scope: each gets
// its own webhook event (delivered, retried and recorded like INSTALL),
// under a key made of the event's, so a fan-out run again adds nothing
// twice. Each is leased to the caller until leasedUntil for its first
// attempt (Pending; zero: due now). It returns the deliveries it added,
// and how many receivers take the event (those a run before added too).
func FanOut(ctx context.Context, table *storage.Table, receivers []Receiver, ev events.Recorded, now, leasedUntil time.Time) ([]EventItem, int, error) {
	var added []EventItem
	took := 0
	for _, r := range receivers {
		if !slices.Contains(r.App.Events, ev.Type) || !events.Readable(r.Scopes, ev.Scope) {
			continue
		}
		took++
		key := storage.Key{PK: EventsPK(r.App.ID), SK: ev.Key().SK}
		e := Event{ID: ev.ID, AppID: r.App.ID, Type: ev.Type, URL: r.App.WebhookURL, Body: events.ForApp(ev.Body, r.App.ID), Source: ev.Owner.PK()}
		it := Pending(key, e, now, leasedUntil)
		err := table.Put(ctx, it, storage.ItemAbsent())
		if storage.IsConditionFailed(err) {
			continue // a run before added it
		}
		if err != nil {
			return added, took, err
		}
		added = append(added, it)
	}
	return added, took, nil
}
