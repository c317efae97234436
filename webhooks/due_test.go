package webhooks_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/webhooks"
)

func TestDueDeliveriesSpreadOverTheIndexShardsAndARedeliveryReturnsToItsShard(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, e, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	v.answer = func(w http.ResponseWriter, _ *http.Request) bool {
		w.WriteHeader(http.StatusServiceUnavailable)
		return true
	}
	for i := range 40 {
		f.write(t, taskDelete, "acctHook", fmt.Sprint("t", i))
	}
	d := f.deliverer()
	_, err := d.FanOut(ctx)
	require.NoError(t, err)
	items, err := storage.QueryPartition[marketplace.EventItem](ctx, f.env.Table, marketplace.EventsPK(e.ID), "EVENT#")
	require.NoError(t, err)
	require.Len(t, items, 40)
	shards := map[string]int{}
	for _, it := range items {
		assert.Equal(t, marketplace.DuePK(it.Key), it.GSI1PK)
		shards[it.GSI1PK]++
	}
	assert.GreaterOrEqual(t, len(shards), 6, "40 deliveries of one endpoint over most of the 8 shards: %v", shards)
	assert.NotContains(t, shards, marketplace.DueIndexPK, "none in the unsharded partition")

	v.mu.Lock()
	v.answer = nil
	v.mu.Unlock()
	f.env.Clock.Advance(webhooks.FirstRetry)
	n, err := d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 40, n, "one sweep reads every shard")
	assert.Len(t, v.events(), 40)

	require.NoError(t, marketplace.Requeue(ctx, f.env.Table, items[0].Key, f.env.Clock.Now()))
	again, err := storage.Get[marketplace.EventItem](ctx, f.env.Table, items[0].Key)
	require.NoError(t, err)
	assert.Equal(t, marketplace.DuePK(items[0].Key), again.GSI1PK, "a redelivery is due in its shard")
}

func TestDeliveriesPendingInTheUnshardedIndexFromBeforeAreStillAgedAndDelivered(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	f.installAndUninstall(t)
	items, err := storage.QueryPartition[marketplace.EventItem](ctx, f.env.Table, marketplace.EventsPK(f.app.ID), "EVENT#")
	require.NoError(t, err)
	require.Len(t, items, 2)
	// As a table deployed before the index was spread holds them.
	for _, it := range items {
		require.NoError(t, f.env.Table.Update(ctx, it.Key, expression.Set(expression.Name(storage.AttrGSI1PK), expression.Value(marketplace.DueIndexPK)), nil))
	}
	f.env.Clock.Advance(30 * time.Second)
	d := f.deliverer()
	age, err := d.OldestPending(ctx)
	require.NoError(t, err)
	assert.Equal(t, 30*time.Second, age, "the backlog's age counts them")
	n, err := d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "and the sweep delivers them")
	assert.Equal(t, 2, f.rc.received())
	for _, e := range f.events(t) {
		assert.Equal(t, marketplace.DeliveryDelivered, e.Status)
	}
}

func TestADeliveryWhoseFirstAttemptsDelivererDiedIsTakenUpWhenItsLeaseEnds(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, e, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	f.write(t, taskDelete, "acctHook", "t1")
	waiting, err := events.WaitingFanOut(ctx, f.env.Table, 0, 10)
	require.NoError(t, err)
	for n := 1; len(waiting) == 0 && n < events.FanOutShards; n++ {
		waiting, err = events.WaitingFanOut(ctx, f.env.Table, n, 10)
		require.NoError(t, err)
	}
	require.Len(t, waiting, 1)
	// A deliverer handed the event on, claimed for its first attempt, and
	// died before making it.
	now := f.env.Clock.Now()
	added, _, err := f.endpoints().FanOut(ctx, []endpoints.Endpoint{e}, waiting[0], now, now.Add(webhooks.Lease))
	require.NoError(t, err)
	require.Len(t, added, 1)
	require.NoError(t, events.FannedOut(ctx, f.env.Table, waiting[0].Key(), len(added)))

	d := f.deliverer()
	n, err := d.DeliverNamed(ctx, []storage.Key{added[0].Key})
	require.NoError(t, err)
	assert.Zero(t, n, "the stream's record of it finds it claimed")
	n, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "so does the sweep while the lease lasts")
	f.env.Clock.Advance(webhooks.Lease + time.Second)
	n, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "then it is due")
	assert.Len(t, v.events(), 1)
}
