package deliveries

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// An event's item counts its deliveries, so that GET /events filters events
// by their delivery state over every receiver (EventIn) at no read of the
// deliveries: how many were made, how many are pending, how many failed.
// The fan-out sets them (handedOn), each end and each redelivery changes
// them, one write each.
const (
	attrMade    = "deliveries"
	attrPending = "deliveriesPending"
	attrFailed  = "deliveriesFailed"
)

// handedOn takes the event at key out of the fan-out index, handed to n
// receivers (each a delivery now pending), with its counts: only the
// first run to hand it on writes (events.HandedOn).
func handedOn(ctx context.Context, table *storage.Table, key storage.Key, n int) error {
	counts := expression.Set(expression.Name(attrMade), expression.Value(n)).
		Set(expression.Name(attrPending), expression.Value(n)).
		Set(expression.Name(attrFailed), expression.Value(0))
	return events.HandedOn(ctx, table, key, counts)
}

// source is the key of the event it delivers; false for a delivery
// written before INSTALL and UNINSTALL were events, which counts on none.
func (it Item) source() (storage.Key, bool) {
	return storage.Key{PK: it.Source, SK: it.SK}, it.Source != ""
}

// ended counts the delivery's end on its event, failed or delivered. An
// event gone meanwhile (its TTL) is left so.
func ended(ctx context.Context, table *storage.Table, it Item, failed bool) error {
	key, ok := it.source()
	if !ok {
		return nil
	}
	upd := expression.Add(expression.Name(attrPending), expression.Value(-1))
	if failed {
		upd = upd.Add(expression.Name(attrFailed), expression.Value(1))
	}
	return ignoreGone(table.Update(ctx, key, upd, storage.ItemExists()))
}

// again counts an ended delivery (failed or not) as pending again on its
// event, for a redelivery.
func again(ctx context.Context, table *storage.Table, it Item, wasFailed bool) error {
	key, ok := it.source()
	if !ok {
		return nil
	}
	upd := expression.Add(expression.Name(attrPending), expression.Value(1))
	if wasFailed {
		upd = upd.Add(expression.Name(attrFailed), expression.Value(-1))
	}
	return ignoreGone(table.Update(ctx, key, upd, storage.ItemExists()))
}

func ignoreGone(err error) error {
	if storage.IsConditionFailed(err) {
		return nil
	}
	return err
}

// EventIn is the condition on an event's item that it is in state over
// all its deliveries: Pending (not yet handed on, or a delivery still
// pending), Delivered (every delivery delivered), Failed (a delivery
// failed) or Unrouted (handed to no receiver).
func EventIn(state State) expression.ConditionBuilder {
	waiting, handed := events.InFanOut(), expression.Not(events.InFanOut())
	zero := expression.Value(0)
	switch state {
	case Pending:
		return waiting.Or(expression.Name(attrPending).GreaterThan(zero))
	case Failed:
		return expression.Name(attrFailed).GreaterThan(zero)
	case Unrouted:
		// Events never handed on count no deliveries.
		return handed.And(expression.Or(expression.Name(attrMade).Equal(zero), expression.AttributeNotExists(expression.Name(attrMade))))
	default: // Delivered
		return handed.And(expression.Name(attrMade).GreaterThan(zero)).
			And(expression.Name(attrPending).Equal(zero)).And(expression.Name(attrFailed).Equal(zero))
	}
}
