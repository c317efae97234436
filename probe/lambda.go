package probe

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/bizplatform/api/shared/canary"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/wiring"
)

// FromEnv builds the probe from the environment the template gives it
// (config.Load: PROBE_URL, CANARY_TOKEN_PARAMETER, CANARY_ACCOUNT_ID,
// METRICS_NAMESPACE, LOG_LEVEL; AWS_ENDPOINT_URL_SSM for a test's
// stand-in). It reaches the API as a client does: no table, no DynamoDB
// client.
func FromEnv(getenv func(string) string) (*Probe, error) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return nil, err
	}
	if cfg.ProbeURL == "" || cfg.CanaryTokenParameter == "" || cfg.CanaryAccountID == "" {
		return nil, errors.New("PROBE_URL, CANARY_TOKEN_PARAMETER and CANARY_ACCOUNT_ID are required")
	}
	awsCfg, err := wiring.EnvAWSConfig(context.Background(), cfg.Region)
	if err != nil {
		return nil, err
	}
	var endpoint *string
	if v := cfg.SSMEndpoint; v != "" {
		endpoint = aws.String(v)
	}
	return &Probe{
		URL: cfg.ProbeURL, Client: &http.Client{Timeout: requestTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		Canary:  &canary.Token{Parameter: cfg.CanaryTokenParameter, SSM: ssm.NewFromConfig(awsCfg, func(o *ssm.Options) { o.BaseEndpoint = endpoint })},
		Account: cfg.CanaryAccountID,
		Lines:   metrics.NewMeter(cfg.MetricsNamespace, cfg.FunctionDimension).ProbeLines(),
		Logger:  wiring.NewLogger(os.Stdout, cfg.LogLevel), Clock: clock.System{},
	}, nil
}

// Handle is one invocation (the schedule's, every minute): one run. It
// never fails: a check that failed is the metric's to say, not a failed
// invocation, which Lambda would retry.
func (p *Probe) Handle(ctx context.Context, _ json.RawMessage) error {
	p.Run(ctx)
	return nil
}
