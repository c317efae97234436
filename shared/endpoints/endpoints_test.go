package endpoints_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage"
)

const acct = "acctHooks"

var admin = auth.Actor{ID: "u1", Name: "Ada Admin"}

func newStore(t *testing.T) (*endpoints.Store, *testenv.Env) {
	env := testenv.New(t, []app.Area{testenv.PingArea})
	env.Account(t, acct, "coHooks")
	return endpoints.New(env.Table, env.Clock, false), env
}

func ptr[T any](v T) *T { return &v }

func TestAnEndpointIsAddedChangedAndRemovedEachWithItsAuditEntry(t *testing.T) {
	store, env := newStore(t)
	ctx := context.Background()

	added, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete", "TaskDelete"}}, admin)
	require.NoError(t, err)
	assert.Regexp(t, `^[0-9a-f]{24}$`, added.ID)
	assert.True(t, added.Enabled, "a new endpoint is enabled")
	assert.Equal(t, []string{"TaskDelete"}, added.Events, "a type named twice is kept once")

	env.Clock.Advance(time.Second)
	off, err := store.Update(ctx, acct, added.ID, endpoints.Input{Enabled: ptr(false)}, admin)
	require.NoError(t, err)
	assert.False(t, off.Enabled)
	assert.Equal(t, endpoints.DisabledByAdmin, off.DisabledReason)
	assert.False(t, off.Takes("TaskDelete"), "a disabled endpoint takes nothing")

	env.Clock.Advance(time.Second)
	on, err := store.Update(ctx, acct, added.ID, endpoints.Input{Enabled: ptr(true), Events: &[]string{"CouponDelete"}}, admin)
	require.NoError(t, err)
	assert.True(t, on.Takes("CouponDelete"))
	assert.Empty(t, on.DisabledReason, "enabling clears why it was off")

	env.Clock.Advance(time.Second)
	require.NoError(t, store.Remove(ctx, acct, added.ID, admin))
	assert.ErrorIs(t, store.Remove(ctx, acct, added.ID, admin), endpoints.ErrNoEndpoint)

	entries, err := env.Server.Tokens.Audit(ctx, acct, 10)
	require.NoError(t, err)
	var actions []string
	for _, e := range entries {
		actions = append(actions, e.Action)
		assert.Equal(t, admin, e.By)
		assert.Equal(t, added.ID, e.TokenID)
	}
	assert.Equal(t, []string{endpoints.AuditRemoved, endpoints.AuditUpdated, endpoints.AuditUpdated, endpoints.AuditAdded}, actions)
}

func TestAnEndpointThatBreaksARuleIsRefusedNamingIt(t *testing.T) {
	store, _ := newStore(t)
	for _, c := range []struct {
		name string
		in   endpoints.Input
		says string
	}{
		{"an http URL", endpoints.Input{URL: ptr("http://hooks.example.com/"), Events: &[]string{"TaskDelete"}}, "url"},
		{"a private host", endpoints.Input{URL: ptr("https://10.0.0.1/"), Events: &[]string{"TaskDelete"}}, "url"},
		{"no URL", endpoints.Input{Events: &[]string{"TaskDelete"}}, "url is required"},
		{"no event type", endpoints.Input{URL: ptr("https://hooks.example.com/"), Events: &[]string{}}, "events must name"},
		{"an unknown event type", endpoints.Input{URL: ptr("https://hooks.example.com/"), Events: &[]string{"TaskExplode"}}, `"TaskExplode" is not an event type`},
	} {
		t.Run(c.name+" is refused", func(t *testing.T) {
			_, err := store.Add(context.Background(), acct, c.in, admin)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.says)
		})
	}
}

func TestAnAccountHasAtMostTenEndpointsAndSeesOnlyItsOwn(t *testing.T) {
	store, env := newStore(t)
	ctx := context.Background()
	env.Account(t, "acctOther", "coHooks")
	var first endpoints.Endpoint
	for i := range endpoints.MaxPerAccount {
		e, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
		require.NoError(t, err)
		if i == 0 {
			first = e
		}
	}
	_, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
	assert.ErrorIs(t, err, endpoints.ErrTooMany)

	_, err = store.Get(ctx, "acctOther", first.ID)
	assert.ErrorIs(t, err, endpoints.ErrNoEndpoint, "another account's endpoint is not found")
	assert.ErrorIs(t, store.Remove(ctx, "acctOther", first.ID, admin), endpoints.ErrNoEndpoint)
	_, err = store.Update(ctx, "acctOther", first.ID, endpoints.Input{Enabled: ptr(false)}, admin)
	assert.ErrorIs(t, err, endpoints.ErrNoEndpoint)
	_, err = store.Get(ctx, acct, "../WEBHOOK#x")
	assert.ErrorIs(t, err, endpoints.ErrNoEndpoint, "a malformed id never enters a key")
}

