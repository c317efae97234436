// Package dynamo builds the DynamoDB client every process of the project
// uses (its credentials, bounds, retries and logger) and turns the client's
// failures into API errors (Classify, Classified). Package storage is the
// table the client serves.
package dynamo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/logging"
)

// Bounds of a DynamoDB call when the configuration gives none (see
// config.Config: DYNAMODB_CALL_TIMEOUT_MS and DYNAMODB_MAX_ATTEMPTS).
const (
	DefaultCallTimeout = 3 * time.Second
	DefaultMaxAttempts = 3
	// maxBackoff caps the SDK's wait between attempts (its default is 20 s,
	// longer than a whole request may take).
	maxBackoff = 200 * time.Millisecond
)

// ClientOption changes how NewClient's client retries and times out.
type ClientOption func(*clientOptions)

type clientOptions struct {
	callTimeout time.Duration
	maxAttempts int
}

// WithCallTimeout bounds each DynamoDB call, every attempt and backoff
// included: past it the call fails with context.DeadlineExceeded, which
// Classify answers with 503. Zero or less keeps the default.
func WithCallTimeout(d time.Duration) ClientOption {
	return func(o *clientOptions) {
		if d > 0 {
			o.callTimeout = d
		}
	}
}

// WithMaxAttempts sets how many times a call is tried (1: never retried).
// Zero or less keeps the default.
func WithMaxAttempts(n int) ClientOption {
	return func(o *clientOptions) {
		if n > 0 {
			o.maxAttempts = n
		}
	}
}

// NewClient builds a DynamoDB client from the process environment alone:
// the region (the region argument, else AWS_REGION or AWS_DEFAULT_REGION) and
// the credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// AWS_SESSION_TOKEN, which is where Lambda (and sam local) put them. It
// reads no configuration file and links none of the SDK's other credential
// sources, whose package initialisation alone costs every cold start; the
// admin CLI, run by people with profiles, uses package awschain instead.
// A non-empty endpoint points the client at another engine (DynamoDB
// Local); a local engine checks no credentials, so unless the
// environment holds keys it gets placeholder ones.
func NewClient(_ context.Context, endpoint, region string, logger *slog.Logger, opts ...ClientOption) (*dynamodb.Client, error) {
	cfg, err := EnvConfig(region, IsLocalEndpoint(endpoint))
	if err != nil {
		return nil, err
	}
	return NewClientFromConfig(cfg, endpoint, logger, opts...), nil
}

// EnvConfig is the AWS configuration of the process environment alone (see
// NewClient): the region (the argument, else AWS_REGION or
// AWS_DEFAULT_REGION) and the credentials in AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN. For a local engine
// (local), which checks neither, a missing region is us-east-1 and missing
// credentials are placeholders.
func EnvConfig(region string, local bool) (aws.Config, error) {
	if region == "" {
		region = os.Getenv("AWS_REGION")
	}
	if region == "" {
		region = os.Getenv("AWS_DEFAULT_REGION")
	}
	if region == "" && local {
		region = "us-east-1" // a local engine answers in any region
	}
	if region == "" {
		return aws.Config{}, errors.New("no AWS region: set AWS_REGION")
	}
	cfg := aws.NewConfig()
	cfg.Region = region
	switch id := os.Getenv("AWS_ACCESS_KEY_ID"); {
	case id != "":
		cfg.Credentials = aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(id, os.Getenv("AWS_SECRET_ACCESS_KEY"), os.Getenv("AWS_SESSION_TOKEN")))
	case local:
		cfg.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
	default:
		return aws.Config{}, errors.New("no AWS credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")
	}
	return *cfg, nil
}

// NewClientFromConfig builds a DynamoDB client on cfg's region and
// credentials, with the bounds every client of this project has.
//
// Every call is bounded: at most maxAttempts attempts with short backoff,
// all within callTimeout (options; defaults above), so an outage or a hung
// engine turns into a 503 instead of a request that outlives its Lambda.
//
// The SDK's own warnings go to logger (nil: slog.Default) as JSON lines, like
// every other log line, instead of the SDK's plain-text default.
func NewClientFromConfig(cfg aws.Config, endpoint string, logger *slog.Logger, opts ...ClientOption) *dynamodb.Client {
	if logger == nil {
		logger = slog.Default()
	}
	co := clientOptions{callTimeout: DefaultCallTimeout, maxAttempts: DefaultMaxAttempts}
	for _, o := range opts {
		o(&co)
	}
	cfg.Logger = sdkLogger{logger}
	// The SDK's own client, so proxy settings still apply; no attempt may
	// outlast the whole call.
	cfg.HTTPClient = awshttp.NewBuildableClient().WithTimeout(co.callTimeout)
	cfg.Retryer = func() aws.Retryer {
		return retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = co.maxAttempts
			o.MaxBackoff = maxBackoff
		})
	}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
		// DynamoDB signs every answer with a CRC32 header; DynamoDB Local
		// sends none, and the SDK would log a warning for each of its
		// answers. Checked where AWS answers, not against a local engine.
		o.DisableValidateResponseChecksum = IsLocalEndpoint(endpoint)
		o.APIOptions = append(o.APIOptions, callDeadline(co.callTimeout), markIdempotentWrites, retryWritesOnlyIfUnsent, countCalls)
	})
}

// sdkLogger writes the SDK's log messages through slog.
type sdkLogger struct{ l *slog.Logger }

func (s sdkLogger) Logf(c logging.Classification, format string, v ...any) {
	level := slog.LevelWarn
	if c == logging.Debug {
		level = slog.LevelDebug
	}
	s.l.Log(context.Background(), level, "aws sdk: "+fmt.Sprintf(format, v...))
}

// IsLocalEndpoint reports whether endpoint names an engine on this machine or
// on a local container network (loopback, localhost, host.docker.internal,
// or a single-label host name such as a Docker network alias), never AWS.
func IsLocalEndpoint(endpoint string) bool {
	if endpoint == "" {
		return false
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Hostname() == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	return host == "localhost" || strings.HasSuffix(host, ".localhost") ||
		host == "host.docker.internal" || !strings.Contains(host, ".")
}
