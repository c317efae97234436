package webhooks

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/bizplatform/api/shared/deliveries"
)

// Sweep hands the waiting events on (fanOut), queueing their first
// attempts, then queues every delivery due now (up to a batch per shard
// of the due index, the shards read at once), and waits for the attempts;
// it returns how many it made. A process's first sweep moves the
// deliveries a stack deployed before the due index's shards left in its
// one partition to their shards.
func (d *Deliverer) Sweep(ctx context.Context) (int, error) {
	r := d.newRun(ctx, time.Time{})
	_, err := d.tick(ctx, r)
	n, werr := r.wait()
	if err == nil {
		err = werr
	}
	return n, err
}

// sweepPause is how often a run that goes on (SweepUntil, Loop) looks for
// more: waiting events and due deliveries.
const sweepPause = 2 * time.Second

// SweepUntil sweeps as Sweep does, again every sweepPause while attempts
// are still under way, queueing what it finds without waiting for them,
// until a sweep finds nothing new and nothing is under way, or until
// (when not zero), after which no attempt starts; it returns how many
// attempts it made. The minute's invocation runs it up to its deadline.
func (d *Deliverer) SweepUntil(ctx context.Context, until time.Time) (int, error) {
	r := d.newRun(ctx, until)
	for {
		queued, err := d.tick(ctx, r)
		if err != nil {
			n, _ := r.wait()
			return n, err
		}
		if queued == 0 && !r.busy() || !until.IsZero() && !d.clock.Now().Before(until) {
			return r.wait()
		}
		r.settle(sweepPause)
		if ctx.Err() != nil {
			return r.wait()
		}
	}
}

// tick is one look for work in run r: the waiting events handed on, and
// the deliveries due, each attempt queued in its receiver's lane (one
// queued already is not queued twice). It returns how many it queued.
func (d *Deliverer) tick(ctx context.Context, r *run) (int, error) {
	if !d.legacyMoved.Load() {
		moved, err := deliveries.MoveLegacyDue(ctx, d.table)
		if err != nil {
			return 0, err
		}
		if moved > 0 {
			d.logger.LogAttrs(ctx, slog.LevelInfo, "webhook deliveries moved to the due index's shards", slog.Int("moved", moved))
		}
		d.legacyMoved.Store(true)
	}
	handed, queued, err := d.fanOut(ctx, r)
	// Deployed, the stream hands each event on as it is written: what a
	// sweep finds waiting, the stream did not (its batch failed).
	d.tally.recovered(handed)
	if err != nil {
		return queued, err
	}
	pages := make([][]deliveries.Item, deliveries.DueShards)
	now := d.clock.Now()
	if _, err := each(deliveries.DueShards, func(n int) error {
		var err error
		pages[n], err = deliveries.Due(ctx, d.table, n, now, batch)
		return err
	}); err != nil {
		return queued, err
	}
	due := slices.DeleteFunc(slices.Concat(pages...), func(it deliveries.Item) bool { return r.queued(it.Key) })
	targets, err := d.targets(ctx, due)
	if err != nil {
		return queued, err
	}
	for _, it := range due {
		if r.add(it, targets[it.EndpointID], d.attemptDue) {
			queued++
		}
	}
	return queued, nil
}

// Loop looks for work every interval until ctx is done (the local
// server's deliverer), queueing attempts in their receivers' lanes without
// waiting for them, so that a receiver that does not answer holds up
// nothing but its own lane; a failed look is logged and tried again. What
// was attempted since the last look is reported (Report), as an
// invocation does deployed; idle looks write nothing.
func (d *Deliverer) Loop(ctx context.Context, interval time.Duration) {
	r := d.newRun(ctx, time.Time{})
	defer r.wait()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		_, err := d.tick(ctx, r)
		if err != nil && ctx.Err() == nil {
			d.logger.LogAttrs(ctx, slog.LevelWarn, "webhook sweep", slog.String("error", err.Error()))
		}
		if d.tally.any() && ctx.Err() == nil {
			if err := d.Report(ctx, true); err != nil {
				d.logger.LogAttrs(ctx, slog.LevelWarn, "webhook report", slog.String("error", err.Error()))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