// delivery writes a delivery of endpoint e in status, made at.
func delivery(t *testing.T, env *testenv.Env, e endpoints.Endpoint, id, status string, at time.Time) storage.Key {
	key := storage.Key{PK: marketplace.EventsPK(e.ID), SK: "EVENT#" + clock.Timestamp(at) + "#" + id}
	require.NoError(t, env.Table.Put(context.Background(), marketplace.EventItem{Key: key, Event: marketplace.Event{
		ID: id, EndpointID: e.ID, Type: "TaskDelete", URL: e.URL, Body: `{"type":"TaskDelete"}`,
		CreatedAt: clock.Timestamp(at), Status: status, Attempts: []marketplace.Attempt{{At: clock.Timestamp(at), Status: 500}},
	}}, nil))
	return key
}

func TestFailedDeliveriesSinceATimeAreDueAgainKeepingTheirAttempts(t *testing.T) {
	store, env := newStore(t)
	ctx := context.Background()
	e, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
	require.NoError(t, err)
	now := env.Clock.Now()
	old := delivery(t, env, e, "a00000000000000000000001", marketplace.DeliveryFailed, now.Add(-48*time.Hour))
	recent := delivery(t, env, e, "a00000000000000000000002", marketplace.DeliveryFailed, now.Add(-time.Hour))
	done := delivery(t, env, e, "a00000000000000000000003", marketplace.DeliveryDelivered, now.Add(-time.Hour))

	n, err := store.RedeliverFailed(ctx, acct, e.ID, now.Add(-24*time.Hour), admin)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "only the failed delivery since the time")
	for key, want := range map[storage.Key]string{old: marketplace.DeliveryFailed, recent: marketplace.DeliveryPending, done: marketplace.DeliveryDelivered} {
		it, err := storage.Get[marketplace.EventItem](ctx, env.Table, key)
		require.NoError(t, err)
		assert.Equal(t, want, it.Status, it.ID)
		assert.Len(t, it.Attempts, 1, "attempts are kept")
	}

	require.NoError(t, store.Redeliver(ctx, acct, e.ID, "a00000000000000000000003", admin), "a delivered event is sent again on request")
	assert.ErrorIs(t, store.Redeliver(ctx, acct, e.ID, "a00000000000000000000002", admin), marketplace.ErrNotRedeliverable,
		"one still being delivered is not queued twice")
	assert.ErrorIs(t, store.Redeliver(ctx, acct, e.ID, "a00000000000000000000009", admin), endpoints.ErrNoEvent)

	page, cursor, err := store.DeliveriesPage(ctx, acct, e.ID, "", 2, "")
	require.NoError(t, err)
	require.Len(t, page, 2)
	assert.NotEmpty(t, cursor)
	rest, cursor, err := store.DeliveriesPage(ctx, acct, e.ID, "", 2, cursor)
	require.NoError(t, err)
	assert.Len(t, rest, 1, "the cursor resumes after the first page")
	assert.Empty(t, cursor)
	failedOnly, _, err := store.DeliveriesPage(ctx, acct, e.ID, marketplace.DeliveryFailed, 10, "")
	require.NoError(t, err)
	require.Len(t, failedOnly, 1)
	assert.Equal(t, "a00000000000000000000001", failedOnly[0].ID)
}

func TestAnOldDeliveryIsFoundForRedeliveryPastTheNewestPage(t *testing.T) {
	store, env := newStore(t)
	ctx := context.Background()
	e, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
	require.NoError(t, err)
	start := env.Clock.Now().Add(-10 * 24 * time.Hour)
	var items []any
	for i := range 450 { // more than two pages of Redeliver's reads
		at := start.Add(time.Duration(i) * time.Minute)
		key := storage.Key{PK: marketplace.EventsPK(e.ID), SK: "EVENT#" + clock.Timestamp(at) + "#" + fmt.Sprintf("b%023d", i)}
		items = append(items, marketplace.EventItem{Key: key, Event: marketplace.Event{
			ID: fmt.Sprintf("b%023d", i), EndpointID: e.ID, Type: "TaskDelete", URL: e.URL, Body: `{}`,
			CreatedAt: clock.Timestamp(at), Status: marketplace.DeliveryFailed, Attempts: []marketplace.Attempt{},
		}})
	}
	require.NoError(t, env.Table.BatchPut(ctx, items))

	require.NoError(t, store.Redeliver(ctx, acct, e.ID, fmt.Sprintf("b%023d", 0), admin), "the oldest, three pages back")
	oldest, err := storage.Get[marketplace.EventItem](ctx, env.Table, items[0].(marketplace.EventItem).Key)
	require.NoError(t, err)
	assert.Equal(t, marketplace.DeliveryPending, oldest.Status, "due again")
	newest, err := storage.Get[marketplace.EventItem](ctx, env.Table, items[len(items)-1].(marketplace.EventItem).Key)
	require.NoError(t, err)
	assert.Equal(t, marketplace.DeliveryFailed, newest.Status, "no other")
}
