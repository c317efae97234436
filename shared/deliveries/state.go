package deliveries

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// A delivery's life, each step one conditional write of its item:
//
//	newItem    pending, due now; or claimed by its maker, who makes the
//	           first attempt at once, and due when that claim ends
//	Claim      an attempt taken by one deliverer (pending, due as read,
//	           no other claim running)
//	Record     the attempt's result, by the deliverer that claimed it:
//	           delivered, failed, or pending and due again (the schedule)
//	Requeue    an ended delivery pending again, for a redelivery
//
// An ended delivery leaves the due index and is kept events.Lifetime; its
// end, and a redelivery, count on the event it delivers (counts.go).

// newItem is a new delivery d stored at key (made at now, unless d says
// when), due now; or,
// when leasedUntil is not zero, claimed until then by its maker, which
// makes the first attempt at once (Claimed), and due then: should the
// maker die mid-attempt, another deliverer takes it up when the claim
// ends.
func newItem(key storage.Key, d Delivery, now, leasedUntil time.Time) Item {
	due := now
	if !leasedUntil.IsZero() {
		due, d.LeaseUntil = leasedUntil, clock.Timestamp(leasedUntil)
	}
	if d.CreatedAt == "" {
		d.CreatedAt = clock.Timestamp(now)
	}
	d.Status, d.NextAt = Pending, clock.Timestamp(due)
	if d.Attempts == nil {
		d.Attempts = []Attempt{}
	}
	return Item{Key: key, GSI1PK: duePK(key), GSI1SK: dueSK(due, key), Delivery: d}
}

// Claimed reports whether the attempt its maker claimed at its making
// (newItem's lease) is still the maker's to make at now, with time to make
// it (within attempt): a maker slower than that leaves it to the deliverer
// that finds it due when the claim ends.
func (it Item) Claimed(now time.Time, attempt time.Duration) bool {
	return it.LeaseUntil != "" && clock.Timestamp(now.Add(attempt)) < it.LeaseUntil
}

