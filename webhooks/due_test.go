package webhooks_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
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
	_, err := d.Sweep(ctx) // handed on, each first attempt refused
	require.NoError(t, err)
	items, err := storage.QueryPartition[deliveries.Item](ctx, f.env.Table, deliveries.PK(e.ID), "EVENT#")
	require.NoError(t, err)
	require.Len(t, items, 40)
	shards := map[string]int{}
	for _, it := range items {
		assert.True(t, strings.HasPrefix(it.GSI1PK, "WEBHOOKS#DUE#"), it.GSI1PK)
		shards[it.GSI1PK]++
	}
	assert.GreaterOrEqual(t, len(shards), 6, "40 deliveries of one endpoint over most of the 8 shards: %v", shards)

	v.mu.Lock()
	v.answer = nil
	v.mu.Unlock()
	f.env.Clock.Advance(deliveries.FirstRetry)
	n, err := d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 40, n, "one sweep reads every shard")
	assert.Len(t, v.events(), 40)

	require.NoError(t, deliveries.Requeue(ctx, f.env.Table, items[0].Key, f.env.Clock.Now()))
	again, err := storage.Get[deliveries.Item](ctx, f.env.Table, items[0].Key)
	require.NoError(t, err)
	assert.Equal(t, items[0].GSI1PK, again.GSI1PK, "a redelivery is due in its shard")
}

// A stack deployed before the due index was spread kept its pending
// deliveries in the index's one partition, WEBHOOKS#DUE, through their
// retries: a deliverer's first sweep moves them to their shards, where
// every read looks, and delivers them.
func TestDeliveriesPendingInTheUnshardedIndexFromBeforeAreMovedToTheirShardsAndDelivered(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	f.installAndUninstall(t)
	items := f.handOn(t)
	require.Len(t, items, 2)
	for _, it := range items {
		require.NoError(t, f.env.Table.Update(ctx, it.Key, expression.Set(expression.Name(storage.AttrGSI1PK), expression.Value("WEBHOOKS#DUE")), nil))
	}
	f.env.Clock.Advance(30 * time.Second)
	d := f.deliverer()
	n, err := d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the first sweep moves and delivers them")
	assert.Equal(t, 2, f.rc.received())
	for _, e := range f.deliveries(t) {
		assert.Equal(t, deliveries.Delivered, e.Status)
	}
	for _, item := range testenv.Items[map[string]any](t, f.env.Table) {
		assert.NotEqual(t, "WEBHOOKS#DUE", item[storage.AttrGSI1PK], "the old partition is left empty")
	}
}

func TestADeliveryWhoseFirstAttemptsDelivererDiedIsTakenUpWhenItsLeaseEnds(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, e, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	f.write(t, taskDelete, "acctHook", "t1")
	var waiting []events.Recorded
	for n := 0; len(waiting) == 0 && n < events.FanOutShards; n++ {
		var err error
		waiting, err = events.WaitingFanOut(ctx, f.env.Table, n, 10)
		require.NoError(t, err)
	}
	require.Len(t, waiting, 1)
	// A deliverer handed the event on, claimed for its first attempt, and
	// died before making it.
	now := f.env.Clock.Now()
	added, err := deliveries.FanOut(ctx, f.env.Table, []deliveries.Receiver{e.Receiver()}, waiting[0], now, now.Add(deliveries.Lease))
	require.NoError(t, err)
	require.Len(t, added, 1)

	d := f.deliverer()
	n, err := d.DeliverNamed(ctx, []storage.Key{waiting[0].Key()})
	require.NoError(t, err)
	assert.Zero(t, n, "the stream's record of the event finds it handed on")
	n, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "the sweep finds the delivery claimed while the lease lasts")
	f.env.Clock.Advance(deliveries.Lease + time.Second)
	n, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "then it is due")
	assert.Len(t, v.events(), 1)
}
