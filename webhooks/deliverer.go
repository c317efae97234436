// Package webhooks is the webhook deliverer, an application of its own
// (functions/webhooks): it hands each event to the receivers that take it
// and makes their deliveries' attempts (package deliveries: one delivery
// per receiver, its schedule, its due index), posting each signed, at
// least once. Deployed it runs in WebhookFunction, on the table's stream
// (a new event: handed on and attempted at once, stream.go) and every
// minute (the retries, and whatever the stream missed: Sweep); locally in
// the local server's loop (Loop).
//
// Its files, from the top: task.go is the function's work, stream.go the
// stream's batches, sweep.go the sweep; fanout.go hands events on,
// attempt.go claims, makes and records attempts, post.go is the HTTP of
// one attempt, health.go what the attempts tell of an account's endpoint,
// report.go the metrics; this file the deliverer, tally.go what it did
// since its last report, client.go its HTTP client, lanes.go how its
// attempts go by receiver so that one does not wait for another,
// parallel.go how many reads it makes at once.
package webhooks

import (
	"context"
	"crypto/ed25519"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
)

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
	// schedule is the deliveries' backoff and give-up (OnSchedule).
	schedule deliveries.Schedule
	// publicPEM is the public half of the signing key (PublishKey).
	publicPEM string
	// legacyMoved: the due index's partition from before its shards was
	// emptied once by this process (deliveries.MoveLegacyDue).
	legacyMoved atomic.Bool
	// down are the receivers (by id) whose attempt stalled (isDown), and
	// when: a warm deliverer remembers them across its invocations.
	down sync.Map
}

// New returns a deliverer signing with key; client nil is a client with the
// attempt timeout that follows no redirect either (the local server's).
// Its metric lines (Report) are meter's.
func New(table *storage.Table, c clock.Clock, key ed25519.PrivateKey, client *http.Client, logger *slog.Logger, meter metrics.Meter) *Deliverer {
	if client == nil {
		client = localClient()
	}
	return &Deliverer{
		table: table, clock: c, signer: deliveries.NewSigner(key), client: client, logger: logger, lines: meter.WebhookLines(),
		endpoints: endpoints.New(table, c, false), schedule: deliveries.Default, publicPEM: signingkey.PublicPEM(key),
	}
}

// OnSchedule makes the deliverer retry on sched (deliveries.ScheduleFor:
// a local engine's shortened schedule) and disable an endpoint failing
// every attempt for its GiveUp; it returns d.
func (d *Deliverer) OnSchedule(sched deliveries.Schedule) *Deliverer {
	d.schedule, d.endpoints = sched, d.endpoints.OnSchedule(sched)
	return d
}

// PublishKey publishes the public half of the key d signs with
// (deliveries.PublishKey), for the portal and platformctl webhooks key to
// show, and logs when that changed the key published.
func (d *Deliverer) PublishKey(ctx context.Context) error {
	changed, err := deliveries.PublishKey(ctx, d.table, d.publicPEM, d.clock.Now())
	if changed {
		d.logger.LogAttrs(ctx, slog.LevelInfo, "webhook signing key published")
	}
	return err
}

// WithSecrets makes d open account endpoints' signing secrets with keeper
// (their attempts carry the Standard Webhooks signature too). Without it,
// an endpoint with a secret is not delivered to: its attempts wait.
func (d *Deliverer) WithSecrets(keeper *secrets.Keeper) *Deliverer {
	d.endpoints = d.endpoints.Sealing(keeper)
	return d
}
