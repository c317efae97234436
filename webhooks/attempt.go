package webhooks

import (
	"context"
	"log/slog"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
)

// attemptDue claims the due attempt of it (deliveries.Claim) and makes it;
// nothing when another deliverer has it or it is due no more (the index is
// read eventually consistent).
func (d *Deliverer) attemptDue(ctx context.Context, it deliveries.Item, t *target) (outcome, error) {
	lease, ok, err := deliveries.Claim(ctx, d.table, it, d.clock.Now())
	if !ok || err != nil {
		return outcome{}, err
	}
	return d.send(ctx, it, t, lease)
}

// attemptClaimed makes the first attempt of a delivery this deliverer made
// already claimed (deliveries.FanOut's lease), unless too little of the
// claim is left to make it (it waited in its lane, or its receiver was
// found down and it was made unclaimed): then the sweep that finds it due
// does.
func (d *Deliverer) attemptClaimed(ctx context.Context, it deliveries.Item, t *target) (outcome, error) {
	if !it.Claimed(d.clock.Now(), attemptTimeout) {
		return outcome{}, nil
	}
	return d.send(ctx, it, t, it.LeaseUntil)
}

// send makes the attempt of it claimed with lease: posts it and records
// the result. An account endpoint's delivery (t not nil) goes to the
// endpoint's URL as read last, and is not sent, but ends as failed, when
// the endpoint is disabled or gone.
func (d *Deliverer) send(ctx context.Context, it deliveries.Item, t *target, lease string) (outcome, error) {
	var end string
	if t != nil {
		switch ep := t.endpoint(); {
		case ep == nil:
			end = "the endpoint was removed"
		case !ep.Enabled:
			end = "the endpoint is disabled: enable it, then redeliver its failed events"
		default:
			it.URL = ep.URL
		}
	}
	if end != "" {
		return outcome{made: true}, d.record(ctx, it, deliveries.Attempt{At: clock.Timestamp(d.clock.Now()), Error: end}, lease, true)
	}
	var keys [][]byte
	if t != nil {
		var err error
		if keys, err = t.signing(); err != nil {
			return outcome{}, err // not sent unsigned: tried again once the claim lapses
		}
	}
	now, began := d.clock.Now(), time.Now()
	result := d.post(ctx, it.Delivery, keys)
	if t != nil {
		t.count(result, now)
	}
	stalled := result.Status == 0 && time.Since(began) >= stallAfter
	// A test event is tried once: its sender waits for the answer.
	return outcome{made: true, stalled: stalled}, d.record(ctx, it, result, lease, it.Once())
}

// record writes the attempt's result (deliveries.Record), counts it for
// the next report and logs it.
func (d *Deliverer) record(ctx context.Context, it deliveries.Item, a deliveries.Attempt, lease string, end bool) error {
	state, recorded, err := deliveries.Record(ctx, d.table, d.schedule, it, a, lease, d.clock.Now(), end)
	if err != nil || !recorded {
		// Not recorded: the claim ran out and another deliverer took the
		// attempt up; its attempt is the one recorded.
		return err
	}
	d.tally.add(state, a.Delivered())
	d.logger.LogAttrs(ctx, slog.LevelInfo, "webhook attempt", slog.String("event", it.ID), slog.String("app", it.AppID),
		slog.String("endpoint", it.EndpointID), slog.String("type", it.Type), slog.Int("attempt", len(it.Attempts)+1),
		slog.Int("http_status", a.Status), slog.String("result", string(state)))
	return nil
}
