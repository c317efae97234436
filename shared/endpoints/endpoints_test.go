package endpoints_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/storage"
)

const acct = "acctHooks"

var admin = auth.Actor{ID: "u1", Name: "Ada Admin"}

func newStore(t *testing.T) (*endpoints.Store, *testenv.Env) {
	env := testenv.New(t, []app.Area{testenv.PingArea})
	env.Account(t, acct, "coHooks")
	return endpoints.New(env.Table, env.Clock, false).Sealing(env.Deps.Secrets), env
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

func TestAddsSentTogetherKeepTheAccountToTenEndpoints(t *testing.T) {
	store, env := newStore(t)
	ctx := context.Background()
	const together = 25
	var (
		wg                    sync.WaitGroup
		added, refused, other atomic.Int32
	)
	for range together {
		wg.Go(func() {
			_, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
			switch {
			case err == nil:
				added.Add(1)
			case errors.Is(err, endpoints.ErrTooMany):
				refused.Add(1)
			default:
				other.Add(1)
				t.Errorf("an add failed otherwise: %v", err)
			}
		})
	}
	wg.Wait()
	list, err := store.List(ctx, acct)
	require.NoError(t, err)
	assert.Len(t, list, endpoints.MaxPerAccount, "no more endpoints than the limit, however many adds run at once")
	assert.Equal(t, int32(endpoints.MaxPerAccount), added.Load(), "each endpoint stored was answered as added")
	assert.Equal(t, int32(together-endpoints.MaxPerAccount), refused.Load(), "the others were refused for the limit")
	entries, err := env.Server.Tokens.Audit(ctx, acct, 100)
	require.NoError(t, err)
	assert.Len(t, entries, endpoints.MaxPerAccount, "one audit entry per endpoint added, none for a refused add")

	// Once one is removed, exactly one more fits.
	require.NoError(t, store.Remove(ctx, acct, list[0].ID, admin))
	_, err = store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/again"), Events: &[]string{"TaskDelete"}}, admin)
	require.NoError(t, err)
	_, err = store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/more"), Events: &[]string{"TaskDelete"}}, admin)
	assert.ErrorIs(t, err, endpoints.ErrTooMany)
}

// delivery writes a delivery of endpoint e in status, made at.
func delivery(t *testing.T, env *testenv.Env, e endpoints.Endpoint, id string, status deliveries.State, at time.Time) storage.Key {
	key := storage.Key{PK: deliveries.PK(e.ID), SK: "EVENT#" + clock.Timestamp(at) + "#" + id}
	require.NoError(t, env.Table.Put(context.Background(), deliveries.Item{Key: key, Delivery: deliveries.Delivery{
		ID: id, EndpointID: e.ID, Type: "TaskDelete", URL: e.URL, Body: `{"type":"TaskDelete"}`,
		CreatedAt: clock.Timestamp(at), Status: status, Attempts: []deliveries.Attempt{{At: clock.Timestamp(at), Status: 500}},
	}}, nil))
	return key
}

func TestFailedDeliveriesSinceATimeAreDueAgainKeepingTheirAttempts(t *testing.T) {
	store, env := newStore(t)
	ctx := context.Background()
	e, err := store.Add(ctx, acct, endpoints.Input{URL: ptr("https://hooks.example.com/in"), Events: &[]string{"TaskDelete"}}, admin)
	require.NoError(t, err)
	now := env.Clock.Now()
	old := delivery(t, env, e, "a00000000000000000000001", deliveries.Failed, now.Add(-48*time.Hour))
	recent := delivery(t, env, e, "a00000000000000000000002", deliveries.Failed, now.Add(-time.Hour))
	done := delivery(t, env, e, "a00000000000000000000003", deliveries.Delivered, now.Add(-time.Hour))

	n, err := store.Redeliver(ctx, acct, e.ID, deliveries.Redelivery{FailedSince: now.Add(-24 * time.Hour)}, admin)
	require.NoError(t, err)
	assert.Equal(t, 1, n.Queued, "only the failed delivery since the time")
	for key, want := range map[storage.Key]deliveries.State{old: deliveries.Failed, recent: deliveries.Pending, done: deliveries.Delivered} {
		it, err := storage.Get[deliveries.Item](ctx, env.Table, key)
		require.NoError(t, err)
		assert.Equal(t, want, it.Status, it.ID)
		assert.Len(t, it.Attempts, 1, "attempts are kept")
	}

	one := func(id string) error {
		_, err := store.Redeliver(ctx, acct, e.ID, deliveries.Redelivery{Event: id}, admin)
		return err
	}
	require.NoError(t, one("a00000000000000000000003"), "a delivered event is sent again on request")
	assert.ErrorIs(t, one("a00000000000000000000002"), deliveries.ErrNotRedeliverable, "one still being delivered is not queued twice")
	assert.ErrorIs(t, one("a00000000000000000000009"), deliveries.ErrNoDelivery)

	page, cursor, err := store.Deliveries(ctx, acct, e.ID, "", 2, "")
	require.NoError(t, err)
	require.Len(t, page, 2)
	assert.NotEmpty(t, cursor)
	rest, cursor, err := store.Deliveries(ctx, acct, e.ID, "", 2, cursor)
	require.NoError(t, err)
	assert.Len(t, rest, 1, "the cursor resumes after the first page")
	assert.Empty(t, cursor)
	failedOnly, _, err := store.Deliveries(ctx, acct, e.ID, deliveries.Failed, 10, "")
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
		key := storage.Key{PK: deliveries.PK(e.ID), SK: "EVENT#" + clock.Timestamp(at) + "#" + fmt.Sprintf("b%023d", i)}
		items = append(items, deliveries.Item{Key: key, Delivery: deliveries.Delivery{
			ID: fmt.Sprintf("b%023d", i), EndpointID: e.ID, Type: "TaskDelete", URL: e.URL, Body: `{}`,
			CreatedAt: clock.Timestamp(at), Status: deliveries.Failed, Attempts: []deliveries.Attempt{},
		}})
	}
	require.NoError(t, env.Table.BatchPut(ctx, items))

	_, err = store.Redeliver(ctx, acct, e.ID, deliveries.Redelivery{Event: fmt.Sprintf("b%023d", 0)}, admin)
	require.NoError(t, err, "the oldest, three pages back")
	oldest, err := storage.Get[deliveries.Item](ctx, env.Table, items[0].(deliveries.Item).Key)
	require.NoError(t, err)
	assert.Equal(t, deliveries.Pending, oldest.Status, "due again")
	newest, err := storage.Get[deliveries.Item](ctx, env.Table, items[len(items)-1].(deliveries.Item).Key)
	require.NoError(t, err)
	assert.Equal(t, deliveries.Failed, newest.Status, "no other")
}
