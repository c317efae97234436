package probe

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/canary"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/metrics"
)

// LambdaTask is ProbeFunction's work on each invocation (the schedule's,
// every minute): one run. It fails only when it cannot run at all; a check
// that failed is the metric's to say, not a failed invocation, which
// Lambda would retry.
func LambdaTask(ctx context.Context, cfg config.Config, deps app.Deps) (func(context.Context, json.RawMessage) error, error) {
	if cfg.ProbeURL == "" || cfg.CanaryTokenParameter == "" || cfg.CanaryAccountID == "" {
		return nil, errors.New("PROBE_URL, CANARY_TOKEN_PARAMETER and CANARY_ACCOUNT_ID are required")
	}
	awsCfg, err := app.EnvAWSConfig(ctx, cfg.Region)
	if err != nil {
		return nil, err
	}
	var endpoint *string
	if v := cfg.SSMEndpoint; v != "" {
		endpoint = aws.String(v)
	}
	p := &Probe{
		URL: cfg.ProbeURL, Client: &http.Client{Timeout: requestTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		Canary:  &canary.Token{Parameter: cfg.CanaryTokenParameter, SSM: ssm.NewFromConfig(awsCfg, func(o *ssm.Options) { o.BaseEndpoint = endpoint })},
		Account: cfg.CanaryAccountID,
		Lines:   metrics.NewMeter(cfg.MetricsNamespace, cfg.FunctionDimension).ProbeLines(),
		Logger:  deps.Logger, Clock: deps.Clock,
	}
	return func(ctx context.Context, _ json.RawMessage) error {
		p.Run(ctx)
		return nil
	}, nil
}
