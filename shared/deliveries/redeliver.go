package deliveries

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// Redelivery is what an admin or an operator asks to send again, after a
// receiver was down for longer than the retries: one delivery (Event, its
// webhookId), or every one made since FailedSince that failed.
type Redelivery struct {
	Event       string
	FailedSince time.Time
}

// Detail says what the redelivery of n deliveries sent again, for its
// audit entry.
func (r Redelivery) Detail(n int) string {
	if r.Event != "" {
		return "event " + r.Event
	}
	return fmt.Sprintf("%d failed since %s", n, r.FailedSince.UTC().Format(time.RFC3339))
}

// Redeliver makes what r names of the receiver's deliveries due again at
// now (Requeue) and returns how many: one, or every failed one since
// (each taken up meanwhile, or gone, passed over).
func Redeliver(ctx context.Context, table *storage.Table, receiverID string, r Redelivery, now time.Time) (int, error) {
	if r.Event == "" {
		return requeueFailed(ctx, table, PK(receiverID), r.FailedSince, now)
	}
	if validate.IDProblem("event", r.Event) != "" {
		return 0, ErrNoDelivery
	}
	if err := requeueOne(ctx, table, PK(receiverID), r.Event, now); err != nil {
		return 0, err
	}
	return 1, nil
}

// redeliverPage is how many deliveries requeueOne reads a call.
const redeliverPage = 200

// requeueOne requeues the delivery eventID of partition pk, reading newest
// first and ending at the page that holds it: a redelivery is nearly
// always of a recent event, so it reads a page or two rather than
// events.Lifetime of deliveries.
func requeueOne(ctx context.Context, table *storage.Table, pk, eventID string, now time.Time) error {
	only := expression.Name(attrEventID).Equal(expression.Value(eventID))
	pages, err := storage.NewPages[Item](table, storage.Query{
		Key: storage.PartitionPrefix(pk, sortPrefix), Filter: &only, Descending: true,
	}, redeliverPage)
	if err != nil {
		return err
	}
	for {
		items, more, err := pages.Next(ctx)
		if err != nil {
			return err
		}
		if len(items) > 0 {
			return Requeue(ctx, table, items[0].Key, now)
		}
		if !more {
			return ErrNoDelivery
		}
	}
}

// requeueFailed requeues every failed delivery of partition pk made since
// since.
func requeueFailed(ctx context.Context, table *storage.Table, pk string, since, now time.Time) (int, error) {
	failed := expression.Name(attrStatus).Equal(expression.Value(Failed))
	items, err := storage.QueryAll[Item](ctx, table, storage.Query{
		Key: expression.Key(storage.AttrPK).Equal(expression.Value(pk)).
			And(expression.Key(storage.AttrSK).Between(expression.Value(sortPrefix+clock.Timestamp(since)), expression.Value(sortEnd))),
		Filter: &failed,
	})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, it := range items {
		err := Requeue(ctx, table, it.Key, now)
		if errors.Is(err, ErrNotRedeliverable) || errors.Is(err, ErrNoDelivery) {
			continue
		}
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
