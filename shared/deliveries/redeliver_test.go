package deliveries_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/storage"
)

// failedDeliveries stores n failed deliveries of receiver, one a minute
// from made, and returns their keys, oldest first.
func failedDeliveries(t *testing.T, table *storage.Table, receiver string, n int, made time.Time) []storage.Key {
	t.Helper()
	var items []any
	var keys []storage.Key
	for i := range n {
		at := made.Add(time.Duration(i) * time.Minute)
		id := fmt.Sprintf("f%023d", i)
		key := storage.Key{PK: deliveries.PK(receiver), SK: "EVENT#" + clock.Timestamp(at) + "#" + id}
		items = append(items, deliveries.Item{Key: key, Delivery: deliveries.Delivery{
			ID: id, EndpointID: receiver, Type: "TaskDelete", URL: "https://d.example/in", Body: `{}`,
			CreatedAt: clock.Timestamp(at), Status: deliveries.Failed, Attempts: []deliveries.Attempt{{At: clock.Timestamp(at), Status: 500}},
		}})
		keys = append(keys, key)
	}
	require.NoError(t, table.BatchPut(context.Background(), items))
	return keys
}

// pendingOf counts the deliveries at keys that are pending.
func pendingOf(t *testing.T, table *storage.Table, keys []storage.Key) int {
	t.Helper()
	n := 0
	for _, key := range keys {
		it, err := storage.Get[deliveries.Item](context.Background(), table, key)
		require.NoError(t, err)
		if it.Status == deliveries.Pending {
			n++
		}
	}
	return n
}

// 303 failed deliveries were requeued in one POST, and the POST could be
// repeated without end: a request now queues 100, the oldest first, and a
// receiver's deliveries are queued again at most 500 times an hour.
func TestRedeliveryIsBoundedPerRequestAndPerHour(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	made := testenv.Start.Add(-24 * time.Hour)
	keys := failedDeliveries(t, table, "ep1", 610, made)
	since := deliveries.Redelivery{FailedSince: made}
	now := testenv.Start // 12:00:03
	hourEnd := time.Date(2026, 6, 15, 13, 0, 0, 0, time.UTC)

	t.Run("a request queues 100, the oldest first, and says how many are left", func(t *testing.T) {
		done, err := deliveries.Redeliver(ctx, table, "ep1", since, now)
		require.NoError(t, err)
		assert.Equal(t, deliveries.Redelivered{Queued: 100, Left: 510, Until: hourEnd}, done)
		assert.Equal(t, 100, pendingOf(t, table, keys[:100]), "the oldest 100")
		assert.Zero(t, pendingOf(t, table, keys[100:110]), "the next stay failed")
	})
	t.Run("repeated, it stops at 500 in the hour, single redeliveries too", func(t *testing.T) {
		for i := range 4 {
			done, err := deliveries.Redeliver(ctx, table, "ep1", since, now.Add(time.Duration(i)*time.Minute))
			require.NoError(t, err)
			assert.Equal(t, 100, done.Queued)
		}
		_, err := deliveries.Redeliver(ctx, table, "ep1", since, now.Add(50*time.Minute))
		var full *deliveries.HourLimitError
		require.ErrorAs(t, err, &full)
		assert.Equal(t, hourEnd, full.Until)
		assert.EqualError(t, err, "this receiver's deliveries were already sent again 500 times this hour, the most an hour allows: nothing was queued; try again after 13:00 UTC")
		_, err = deliveries.Redeliver(ctx, table, "ep1", deliveries.Redelivery{Event: "f00000000000000000000600"}, now.Add(50*time.Minute))
		assert.ErrorAs(t, err, &full, "one delivery counts as well")
		assert.Equal(t, 500, pendingOf(t, table, keys))
	})
	t.Run("the next hour takes redeliveries again", func(t *testing.T) {
		done, err := deliveries.Redeliver(ctx, table, "ep1", deliveries.Redelivery{Event: "f00000000000000000000600"}, hourEnd)
		require.NoError(t, err)
		assert.Equal(t, 1, done.Queued)
		done, err = deliveries.Redeliver(ctx, table, "ep1", since, hourEnd.Add(time.Minute))
		require.NoError(t, err)
		assert.Equal(t, deliveries.Redelivered{Queued: 100, Left: 9, Until: hourEnd.Add(time.Hour)}, done, "a new hour, a new 500")
	})
	t.Run("a delivery that cannot be queued does not use up the hour", func(t *testing.T) {
		for range 3 {
			_, err := deliveries.Redeliver(ctx, table, "ep1", deliveries.Redelivery{Event: "f00000000000000000000001"}, hourEnd.Add(2*time.Minute))
			assert.ErrorIs(t, err, deliveries.ErrNotRedeliverable)
		}
		count, err := storage.Get[struct {
			Count int `dynamodbav:"count"`
		}](ctx, table, storage.Key{PK: deliveries.PK("ep1"), SK: "REDELIVERED#2026-06-15T13"})
		require.NoError(t, err)
		assert.Equal(t, 101, count.Count)
	})
}

