// Package config reads the settings every binary shares from the environment,
// under the same names everywhere.
package config

import (
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
)

// Config is the environment of a function, the local server or the CLI.
type Config struct {
	// TableName is the DynamoDB table (TABLE_NAME, default "platform").
	TableName string
	// Endpoint overrides the DynamoDB endpoint (DYNAMODB_ENDPOINT); empty
	// means real AWS.
	Endpoint string
	// Region is the AWS region (AWS_REGION); defaults to us-east-1 when an
	// endpoint override is set.
	Region string
	// Burst is the number of requests an account may make per Window
	// (RATE_LIMIT_BURST, default 100).
	Burst int
	// Window is the burst window (RATE_LIMIT_WINDOW_SECONDS, default 10).
	Window time.Duration
	// Daily is the number of requests an account may make per UTC day
	// (RATE_LIMIT_DAILY, default 200000).
	Daily int
	// LogLevel is the minimum level logged (LOG_LEVEL: debug, info, warn,
	// error; default info).
	LogLevel slog.Level
	// Port is the local server's port (PORT, default 3000).
	Port int
	// DynamoCallTimeout bounds one DynamoDB call, retries included
	// (DYNAMODB_CALL_TIMEOUT_MS, default 3000).
	DynamoCallTimeout time.Duration
	// DynamoMaxAttempts is how often a DynamoDB call is tried before it
	// fails (DYNAMODB_MAX_ATTEMPTS, default 3; 1 never retries).
	DynamoMaxAttempts int
	// RequestTimeout bounds a whole request's storage work
	// (REQUEST_TIMEOUT_MS, default 10000: under the functions' 15 s
	// timeout, so a slow engine answers 503 instead of timing out the
	// Lambda).
	RequestTimeout time.Duration
	// SecretsKeyID is the AWS KMS key (id, ARN or alias) that seals the
	// secrets users hand the API (SECRETS_KEY_ID; the voice-ai function's is
	// set by template.yaml).
	SecretsKeyID string
	// SecretsLocalKeyFile is a local key file sealing them instead
	// (SECRETS_LOCAL_KEY_FILE; make run uses .local/secrets.key), created on
	// first use. At most one of the two may be set.
	SecretsLocalKeyFile string
	// OAuthAccessTokenTTL is how long a marketplace app's access token
	// works (OAUTH_ACCESS_TOKEN_TTL in seconds, default 86399, the public
	// platform's: shortened for tests and local runs).
	OAuthAccessTokenTTL time.Duration
	// WebhookKeyParameter is the SSM parameter holding the webhook signing
	// key when deployed (WEBHOOK_KEY_PARAMETER); WebhookKeyFile a local key
	// file instead (WEBHOOK_KEY_FILE; make run uses .local/webhook-ed25519.pem).
	WebhookKeyParameter string
	WebhookKeyFile      string
	// MetricsNamespace is the CloudWatch namespace of the metrics the log
	// lines carry (METRICS_NAMESPACE, default "BizPlatform"; the template
	// sets BizPlatform/<stack name>).
	MetricsNamespace string
	// FunctionDimension is the Function dimension of every metric
	// (FUNCTION_NAME_DIMENSION); empty: the function's own name (its
	// directory under functions/; locally, the area owning the route),
	// which is what the template leaves it to.
	FunctionDimension string
	// FunctionVersion is the version of the function Lambda runs
	// (AWS_LAMBDA_FUNCTION_VERSION, which Lambda sets): the Version
	// dimension of the 5xx the rollback alarms read. Empty outside Lambda.
	FunctionVersion string
	// ProbeURL is the deployed API's public base URL the synthetic probe
	// calls (PROBE_URL; the template sets the HTTP API's URL).
	ProbeURL string
	// CanaryTokenParameter is the SSM SecureString holding the canary
	// token (CANARY_TOKEN_PARAMETER), a read-only token of CanaryAccountID
	// (CANARY_ACCOUNT_ID): the probe's reads (shared/canary).
	CanaryTokenParameter string
	CanaryAccountID      string
	// SSMEndpoint points the probe's SSM client elsewhere
	// (AWS_ENDPOINT_URL_SSM, the SDK's own name; a test's stand-in).
	SSMEndpoint string
	// OperationMetrics: the API's request lines also carry requests, 5xx
	// and latency by operation (METRICS_BY_OPERATION=true; the template's
	// OperationMetrics parameter), three custom metrics per operation.
	OperationMetrics bool
	// WebhookRetryFor shrinks the webhook deliveries' schedule, on a local
	// engine only, so that a delivery gives up (and an endpoint failing
	// every attempt is disabled) after it instead of 3 days
	// (WEBHOOK_RETRY_FOR, a Go duration such as 10m; 0: the deployed
	// schedule; deliveries.ScheduleFor checks and applies it).
	WebhookRetryFor time.Duration
}

