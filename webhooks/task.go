package webhooks

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

// LambdaTask is WebhookFunction's work on each invocation
// (lambdatask.Builder). A stream batch names new events: each is handed
// on and its deliveries attempted at once (DeliverNamed), and nothing
// else, so that a sweep on a lagging index does not try to claim what was
// just sent. The minute's schedule names none: it sweeps whatever is due
// (retries, and what the stream missed) until nothing is or the
// invocation's time is nearly over.
func LambdaTask(ctx context.Context, cfg config.Config, deps wiring.Deps) (func(context.Context, json.RawMessage) error, error) {
	key, err := signingkey.Load(ctx, cfg, wiring.EnvAWSConfig)
	if err != nil {
		return nil, err
	}
	// On a local engine apps may use http://127.0.0.1 and localhost, as
	// their registration allows there.
	client := PublicOnlyClient()
	if dynamo.IsLocalEndpoint(cfg.Endpoint) {
		client = nil
	}
	d := New(deps.Table, deps.Clock, key, client, deps.Logger, metrics.NewMeter(cfg.MetricsNamespace, cfg.FunctionDimension))
	return func(ctx context.Context, event json.RawMessage) error {
		if named := StreamKeys(event); len(named) > 0 {
			_, err := d.DeliverNamed(ctx, named)
			// A stream batch looks at what it names only: no age.
			return errors.Join(err, d.Report(ctx, false))
		}
		for {
			n, err := d.Sweep(ctx)
			if err != nil {
				return errors.Join(err, d.Report(ctx, false))
			}
			if n == 0 {
				return d.Report(ctx, true)
			}
			if deadline, ok := ctx.Deadline(); ok && deps.Clock.Now().Add(2*attemptTimeout).After(deadline) {
				return d.Report(ctx, true) // the next invocation goes on
			}
		}
	}, nil
}