// The hour's bound holds when requests come together: 10 at once, each
// asking for 100 of 700 failed deliveries, queue 500 in all.
func TestTheHourlyRedeliveryBoundHoldsUnderRequestsSentTogether(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	made := testenv.Start.Add(-24 * time.Hour)
	keys := failedDeliveries(t, table, "ep2", 700, made)
	var wg sync.WaitGroup
	var mu sync.Mutex
	queued, refused := 0, 0
	for range 10 {
		wg.Go(func() {
			done, err := deliveries.Redeliver(ctx, table, "ep2", deliveries.Redelivery{FailedSince: made}, testenv.Start)
			var full *deliveries.HourLimitError
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				queued += done.Queued
			case assert.ErrorAs(t, err, &full):
				refused++
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 500, queued)
	assert.Equal(t, 500, pendingOf(t, table, keys))
	assert.Positive(t, refused, "the requests past the bound were refused")
}

// "Retry now": a pending delivery waiting for its backoff is made due at
// once, its attempts and give-up kept; an ended one or one under way is
// refused, saying why.
func TestAPendingDeliveryIsRetriedNowKeepingItsAttempts(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	ev := write(t, table, taskDelete, nil)
	r := deliveries.Receiver{ID: "ep3", URL: "https://d.example/in", Types: []string{"TaskDelete"}, AccountID: "acct1"}
	added, err := deliveries.FanOut(ctx, table, []deliveries.Receiver{r}, ev, testenv.Start, testenv.Start.Add(deliveries.Lease))
	require.NoError(t, err)
	it := added[0]
	_, _, err = deliveries.Record(ctx, table, deliveries.Default, it, deliveries.Attempt{At: clock.Timestamp(testenv.Start), Status: 503, RetryAfter: 3600}, it.LeaseUntil, testenv.Start, false)
	require.NoError(t, err)
	now := testenv.Start.Add(5 * time.Minute)
	due, err := deliveries.Due(ctx, table, 0, now, 100)
	require.NoError(t, err)
	for n := 1; n < deliveries.DueShards; n++ {
		more, err := deliveries.Due(ctx, table, n, now, 100)
		require.NoError(t, err)
		due = append(due, more...)
	}
	require.Empty(t, due, "waiting for its Retry-After")

	require.NoError(t, deliveries.Retry(ctx, table, "ep3", ev.ID, now))
	got, err := storage.Get[deliveries.Item](ctx, table, it.Key)
	require.NoError(t, err)
	assert.Equal(t, deliveries.Pending, got.Status)
	assert.Equal(t, clock.Timestamp(now), got.NextAt, "due now")
	assert.Len(t, got.Attempts, 1, "its attempts kept")
	assert.Empty(t, got.RetryFrom, "its give-up kept")
	shard := -1
	for n := range deliveries.DueShards {
		found, err := deliveries.Due(ctx, table, n, now, 100)
		require.NoError(t, err)
		if len(found) > 0 {
			shard = n
		}
	}
	assert.NotEqual(t, -1, shard, "in the due index, due now")

	_, ok, err := deliveries.Claim(ctx, table, *got, now)
	require.NoError(t, err)
	require.True(t, ok)
	assert.ErrorIs(t, deliveries.Retry(ctx, table, "ep3", ev.ID, now), deliveries.ErrBeingAttempted)
	lease, _, err := deliveries.Claim(ctx, table, *got, now.Add(2*deliveries.Lease))
	require.NoError(t, err)
	_, _, err = deliveries.Record(ctx, table, deliveries.Default, *got, deliveries.Attempt{At: clock.Timestamp(now), Status: 200}, lease, now.Add(2*deliveries.Lease), false)
	require.NoError(t, err)
	assert.ErrorIs(t, deliveries.Retry(ctx, table, "ep3", ev.ID, now), deliveries.ErrNotPending, "delivered: redelivered rather than retried")
	assert.ErrorIs(t, deliveries.Retry(ctx, table, "ep3", "a00000000000000000000099", now), deliveries.ErrNoDelivery)
}
