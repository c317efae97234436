package webhooks

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/metrics"
)

// tally is what the deliverer did since its last report.
type tally struct {
	mu sync.Mutex
	d  metrics.Deliveries
}

// add counts one recorded attempt that left its delivery in state.
func (t *tally) add(state deliveries.State, delivered bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.d.Attempts++
	switch {
	case delivered:
		t.d.Delivered++
	case state == deliveries.Failed:
		t.d.Failed++
		t.d.GivenUp++
	default:
		t.d.Failed++
	}
}

// take returns the figures so far and starts again from none.
func (t *tally) take() metrics.Deliveries {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.d
	t.d = metrics.Deliveries{}
	return d
}

// Report writes one line of what the deliverer did since its last report
// (its metrics: deliveries, failures, attempts, deliveries given up) and,
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
