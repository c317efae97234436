package webhooks

import (
	"context"
	"log/slog"
	"time"

	"github.com/bizplatform/api/shared/deliveries"
)

// Report writes one line of what the deliverer did since its last report
// (its metrics: deliveries, failures, attempts, deliveries given up,
// events recovered from the fan-out index, endpoints disabled) and,
// when withAge, the oldest pending delivery's age, read now
// (deliveries.OldestPending).
func (d *Deliverer) Report(ctx context.Context, withAge bool) error {
	figures := d.tally.take()
	var err error
	if withAge {
		var age time.Duration
		age, err = deliveries.OldestPending(ctx, d.table, d.clock.Now())
		if err == nil {
			figures.OldestPending = &age
		}
	}
	d.logger.LogAttrs(ctx, slog.LevelInfo, "webhook deliveries", d.lines.Attrs(d.clock.Now(), figures)...)
	return err
}
