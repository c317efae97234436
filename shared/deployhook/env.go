package deployhook

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/codedeploy"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/bizplatform/api/shared/canary"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// FromEnv builds the hook from the environment the template gives it:
// HOOK_FUNCTIONS ("contacts=<function name>,..."), CANARY_TOKEN_PARAMETER
// and CANARY_ACCOUNT_ID. AWS_ENDPOINT_URL_LAMBDA, _CODEDEPLOY and _SSM (the
// SDK's own names) point the clients elsewhere, for tests.
func FromEnv(getenv func(string) string) (*Hook, error) {
	functions := map[string]string{}
	for _, pair := range strings.Split(getenv("HOOK_FUNCTIONS"), ",") {
		dir, name, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok || dir == "" || name == "" {
			continue
		}
		functions[name] = dir
	}
	if len(functions) == 0 {
		return nil, errors.New("HOOK_FUNCTIONS names no function (dir=name,...)")
	}
	parameter := getenv("CANARY_TOKEN_PARAMETER")
	h := &Hook{
		Functions:     functions,
		CanaryAccount: getenv("CANARY_ACCOUNT_ID"),
		Logger:        slog.New(slog.NewJSONHandler(os.Stdout, nil)),
	}
	if parameter == "" || h.CanaryAccount == "" {
		return nil, errors.New("CANARY_TOKEN_PARAMETER and CANARY_ACCOUNT_ID are required")
	}
	cfg, err := dynamo.EnvConfig(getenv("AWS_REGION"), false)
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", err)
	}
	endpoint := func(service string) *string {
		if v := getenv("AWS_ENDPOINT_URL_" + service); v != "" {
			return aws.String(v)
		}
		return nil
	}
	h.Lambda = lambda.NewFromConfig(cfg, func(o *lambda.Options) { o.BaseEndpoint = endpoint("LAMBDA") })
	h.CodeDeploy = codedeploy.NewFromConfig(cfg, func(o *codedeploy.Options) { o.BaseEndpoint = endpoint("CODEDEPLOY") })
	h.Canary = &canary.Token{Parameter: parameter, SSM: ssm.NewFromConfig(cfg, func(o *ssm.Options) { o.BaseEndpoint = endpoint("SSM") })}
	return h, nil
}
