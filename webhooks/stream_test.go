package webhooks_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/webhooks"
)

// TestAnEventsStreamRecordHandsItOnAndDeliversItAtOnce follows a change's
// event as the table's stream names it: the deliverer hands it on and
// makes the first attempt in the same invocation, with no sweep (which
// would come up to a minute later), and a second record of it (the stream
// retried, or the sweep came first) sends nothing twice.
func TestAnEventsStreamRecordHandsItOnAndDeliversItAtOnce(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, _, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	id := f.write(t, taskDelete, "acctHook", "t1")
	stored := testenv.Events(t, f.env.Table, events.Owner{LocationID: "acctHook"})
	require.Len(t, stored, 1)
	key := stored[0].Key()
	record := `{"Records":[{"eventName":"INSERT","eventSource":"aws:dynamodb","dynamodb":{"Keys":{"PK":{"S":"` + key.PK + `"},"SK":{"S":"` + key.SK + `"}}}}]}`
	named := webhooks.StreamKeys([]byte(record))
	require.Equal(t, []storage.Key{key}, named, "the stream record of an event names it")

	d := f.deliverer()
	n, err := d.DeliverNamed(ctx, named)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	got := v.events()
	require.Len(t, got, 1, "delivered in the stream's invocation")
	assert.Equal(t, id, got[0]["webhookId"])
	for shard := range events.FanOutShards {
		waiting, err := events.WaitingFanOut(ctx, f.env.Table, shard, 10)
		require.NoError(t, err)
		assert.Empty(t, waiting, "handed on: out of the fan-out index")
	}

	n, err = d.DeliverNamed(ctx, named)
	require.NoError(t, err)
	assert.Zero(t, n, "a second record of it sends nothing")
	n, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "nor does the sweep")
	assert.Len(t, v.events(), 1)
	delivered := deliveries.EventIn(deliveries.Delivered)
	page, _, err := events.Page(ctx, f.env.Table, events.Owner{LocationID: "acctHook"}, events.Filter{Matching: &delivered}, 10, "")
	require.NoError(t, err)
	assert.Len(t, page, 1, "its delivery counted once")
}
