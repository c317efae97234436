package webhooks

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

// ErrNoKey: neither WEBHOOK_KEY_FILE nor WEBHOOK_KEY_PARAMETER is set.
var ErrNoKey = errors.New("the webhook signing key: set WEBHOOK_KEY_PARAMETER (an SSM SecureString) or WEBHOOK_KEY_FILE")

// LoadKey loads the webhook signing key once per start: the local file
// WEBHOOK_KEY_FILE names (created on first use), or the SSM SecureString
// WEBHOOK_KEY_PARAMETER names (PEM, PKCS #8), read with decryption.
func LoadKey(ctx context.Context, cfg config.Config, loadAWS wiring.AWSConfigFunc) (ed25519.PrivateKey, error) {
	switch {
	case cfg.WebhookKeyFile != "":
		return marketplace.LoadOrCreateKeyFile(cfg.WebhookKeyFile)
	case cfg.WebhookKeyParameter != "":
		awsCfg, err := loadAWS(ctx, cfg.Region)
		if err != nil {
			return nil, fmt.Errorf("the SSM client: %w", err)
		}
		out, err := ssm.NewFromConfig(awsCfg).GetParameter(ctx, &ssm.GetParameterInput{Name: aws.String(cfg.WebhookKeyParameter), WithDecryption: aws.Bool(true)})
		if err != nil {
			return nil, fmt.Errorf("read the webhook key %s: %w", cfg.WebhookKeyParameter, err)
		}
		return marketplace.ParseSigningKey([]byte(aws.ToString(out.Parameter.Value)))
	}
	return nil, ErrNoKey
}

// LambdaTask is WebhookFunction's work on each invocation. A stream batch
// names new events: each is attempted from its own item (the due index may
// not show it yet), and nothing else, so that a sweep on a lagging index
// does not try to claim what was just sent. The minute's schedule names
// none: it sweeps whatever is due (retries) until nothing is or the
// invocation's time is nearly over.
func LambdaTask(ctx context.Context, cfg config.Config, deps wiring.Deps) (func(context.Context, json.RawMessage) error, error) {
	key, err := LoadKey(ctx, cfg, wiring.EnvAWSConfig)
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
