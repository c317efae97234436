package webhooks_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage"
)

// TestAnAccountEventsDeliveryStatusFollowsItsDeliveries follows three
// events through fan-out, delivery, failure and redelivery, as GET /events
// filters them by status: an event no receiver takes is unrouted, one every
// receiver took is delivered, one a receiver gave up on is failed until it
// is redelivered, and every event is pending before its fan-out.
func TestAnAccountEventsDeliveryStatusFollowsItsDeliveries(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	f.choose(t, f.app, "TaskDelete")
	f.app.Events = []string{"TaskDelete"}
	f.install(t, f.app, f.app.Scopes)

	down := &receiver{failures: 1_000_000}
	downSrv := httptest.NewServer(down)
	t.Cleanup(downSrv.Close)
	dead, _, err := f.apps.Create(ctx, marketplace.NewApp{CompanyID: "coHook", Name: "Down", RedirectURIs: []string{"https://down.example.com/cb"},
		Scopes: []string{"contacts.readonly"}, WebhookURL: downSrv.URL + "/hooks", Events: []string{"NoteDelete"}})
	require.NoError(t, err)
	f.install(t, dead, dead.Scopes)

	owner := events.Owner{LocationID: "acctHook"}
	written := []string{"TaskDelete", "NoteDelete", "CouponDelete"}
	for _, name := range written {
		tx := f.env.Table.Tx()
		events.Type{Name: name, Scope: "contacts.readonly", Version: 1, Fields: map[string]string{}}.
			Add(tx, owner, map[string]string{"id": "r1"}, f.env.Clock.Now())
		require.NoError(t, tx.Commit(ctx))
	}
	typesIn := func(state deliveries.State) []string {
		in := deliveries.EventIn(state)
		// The three events written (the apps' INSTALL events are the
		// account's too).
		page, _, err := events.Page(ctx, f.env.Table, owner, events.Filter{Types: written, Matching: &in}, 10, "")
		require.NoError(t, err)
		names := []string{}
		for _, e := range page {
			names = append(names, e.Type)
		}
		return names
	}
	assert.ElementsMatch(t, []string{"TaskDelete", "NoteDelete", "CouponDelete"}, typesIn(deliveries.Pending), "before the fan-out every event is pending")

	d := f.deliverer()
	_, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"TaskDelete"}, typesIn(deliveries.Delivered))
	assert.Equal(t, []string{"CouponDelete"}, typesIn(deliveries.Unrouted), "no app chose it")
	assert.Equal(t, []string{"NoteDelete"}, typesIn(deliveries.Pending), "its receiver is down: still being tried")
	assert.Empty(t, typesIn(deliveries.Failed))

	for range 40 {
		f.env.Clock.Advance(deliveries.MaxRetry)
		_, err = d.Sweep(ctx)
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"NoteDelete"}, typesIn(deliveries.Failed), "given up after 3 days")
	assert.Empty(t, typesIn(deliveries.Pending))

	key := deliveryKey(t, f, dead.ID, "NoteDelete")
	require.NoError(t, deliveries.Requeue(ctx, f.env.Table, key, f.env.Clock.Now()))
	assert.ErrorIs(t, deliveries.Requeue(ctx, f.env.Table, key, f.env.Clock.Now()), deliveries.ErrNotRedeliverable, "requeued once")
	assert.Equal(t, []string{"NoteDelete"}, typesIn(deliveries.Pending), "redelivered: pending again")
	assert.Empty(t, typesIn(deliveries.Failed))

	down.mu.Lock()
	down.failures = 0
	down.mu.Unlock()
	_, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"TaskDelete", "NoteDelete"}, typesIn(deliveries.Delivered), "the receiver is back")
}

// deliveryKey is the key of the delivery of typ to app.
func deliveryKey(t *testing.T, f *fixture, appID, typ string) storage.Key {
	t.Helper()
	items, err := storage.QueryPartition[deliveries.Item](context.Background(), f.env.Table, deliveries.PK(appID), "EVENT#")
	require.NoError(t, err)
	for _, it := range items {
		if it.Type == typ {
			return it.Key
		}
	}
	require.Failf(t, "no delivery", "app %s has no %s delivery", appID, typ)
	return storage.Key{}
}
