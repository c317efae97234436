package webhooks

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/storage"
)

// tally is what the deliverer did since its last report.
type tally struct {
	mu sync.Mutex
	d  metrics.Deliveries
}

// add counts one recorded attempt ending in status.
func (t *tally) add(status string, delivered bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.d.Attempts++
	switch {
	case delivered:
		t.d.Delivered++
	case status == marketplace.DeliveryFailed:
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

// oldestPendingPages bounds the pages read, per due index partition, to
// find the oldest pending event: a backlog longer than that is reported by
// the oldest among its first pages, itself an alarm.
const oldestPendingPages = 10

// OldestPending is the age of the oldest event still to be delivered (0
// when none): the due index holds exactly those events, ordered by next
// attempt, not age, so each of its partitions' pages are read whole, their
// createdAt alone.
func (d *Deliverer) OldestPending(ctx context.Context) (time.Duration, error) {
	created := expression.NamesList(expression.Name("createdAt"))
	now := d.clock.Now()
	var oldest time.Duration
	for _, pk := range marketplace.DuePKs() {
		pending := expression.Key(storage.AttrGSI1PK).Equal(expression.Value(pk))
		q := storage.Query{Index: storage.IndexGSI1, Key: pending, Projection: &created}
		var cursor storage.Cursor
		for page := 0; page < oldestPendingPages; page++ {
			items, next, err := storage.QueryPage[marketplace.EventItem](ctx, d.table, q, 100, cursor)
			if err != nil {
				return 0, err
			}
			for _, it := range items {
				if created := clock.Parse(it.CreatedAt); !created.IsZero() {
					oldest = max(oldest, now.Sub(created))
				}
			}
			if next == nil {
				break
			}
			cursor = next
		}
	}
	return oldest, nil
}

// Report writes one line of what the deliverer did since its last report
// (its metrics: deliveries, failures, attempts, events given up) and, when
// withAge, the oldest pending event's age, read now.
func (d *Deliverer) Report(ctx context.Context, withAge bool) error {
	figures := d.tally.take()
	var err error
	if withAge {
		var age time.Duration
		age, err = d.OldestPending(ctx)
		if err == nil {
			figures.OldestPending = &age
		}
	}
	d.logger.LogAttrs(ctx, slog.LevelInfo, "webhook deliveries", d.lines.Attrs(d.clock.Now(), figures)...)
	return err
}
