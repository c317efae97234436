package deliveries

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/storage"
)

// TestType is the type of a test event ("Send test event"): a ping an
// admin sends to one endpoint to check its receiver. It is no change: it
// is no event item (not in GET /events, fanned out to no one), and its
// delivery is tried once (Once), signed as any other.
const TestType = "WebhookTest"

// testFields are what a test event carries beyond the envelope.
type testFields struct {
	EndpointID string `json:"endpointId"`
}

var testEvent = events.Type{Name: TestType, Version: 1, Fields: testFields{}}

// Once reports whether the delivery is tried once only, ending failed at
// its first failure: a test event, whose result its sender waits for.
func (d Delivery) Once() bool { return d.Type == TestType }

// AddTest makes a test event's delivery to the account's endpoint
// endpointID at url, due now (the deliverer's next look: a local one
// within seconds, a deployed sweep within a minute), and returns it.
func AddTest(ctx context.Context, table *storage.Table, accountID, endpointID, url string, now time.Time) (Delivery, error) {
	id := ids.Hex24()
	body, err := events.Body(testEvent, events.Owner{LocationID: accountID}, testFields{EndpointID: endpointID}, id, now)
	if err != nil {
		return Delivery{}, err
	}
	key := storage.Key{PK: PK(endpointID), SK: sortPrefix + clock.Timestamp(now) + "#" + id}
	it := newItem(key, Delivery{ID: id, EndpointID: endpointID, AccountID: accountID, Type: TestType, URL: url, Body: string(body)}, now, time.Time{})
	if err := table.Put(ctx, it, storage.ItemAbsent()); err != nil {
		return Delivery{}, err
	}
	return it.Delivery, nil
}

// Find returns the receiver's delivery eventID (ErrNoDelivery when it is
// not kept).
func Find(ctx context.Context, table *storage.Table, receiverID, eventID string) (Delivery, error) {
	key, err := findOne(ctx, table, PK(receiverID), eventID)
	if err != nil {
		return Delivery{}, err
	}
	it, err := storage.Get[Item](ctx, table, key)
	if err != nil {
		return Delivery{}, err
	}
	if it == nil {
		return Delivery{}, ErrNoDelivery
	}
	return it.Delivery, nil
}
