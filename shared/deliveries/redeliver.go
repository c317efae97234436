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

// Bounds of redelivery, per receiver: a request queues at most
// RedeliverPerRequest of its failed deliveries (the oldest first; the
// rest stay failed for the next request), and a receiver's deliveries
// are queued again at most RedeliverPerHour times a UTC hour. A
// redelivery is synchronous, a write or two each, and what it queues is
// attempted at once: the bounds keep one form post (or a script repeating
// it) from tying up a request and flooding the receiver and the deliverer.
const (
	RedeliverPerRequest = 100
	RedeliverPerHour    = 500
)

// Redelivered is what a redelivery queued: Queued deliveries; Left failed
// ones since the time asked it did not queue, for RedeliverPerRequest, or
// for RedeliverPerHour when HourFull (then send again after Until, the
// hour's end).
type Redelivered struct {
	Queued, Left int
	HourFull     bool
	Until        time.Time
}

// HourLimitError answers a redelivery when the receiver's deliveries were
// queued again RedeliverPerHour times this hour: nothing was queued; it
// can be asked again from Until.
type HourLimitError struct{ Until time.Time }

func (e *HourLimitError) Error() string {
	return fmt.Sprintf("this receiver's deliveries were already sent again %d times this hour, the most an hour allows: nothing was queued; try again after %s",
		RedeliverPerHour, e.Until.UTC().Format("15:04 UTC"))
}

// Redeliver makes what r names of the receiver's deliveries due again at
// now (Requeue) within the bounds above: one, or the failed ones since
// (each taken up meanwhile, or gone, passed over). It returns what it
// queued; *HourLimitError when the hour's bound leaves none.
func Redeliver(ctx context.Context, table *storage.Table, receiverID string, r Redelivery, now time.Time) (Redelivered, error) {
	if r.Event == "" {
		return requeueFailed(ctx, table, receiverID, r.FailedSince, now)
	}
	if validate.IDProblem("event", r.Event) != "" {
		return Redelivered{}, ErrNoDelivery
	}
	b, err := reserve(ctx, table, receiverID, 1, now)
	if err != nil {
		return Redelivered{}, err
	}
	if err := requeueOne(ctx, table, PK(receiverID), r.Event, now); err != nil {
		return Redelivered{}, errors.Join(err, b.release(ctx, table, 0))
	}
	return Redelivered{Queued: 1}, nil
}

// budget is a share of a receiver's hour of redeliveries, reserved
// before it is spent (reserve): n deliveries may be queued.
type budget struct {
	key   storage.Key
	n     int
	until time.Time
	// full: the hour's bound, not the request's, set n.
	full bool
}

// hourItem counts a receiver's redeliveries in an hour: its partition's
// REDELIVERED#<hour> item (outside the deliveries' EVENT# range), gone by
// TTL a day after.
type hourItem struct {
	storage.Key
	Count     int   `dynamodbav:"count"`
	ExpiresAt int64 `dynamodbav:"expiresAt"`
}

const attrCount = "count"

func hourKey(receiverID string, hour time.Time) storage.Key {
	return storage.Key{PK: PK(receiverID), SK: "REDELIVERED#" + hour.Format("2006-01-02T15")}
}

// reserve takes up to want of the receiver's redeliveries left this hour
// at now, by a write on condition that the count stays within
// RedeliverPerHour (two requests at once never pass it together); none
// left is *HourLimitError.
func reserve(ctx context.Context, table *storage.Table, receiverID string, want int, now time.Time) (budget, error) {
	hour := now.UTC().Truncate(time.Hour)
	b := budget{key: hourKey(receiverID, hour), until: hour.Add(time.Hour)}
	used := 0
	for range 5 {
		take := min(want, RedeliverPerHour-used)
		if take <= 0 {
			return b, &HourLimitError{Until: b.until}
		}
		count := expression.Name(attrCount)
		upd := expression.Add(count, expression.Value(take)).
			Set(expression.Name(storage.AttrExpiresAt), expression.Value(b.until.Add(24*time.Hour).Unix()))
		cond := expression.AttributeNotExists(count).Or(count.LessThanEqual(expression.Value(RedeliverPerHour - take)))
		err := table.Update(ctx, b.key, upd, &cond)
		if err == nil {
			b.n, b.full = take, take < want
			return b, nil
		}
		if !storage.IsConditionFailed(err) {
			return b, err
		}
		found, ferr := storage.FailedConditionItem[hourItem](err, b.key)
		if ferr != nil || found == nil {
			return b, errors.Join(err, ferr)
		}
		used = found.Count
	}
	return b, &HourLimitError{Until: b.until}
}

