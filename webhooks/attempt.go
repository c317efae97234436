package webhooks

import (
	"context"
	"log/slog"
	"sync/atomic"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
)

// attemptFunc makes one delivery's attempt, if it is the deliverer's to
// make, and reports whether it made it.
type attemptFunc func(ctx context.Context, it deliveries.Item, t *target) (bool, error)

// attemptAll makes the attempts of items as attempt does, up to parallel
// at once, then writes once what they changed of each endpoint's health
// (note); targets are the account endpoints they are for, by id. It
// returns how many attempts it made and the first error.
func (d *Deliverer) attemptAll(ctx context.Context, items []deliveries.Item, targets map[string]*target, attempt attemptFunc) (int, error) {
	var made atomic.Int64
	_, err := each(len(items), func(i int) error {
		ok, err := attempt(ctx, items[i], targets[items[i].EndpointID])
		if ok {
			made.Add(1)
		}
		return err
	})
	for _, t := range targets {
		if nerr := d.note(ctx, t); err == nil {
			err = nerr
		}
	}
	return int(made.Load()), err
}

// attemptDue claims the due attempt of it (deliveries.Claim) and makes it;
// false when another deliverer has it or it is due no more (the index is
// read eventually consistent).
func (d *Deliverer) attemptDue(ctx context.Context, it deliveries.Item, t *target) (bool, error) {
	lease, ok, err := deliveries.Claim(ctx, d.table, it, d.clock.Now())
	if !ok || err != nil {
		return false, err
	}
	return true, d.send(ctx, it, t, lease)
}

// attemptClaimed makes the first attempt of a delivery this deliverer made
// already claimed (deliveries.FanOut's lease), unless too little of the
// claim is left to make it: then the sweep that finds it due does.
func (d *Deliverer) attemptClaimed(ctx context.Context, it deliveries.Item, t *target) (bool, error) {
	if !it.Claimed(d.clock.Now(), attemptTimeout) {
		return false, nil
	}
	return true, d.send(ctx, it, t, it.LeaseUntil)
}

// send makes the attempt of it claimed with lease: posts it and records
// the result. An account endpoint's delivery (t not nil) goes to the
// endpoint's URL as read now, and is not sent, but ends as failed, when
// the endpoint is disabled or gone.
func (d *Deliverer) send(ctx context.Context, it deliveries.Item, t *target, lease string) error {
	var end string
	switch {
	case t != nil && t.ep == nil:
		end = "the endpoint was removed"
	case t != nil && !t.ep.Enabled:
		end = "the endpoint is disabled: enable it, then redeliver its failed events"
	}
	if end != "" {
		return d.record(ctx, it, deliveries.Attempt{At: clock.Timestamp(d.clock.Now()), Error: end}, lease, true)
	}
	var keys [][]byte
	if t != nil {
		if t.keysErr != nil {
			return t.keysErr // not sent unsigned: tried again once the claim lapses
		}
		it.URL, keys = t.ep.URL, t.keys
	}
	now := d.clock.Now()
	result := d.post(ctx, it.Delivery, keys)
	if t != nil {
		t.count(result, now)
	}
	return d.record(ctx, it, result, lease, false)
}

// record writes the attempt's result (deliveries.Record), counts it for
// the next report and logs it.
func (d *Deliverer) record(ctx context.Context, it deliveries.Item, a deliveries.Attempt, lease string, end bool) error {
	state, recorded, err := deliveries.Record(ctx, d.table, it, a, lease, d.clock.Now(), end)
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
