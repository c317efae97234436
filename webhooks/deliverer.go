// Package webhooks is the webhook deliverer, an application of its own
// (functions/webhooks): it hands each event to the receivers that take it
// and makes their deliveries' attempts (package deliveries: one delivery
// per receiver, its schedule, its due index), posting each signed, at
// least once. Deployed it runs in WebhookFunction, on the table's stream
// (a new event: handed on and attempted at once, stream.go) and every
// minute (the retries, and whatever the stream missed: Sweep); locally in
// the local server's loop (Loop).
//
// Its files: fanout.go hands events on, attempt.go claims, makes and
// records attempts, post.go is the HTTP of one attempt, health.go what the
// attempts tell of an account's endpoint, stream.go the stream's batches,
// task.go the function's work, report.go its metrics.
package webhooks

import (
	"context"
	"crypto/ed25519"
	"log/slog"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/storage"
)

// attemptTimeout bounds one POST to a receiver.
const attemptTimeout = 10 * time.Second

// batch is how many due deliveries one sweep takes at most from each shard
// of the due index (and how many waiting events from each shard of the
// fan-out index).
const batch = 100

// Deliverer hands events on and delivers what is due.
type Deliverer struct {
	table     *storage.Table
	clock     clock.Clock
	signer    deliveries.Signer
	client    *http.Client
	logger    *slog.Logger
	lines     *metrics.WebhookLines
	tally     tally
	endpoints *endpoints.Store
	// legacyMoved: the due index's partition from before its shards was
	// emptied once by this process (deliveries.MoveLegacyDue).
	legacyMoved atomic.Bool
}

// New returns a deliverer signing with key; client nil is a client with the
// attempt timeout that follows no redirect either (the local server's).
// Its metric lines (Report) are meter's.
func New(table *storage.Table, c clock.Clock, key ed25519.PrivateKey, client *http.Client, logger *slog.Logger, meter metrics.Meter) *Deliverer {
	if client == nil {
		client = &http.Client{Timeout: attemptTimeout, CheckRedirect: noRedirect}
	}
	return &Deliverer{
		table: table, clock: c, signer: deliveries.NewSigner(key), client: client, logger: logger, lines: meter.WebhookLines(),
		endpoints: endpoints.New(table, c, false),
	}
}

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
	sent, err := d.fanOut(ctx)
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
