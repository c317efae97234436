package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/shared/dryrun"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/secrets/kmskey"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

// KeyReread is how often a warm deliverer reads its signing key again: a
// key put in the parameter signs within minutes, with no deploy
// (docs/operations.md, rotating the key).
const KeyReread = 5 * time.Minute

// LambdaTask is WebhookFunction's work on each invocation
// (lambdatask.Builder). The deploy hook's dry run (shared/dryrun) reads and
// writes nothing but a read. A stream batch names new events: each is
// handed on and its deliveries attempted at once (DeliverNamed), and
// nothing else, so that a sweep on a lagging index does not try to claim
// what was just sent. The minute's schedule names none: it sweeps whatever
// is due (retries, and what the stream missed) until nothing is or the
// invocation's time is nearly over (SweepUntil). The signing key is read at start and
// again once KeyReread has passed (a failed read keeps the key it has, and
// says so).
func LambdaTask(ctx context.Context, cfg config.Config, deps wiring.Deps) (func(context.Context, json.RawMessage) error, error) {
	// On a local engine apps may use http://127.0.0.1 and localhost, as
	// their registration allows there.
	client := PublicOnlyClient()
	if dynamo.IsLocalEndpoint(cfg.Endpoint) {
		client = nil
	}
	meter := metrics.NewMeter(cfg.MetricsNamespace, cfg.FunctionDimension)
	schedule, err := deliveries.ScheduleFor(cfg.WebhookRetryFor, dynamo.IsLocalEndpoint(cfg.Endpoint))
	if err != nil {
		return nil, err
	}
	// Account endpoints' signing secrets are opened with the secrets key
	// (KMS; its data keys are kept once opened).
	keeper, err := wiring.OpenKeeper(ctx, cfg, wiring.EnvAWSConfig, "the webhook deliverer", kmskey.Open)
	if err != nil {
		return nil, err
	}
	deliverer := func(ctx context.Context) (*Deliverer, error) {
		key, err := signingkey.Load(ctx, cfg, wiring.EnvAWSConfig)
		if err != nil {
			return nil, err
		}
		d := New(deps.Table, deps.Clock, key, client, deps.Logger, meter).WithSecrets(keeper).OnSchedule(schedule)
		// What signs is what the portal shows; a failure to say so delays
		// no delivery.
		if err := d.PublishKey(ctx); err != nil {
			deps.Logger.LogAttrs(ctx, slog.LevelWarn, "webhook signing key not published", slog.String("error", err.Error()))
		}
		return d, nil
	}
	d, err := deliverer(ctx)
	if err != nil {
		return nil, err
	}
	read := deps.Clock.Now()
	return func(ctx context.Context, event json.RawMessage) error {
		if now := deps.Clock.Now(); now.Sub(read) >= KeyReread {
			fresh, err := deliverer(ctx)
			if err != nil {
				deps.Logger.LogAttrs(ctx, slog.LevelWarn, "webhook signing key not read again; the one read before signs", slog.String("error", err.Error()))
			} else {
				d = fresh
			}
			read = now
		}
		if dryrun.Is(event) { // the deploy hook's check of a new version
			return d.DryRun(ctx)
		}
		if named := StreamKeys(event); len(named) > 0 {
			_, err := d.DeliverNamed(ctx, named)
			// A stream batch looks at what it names only: no age.
			return errors.Join(err, d.Report(ctx, false))
		}
		// No attempt starts within two attempts' time of the deadline:
		// the next invocation goes on.
		var until time.Time
		if deadline, ok := ctx.Deadline(); ok {
			until = deadline.Add(-2 * attemptTimeout)
		}
		if _, err := d.SweepUntil(ctx, until); err != nil {
			return errors.Join(err, d.Report(ctx, false))
		}
		return d.Report(ctx, true)
	}, nil
}
