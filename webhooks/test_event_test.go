package webhooks_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
)

// "Send test event": a ping, signed, sent to that endpoint alone at the
// deliverer's next look, tried once, and no change: not in GET /events,
// not sent to the account's other endpoints.
func TestATestEventGoesSignedToItsEndpointAloneOnceAndIsNoEvent(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, e, _ := f.endpointTo(t, "acctTest", []string{"TaskDelete"})
	other, _, _ := f.endpointTo(t, "acctTest", []string{"TaskDelete"})
	store := f.endpoints()
	d := f.deliverer()

	sent := make(chan deliveries.Delivery, 1)
	go func() {
		got, err := store.SendTest(ctx, "acctTest", e.ID, 10*time.Second)
		assert.NoError(t, err)
		sent <- got
	}()
	var got deliveries.Delivery
	for waiting := true; waiting; {
		_, err := d.Sweep(ctx)
		require.NoError(t, err)
		select {
		case got = <-sent:
			waiting = false
		case <-time.After(100 * time.Millisecond):
		}
	}
	assert.Equal(t, deliveries.Delivered, got.Status, "SendTest waits for the attempt")
	require.Len(t, v.events(), 1, "signed (the verifier accepts only a valid signature)")
	ping := v.events()[0]
	assert.Equal(t, "WebhookTest", ping["type"])
	assert.Equal(t, "acctTest", ping["locationId"])
	assert.Equal(t, e.ID, ping["endpointId"])
	assert.Equal(t, got.ID, ping["webhookId"])
	assert.Empty(t, other.events(), "the account's other endpoint gets nothing")
	page, _, err := events.Page(ctx, f.env.Table, events.Owner{LocationID: "acctTest"}, events.Filter{}, 10, "")
	require.NoError(t, err)
	assert.Empty(t, page, "no event: GET /events does not list it")

	t.Run("a failed test is tried once, its answer kept", func(t *testing.T) {
		v.mu.Lock()
		v.answer = func(w http.ResponseWriter, _ *http.Request) bool { w.WriteHeader(http.StatusBadGateway); return true }
		v.mu.Unlock()
		failed, err := deliveries.AddTest(ctx, f.env.Table, "acctTest", e.ID, e.URL, f.env.Clock.Now())
		require.NoError(t, err)
		_, err = d.Sweep(ctx)
		require.NoError(t, err)
		found, err := store.Delivery(ctx, "acctTest", e.ID, failed.ID)
		require.NoError(t, err)
		assert.Equal(t, deliveries.Failed, found.Status, "not retried for 3 days")
		require.Len(t, found.Attempts, 1)
		assert.Equal(t, http.StatusBadGateway, found.Attempts[0].Status)
	})
	t.Run("a disabled endpoint is not sent one", func(t *testing.T) {
		off := false
		_, err := store.Update(ctx, "acctTest", e.ID, endpoints.Input{Enabled: &off}, admin)
		require.NoError(t, err)
		_, err = store.SendTest(ctx, "acctTest", e.ID, time.Second)
		assert.ErrorIs(t, err, endpoints.ErrDisabledTest)
	})
}
