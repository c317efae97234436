// Package storage holds the single DynamoDB table every area shares: its
// client, its key schema, its creation for local use, and the mapping of
// storage failures to API errors.
package storage

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
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"
	"github.com/aws/smithy-go/middleware"
)

// Attribute and index names of the table.
const (
	AttrPK     = "PK"
	AttrSK     = "SK"
	AttrGSI1PK = "GSI1PK"
	AttrGSI1SK = "GSI1SK"
	// AttrExpiresAt is the table's TTL attribute (epoch seconds).
	AttrExpiresAt = "expiresAt"
	// IndexGSI1 serves listings in an order other than the item's sort key
	// (contacts by date added).
	IndexGSI1 = "GSI1"
)

// API is the part of the DynamoDB client the code calls. It is narrow so
// that a benchmark can answer instantly in place of the engine.
type API interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
	TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
	TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error)
}

var _ API = (*dynamodb.Client)(nil)

// Table is the table name and the client, built once per process.
type Table struct {
	DB   API
	Name string
}

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
		o.APIOptions = append(o.APIOptions, callDeadline(co.callTimeout), markIdempotentWrites, retryWritesOnlyIfUnsent)
	})
}

// writeOperations change the table; retrying one whose request may have
// been applied is not safe (see retryWritesOnlyIfUnsent).
var writeOperations = map[string]bool{
	"PutItem": true, "UpdateItem": true, "DeleteItem": true, "BatchWriteItem": true, "TransactWriteItems": true,
}

// retryWritesOnlyIfUnsent lets the SDK retry a write only when the table
// certainly did not apply it: the connection was never made, or the service
// refused it for throughput. After anything else (a reset, an answer cut
// short, a timeout, a 5xx) the write may have been applied; retrying it
// would make a conditional create fail against its own first attempt (a
// false "already exists", or a second record under a fresh id) or apply an
// increment twice. Such a failure goes to the client as a 503 instead.
// Reads are retried as the SDK decides, and so is a transaction carrying a
// ClientRequestToken: DynamoDB applies it once however often it is sent.
func retryWritesOnlyIfUnsent(s *middleware.Stack) error {
	return s.Finalize.Insert(middleware.FinalizeMiddlewareFunc("retryWritesOnlyIfUnsent",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleFinalize(ctx, in)
			idempotent, _ := middleware.GetStackValue(ctx, idempotentWrite{}).(bool)
			if err != nil && writeOperations[awsmiddleware.GetOperationName(ctx)] && !idempotent && !certainlyUnapplied(err) {
				err = notRetryable{err}
			}
			return out, md, err
		}), "Retry", middleware.After)
}

// idempotentWrite marks a call that DynamoDB applies at most once however
// often it is sent.
type idempotentWrite struct{}

// markIdempotentWrites marks transactions that carry a ClientRequestToken.
func markIdempotentWrites(s *middleware.Stack) error {
	return s.Initialize.Add(middleware.InitializeMiddlewareFunc("markIdempotentWrites",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			if tx, ok := in.Parameters.(*dynamodb.TransactWriteItemsInput); ok && tx.ClientRequestToken != nil {
				ctx = middleware.WithStackValue(ctx, idempotentWrite{}, true)
			}
			return next.HandleInitialize(ctx, in)
		}), middleware.After)
}

// certainlyUnapplied reports whether a failed call cannot have changed
// anything: it never reached the table, or the table refused it outright.
func certainlyUnapplied(err error) bool {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return true
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		_, throttled := retry.DefaultThrottleErrorCodes[apiErr.ErrorCode()]
		return throttled || apiErr.ErrorFault() == smithy.FaultClient
	}
	return false
}

// notRetryable marks an error the SDK's retryer must not retry (it honours
// RetryableError before its other rules); the cause stays reachable for
// Classify.
type notRetryable struct{ error }

func (e notRetryable) Unwrap() error        { return e.error }
func (e notRetryable) RetryableError() bool { return false }

// callDeadline puts a deadline on each call's context before the retry loop
// runs, so the deadline covers every attempt and every backoff.
func callDeadline(d time.Duration) func(*middleware.Stack) error {
	return func(s *middleware.Stack) error {
		return s.Initialize.Add(middleware.InitializeMiddlewareFunc("callDeadline",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				ctx, cancel := context.WithTimeout(ctx, d)
				defer cancel()
				return next.HandleInitialize(ctx, in)
			}), middleware.Before)
	}
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

// Key is a primary key of the table.
type Key struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
}

// AV returns the key as DynamoDB attribute values.
func (k Key) AV() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		AttrPK: &types.AttributeValueMemberS{Value: k.PK},
		AttrSK: &types.AttributeValueMemberS{Value: k.SK},
	}
}

// AccountPK is the partition of everything an account owns.
func AccountPK(accountID string) string { return "ACCOUNT#" + accountID }

// CompanyPK is the partition of everything a company owns (its users).
func CompanyPK(companyID string) string { return "COMPANY#" + companyID }

// IsConditionFailed reports whether err is a failed condition expression:
// of a single write, or of a transaction's write (TxConditionFailed).
func IsConditionFailed(err error) bool {
	var cf *types.ConditionalCheckFailedException
	var txf *TxConditionFailed
	return errors.As(err, &cf) || errors.As(err, &txf)
}
