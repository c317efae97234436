package webhooks

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/bizplatform/api/shared/deliveries"
)

// Sweep hands the waiting events on (fanOut), making their first
// attempts, then attempts every delivery due now (up to a batch per shard
// of the due index, the shards read at once); it returns how many attempts
// it made. A process's first sweep moves the deliveries a stack deployed
// before the due index's shards left in its one partition to their shards.
func (d *Deliverer) Sweep(ctx context.Context) (int, error) {
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
	handed, sent, err := d.fanOut(ctx)
	// Deployed, the stream hands each event on as it is written: what a
	// sweep finds waiting, the stream did not (its batch failed).
	d.tally.recovered(handed)
	if err != nil {
		return sent, err
	}
	pages := make([][]deliveries.Item, deliveries.DueShards)
	now := d.clock.Now()
	if _, err := each(deliveries.DueShards, func(n int) error {
		var err error
		pages[n], err = deliveries.Due(ctx, d.table, n, now, batch)
		return err
	}); err != nil {
		return sent, err
	}
	due := slices.Concat(pages...)
	targets, err := d.targets(ctx, due)
	if err != nil {
		return sent, err
	}
	n, err := d.attemptAll(ctx, due, targets, d.attemptDue)
	return sent + n, err
}

// Loop sweeps every interval until ctx is done (the local server's
// deliverer); a failed sweep is logged and tried again. A sweep that
// attempted something reports it (Report), as an invocation does deployed;
// idle sweeps write nothing.
func (d *Deliverer) Loop(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		n, err := d.Sweep(ctx)
		if err != nil && ctx.Err() == nil {
			d.logger.LogAttrs(ctx, slog.LevelWarn, "webhook sweep", slog.String("error", err.Error()))
		}
		if n > 0 && ctx.Err() == nil {
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