// release gives back what of b was not spent, spent having been queued.
func (b budget) release(ctx context.Context, table *storage.Table, spent int) error {
	if spent >= b.n {
		return nil
	}
	return table.Update(ctx, b.key, expression.Add(expression.Name(attrCount), expression.Value(spent-b.n)), nil)
}

// redeliverPage is how many deliveries requeueOne reads a call.
const redeliverPage = 200

// Retry makes the receiver's pending delivery eventID due at now rather
// than at its next attempt ("Retry now", after a receiver is fixed), its
// attempts and give-up kept (RetryNow); it counts in the hour's
// redeliveries (RedeliverPerHour).
func Retry(ctx context.Context, table *storage.Table, receiverID, eventID string, now time.Time) error {
	if validate.IDProblem("event", eventID) != "" {
		return ErrNoDelivery
	}
	b, err := reserve(ctx, table, receiverID, 1, now)
	if err != nil {
		return err
	}
	key, err := findOne(ctx, table, PK(receiverID), eventID)
	if err == nil {
		err = RetryNow(ctx, table, key, now)
	}
	if err != nil {
		return errors.Join(err, b.release(ctx, table, 0))
	}
	return nil
}

// requeueOne requeues the delivery eventID of partition pk (findOne).
func requeueOne(ctx context.Context, table *storage.Table, pk, eventID string, now time.Time) error {
	key, err := findOne(ctx, table, pk, eventID)
	if err != nil {
		return err
	}
	return Requeue(ctx, table, key, now)
}

// findOne finds the key of the delivery eventID of partition pk, reading
// newest first and ending at the page that holds it: a redelivery is
// nearly always of a recent event, so it reads a page or two rather than
// events.Lifetime of deliveries.
func findOne(ctx context.Context, table *storage.Table, pk, eventID string) (storage.Key, error) {
	only := expression.Name(attrEventID).Equal(expression.Value(eventID))
	pages, err := storage.NewPages[Item](table, storage.Query{
		Key: storage.PartitionPrefix(pk, sortPrefix), Filter: &only, Descending: true,
	}, redeliverPage)
	if err != nil {
		return storage.Key{}, err
	}
	for {
		items, more, err := pages.Next(ctx)
		if err != nil {
			return storage.Key{}, err
		}
		if len(items) > 0 {
			return items[0].Key, nil
		}
		if !more {
			return storage.Key{}, ErrNoDelivery
		}
	}
}

// requeueFailed requeues the failed deliveries of the receiver made since
// since, the oldest first, as many as its budget allows (reserve).
func requeueFailed(ctx context.Context, table *storage.Table, receiverID string, since, now time.Time) (Redelivered, error) {
	failed := expression.Name(attrStatus).Equal(expression.Value(Failed))
	items, err := storage.QueryAll[Item](ctx, table, storage.Query{
		Key: expression.Key(storage.AttrPK).Equal(expression.Value(PK(receiverID))).
			And(expression.Key(storage.AttrSK).Between(expression.Value(sortPrefix+clock.Timestamp(since)), expression.Value(sortEnd))),
		Filter: &failed,
	})
	if err != nil || len(items) == 0 {
		return Redelivered{}, err
	}
	b, err := reserve(ctx, table, receiverID, min(len(items), RedeliverPerRequest), now)
	if err != nil {
		return Redelivered{}, err
	}
	out := Redelivered{HourFull: b.full, Until: b.until}
	i := 0
	for ; i < len(items) && out.Queued < b.n; i++ {
		err := Requeue(ctx, table, items[i].Key, now)
		if errors.Is(err, ErrNotRedeliverable) || errors.Is(err, ErrNoDelivery) {
			continue
		}
		if err != nil {
			return out, errors.Join(err, b.release(ctx, table, out.Queued))
		}
		out.Queued++
	}
	out.Left = len(items) - i
	return out, b.release(ctx, table, out.Queued)
}