// Load reads the configuration through getenv (os.Getenv in production).
func Load(getenv func(string) string) (Config, error) {
	c := Config{
		TableName: orDefault(getenv("TABLE_NAME"), "platform"),
		Endpoint:  strings.TrimSpace(getenv("DYNAMODB_ENDPOINT")),
		Region:    strings.TrimSpace(getenv("AWS_REGION")),
	}
	if c.Region == "" && c.Endpoint != "" {
		c.Region = "us-east-1"
	}
	var err error
	if c.Burst, err = positiveInt(getenv, "RATE_LIMIT_BURST", 100); err != nil {
		return Config{}, err
	}
	windowSeconds, err := positiveInt(getenv, "RATE_LIMIT_WINDOW_SECONDS", 10)
	if err != nil {
		return Config{}, err
	}
	// Windows are aligned to the epoch; one that divides a day never spans
	// two days, so the burst and daily counters roll over together.
	if 86400%windowSeconds != 0 {
		return Config{}, fmt.Errorf("RATE_LIMIT_WINDOW_SECONDS=%d must divide 86400 (a day) evenly", windowSeconds)
	}
	c.Window = time.Duration(windowSeconds) * time.Second
	if c.Daily, err = positiveInt(getenv, "RATE_LIMIT_DAILY", 200000); err != nil {
		return Config{}, err
	}
	if c.Port, err = positiveInt(getenv, "PORT", 3000); err != nil {
		return Config{}, err
	}
	if c.Port > 65535 {
		return Config{}, fmt.Errorf("PORT=%d is not a valid port", c.Port)
	}
	callMs, err := positiveInt(getenv, "DYNAMODB_CALL_TIMEOUT_MS", 3000)
	if err != nil {
		return Config{}, err
	}
	c.DynamoCallTimeout = time.Duration(callMs) * time.Millisecond
	if c.DynamoMaxAttempts, err = positiveInt(getenv, "DYNAMODB_MAX_ATTEMPTS", 3); err != nil {
		return Config{}, err
	}
	if c.DynamoMaxAttempts > 10 {
		return Config{}, fmt.Errorf("DYNAMODB_MAX_ATTEMPTS=%d must be at most 10", c.DynamoMaxAttempts)
	}
	requestMs, err := positiveInt(getenv, "REQUEST_TIMEOUT_MS", 10000)
	if err != nil {
		return Config{}, err
	}
	c.RequestTimeout = time.Duration(requestMs) * time.Millisecond
	if c.LogLevel, err = logLevel(getenv("LOG_LEVEL")); err != nil {
		return Config{}, err
	}
	c.SecretsKeyID = strings.TrimSpace(getenv("SECRETS_KEY_ID"))
	c.SecretsLocalKeyFile = strings.TrimSpace(getenv("SECRETS_LOCAL_KEY_FILE"))
	if c.SecretsKeyID != "" && c.SecretsLocalKeyFile != "" {
		return Config{}, fmt.Errorf("SECRETS_KEY_ID and SECRETS_LOCAL_KEY_FILE are both set: secrets are sealed with one key")
	}
	ttl, err := positiveInt(getenv, "OAUTH_ACCESS_TOKEN_TTL", 86399)
	if err != nil {
		return Config{}, err
	}
	c.OAuthAccessTokenTTL = time.Duration(ttl) * time.Second
	c.WebhookKeyParameter = strings.TrimSpace(getenv("WEBHOOK_KEY_PARAMETER"))
	c.WebhookKeyFile = strings.TrimSpace(getenv("WEBHOOK_KEY_FILE"))
	c.MetricsNamespace = strings.TrimSpace(getenv("METRICS_NAMESPACE"))
	c.FunctionDimension = strings.TrimSpace(getenv("FUNCTION_NAME_DIMENSION"))
	c.FunctionVersion = strings.TrimSpace(getenv("AWS_LAMBDA_FUNCTION_VERSION"))
	c.ProbeURL = strings.TrimRight(strings.TrimSpace(getenv("PROBE_URL")), "/")
	c.CanaryTokenParameter = strings.TrimSpace(getenv("CANARY_TOKEN_PARAMETER"))
	c.CanaryAccountID = strings.TrimSpace(getenv("CANARY_ACCOUNT_ID"))
	c.SSMEndpoint = strings.TrimSpace(getenv("AWS_ENDPOINT_URL_SSM"))
	if v := strings.TrimSpace(getenv("WEBHOOK_RETRY_FOR")); v != "" {
		if c.WebhookRetryFor, err = time.ParseDuration(v); err != nil || c.WebhookRetryFor <= 0 {
			return Config{}, fmt.Errorf("WEBHOOK_RETRY_FOR=%q must be a duration such as 10m", v)
		}
	}
	switch v := strings.ToLower(strings.TrimSpace(getenv("METRICS_BY_OPERATION"))); v {
	case "", "false":
	case "true":
		c.OperationMetrics = true
	default:
		return Config{}, fmt.Errorf("METRICS_BY_OPERATION=%q must be true or false", v)
	}
	return c, nil
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v == "" {
		return def
	}
	return v
}

func positiveInt(getenv func(string) string, name string, def int) (int, error) {
	v := strings.TrimSpace(getenv(name))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q must be a positive integer", name, v)
	}
	return n, nil
}

func logLevel(v string) (slog.Level, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "info":
		return slog.LevelInfo, nil
	case "debug":
		return slog.LevelDebug, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	default:
		return 0, fmt.Errorf("LOG_LEVEL=%q must be one of debug, info, warn, error", v)
	}
}