// Claim takes the delivery's due attempt for the caller until now+Lease,
// on condition that it is still pending, due as read (the index is read
// eventually consistent) and claimed by no one else, and returns the
// claim, which Record names; ok is false when it is not the caller's to
// make.
func Claim(ctx context.Context, table *storage.Table, it Item, now time.Time) (lease string, ok bool, err error) {
	// Fixed-width stamps, so that the condition's string order is time order.
	lease = clock.Timestamp(now.Add(Lease))
	leaseName := expression.Name(attrLease)
	claim := expression.Name(attrStatus).Equal(expression.Value(Pending)).
		And(expression.Name(storage.AttrGSI1SK).Equal(expression.Value(it.GSI1SK))).
		And(expression.Or(expression.AttributeNotExists(leaseName), leaseName.LessThan(expression.Value(clock.Timestamp(now)))))
	err = table.Update(ctx, it.Key, expression.Set(leaseName, expression.Value(lease)), &claim)
	if storage.IsConditionFailed(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return lease, true, nil
}

// Record writes the result a of the attempt claimed with lease, made at
// now: delivered on a 2xx; else pending and due again on schedule s, or
// failed once it gives up, or at once when end (its endpoint
// was removed or disabled). It writes on condition that the claim is
// still the caller's: when it ran out and another deliverer took the
// attempt up, that one's is recorded and this writes nothing (recorded
// false). An ended delivery leaves the due index, is kept events.Lifetime,
// and counts on its event. It returns the state written.
func Record(ctx context.Context, table *storage.Table, s Schedule, it Item, a Attempt, lease string, now time.Time, end bool) (state State, recorded bool, err error) {
	attempts := expression.Name(attrAttempts)
	upd := expression.Set(attempts, expression.ListAppend(attempts.IfNotExists(expression.Value([]Attempt{})), expression.Value([]Attempt{a}))).
		Remove(expression.Name(attrLease))
	at, giveUp := s.nextAttempt(it.Delivery, len(it.Attempts)+1, a, now)
	switch {
	case a.Delivered():
		state = Delivered
	case end || giveUp:
		state = Failed
	default:
		state = Pending
	}
	if state == Pending {
		upd = upd.Set(expression.Name(attrNextAt), expression.Value(clock.Timestamp(at))).
			Set(expression.Name(storage.AttrGSI1SK), expression.Value(dueSK(at, it.Key)))
	} else {
		upd = upd.Set(expression.Name(attrStatus), expression.Value(state)).
			Remove(expression.Name(storage.AttrGSI1PK)).Remove(expression.Name(storage.AttrGSI1SK)).Remove(expression.Name(attrNextAt)).
			Set(expression.Name(storage.AttrExpiresAt), expression.Value(now.Add(events.Lifetime).Unix()))
	}
	mine := expression.Name(attrLease).Equal(expression.Value(lease))
	err = table.Update(ctx, it.Key, upd, &mine)
	if storage.IsConditionFailed(err) {
		return state, false, nil
	}
	if err != nil {
		return state, false, fmt.Errorf("record attempt of delivery %s: %w", it.ID, err)
	}
	if state != Pending {
		if err := ended(ctx, table, it, state == Failed); err != nil {
			return state, true, fmt.Errorf("count the delivery of event %s: %w", it.ID, err)
		}
	}
	return state, true, nil
}

// ErrNoDelivery answers a redelivery of a delivery that is not (or no
// longer) kept.
var ErrNoDelivery = fmt.Errorf("no such delivery (deliveries are kept %s)", clock.Span(events.Lifetime))

// ErrNotRedeliverable answers a redelivery of a delivery still pending: it
// will be attempted again anyway.
var ErrNotRedeliverable = errors.New("the event is still being delivered: it is not redelivered before its attempts end")

// ErrNotPending answers "retry now" of a delivery that ended (delivered or
// failed): it is redelivered instead.
var ErrNotPending = errors.New("the delivery is not pending: it ended, so it is redelivered rather than retried")

// ErrBeingAttempted answers "retry now" of a delivery whose attempt is under
// way: its result is recorded within a minute.
var ErrBeingAttempted = errors.New("the delivery is being attempted right now: its answer is recorded within a minute")

// RetryNow makes the pending delivery at key due at now instead of at its
// next attempt, on condition that it is still pending and no attempt of it
// is under way: its attempts so far and its give-up are kept. An ended one
// is ErrNotPending, one under way ErrBeingAttempted, one gone
// ErrNoDelivery.
func RetryNow(ctx context.Context, table *storage.Table, key storage.Key, now time.Time) error {
	stamp := clock.Timestamp(now)
	lease := expression.Name(attrLease)
	upd := expression.Set(expression.Name(attrNextAt), expression.Value(stamp)).
		Set(expression.Name(storage.AttrGSI1SK), expression.Value(dueSK(now, key)))
	cond := expression.Name(attrStatus).Equal(expression.Value(Pending)).
		And(expression.Or(expression.AttributeNotExists(lease), lease.LessThan(expression.Value(stamp))))
	err := table.Update(ctx, key, upd, &cond)
	if !storage.IsConditionFailed(err) {
		return err
	}
	found, ferr := storage.FailedConditionItem[Item](err, key)
	switch {
	case ferr != nil:
		return ferr
	case found == nil:
		return ErrNoDelivery
	case found.Status != Pending:
		return ErrNotPending
	default:
		return ErrBeingAttempted
	}
}

// Requeue makes the ended (delivered or failed) delivery at key due again
// at now, for a redelivery: its attempts so far are kept, and its GiveUp
// of retries runs from now; its event counts it as pending again. One
// still pending is left alone (ErrNotRedeliverable), one that is gone
// ErrNoDelivery.
func Requeue(ctx context.Context, table *storage.Table, key storage.Key, now time.Time) error {
	it, err := storage.Get[Item](ctx, table, key)
	if err != nil {
		return err
	}
	if it == nil {
		return ErrNoDelivery
	}
	if it.Status == Pending {
		return ErrNotRedeliverable
	}
	stamp := clock.Timestamp(now)
	upd := expression.Set(expression.Name(attrStatus), expression.Value(Pending)).
		Set(expression.Name(attrNextAt), expression.Value(stamp)).
		Set(expression.Name(attrRetryFrom), expression.Value(stamp)).
		Set(expression.Name(storage.AttrGSI1PK), expression.Value(duePK(key))).
		Set(expression.Name(storage.AttrGSI1SK), expression.Value(dueSK(now, key))).
		Remove(expression.Name(storage.AttrExpiresAt)).Remove(expression.Name(attrLease))
	// Only from the state read: two redeliveries at once requeue it once.
	cond := expression.Name(attrStatus).Equal(expression.Value(it.Status))
	if err := table.Update(ctx, key, upd, &cond); err != nil {
		if storage.IsConditionFailed(err) {
			return ErrNotRedeliverable
		}
		return err
	}
	return again(ctx, table, *it, it.Status == Failed)
}
