package marketplace

import (
	"context"
	"slices"
	"time"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// FanOut hands an account's event to every app that receives it: installed
// in the account, with a webhook URL, having chosen the event's type, and
// installed with a scope that reads it. Each gets its own webhook event
// (delivered, retried and recorded like INSTALL), under a key made of the
// event's, so a fan-out run again after a crash adds nothing twice. It
// returns how many apps received the event.
func FanOut(ctx context.Context, table *storage.Table, ev events.Recorded, now time.Time) (int, error) {
	installs, err := storage.QueryPartition[installItem](ctx, table, storage.AccountPK(ev.Owner.LocationID), "INSTALL#")
	if err != nil {
		return 0, err
	}
	handed := 0
	for _, inst := range installs {
		if !inst.Installed() || !events.Readable(inst.Scopes, ev.Scope) {
			continue
		}
		app, err := storage.Get[appItem](ctx, table, appKey(inst.AppID))
		if err != nil {
			return handed, err
		}
		if app == nil || app.WebhookURL == "" || !slices.Contains(app.Events, ev.Type) {
			continue
		}
		key := storage.Key{PK: EventsPK(app.ID), SK: ev.Key().SK}
		err = table.Put(ctx, EventItem{
			Key: key, GSI1PK: DueIndexPK, GSI1SK: DueSK(now, key),
			Event: Event{
				ID: ev.ID, AppID: app.ID, Type: ev.Type, URL: app.WebhookURL, Body: events.ForApp(ev.Body, app.ID),
				CreatedAt: now.UTC().Format(time.RFC3339Nano), Status: DeliveryPending,
				NextAt: now.UTC().Format(time.RFC3339Nano), Attempts: []Attempt{},
			},
		}, storage.ItemAbsent())
		if err != nil && !storage.IsConditionFailed(err) {
			return handed, err
		}
		handed++
	}
	return handed, nil
}
