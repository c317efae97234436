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
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"

	"github.com/bizplatform/api/shared/apierror"
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
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
}

var _ API = (*dynamodb.Client)(nil)

// Table is the table name and the client, built once per process.
type Table struct {
	DB   API
	Name string
}

// NewClient builds a DynamoDB client. A non-empty endpoint points it at
// another engine (dynalite, DynamoDB Local); a local engine checks no
// credentials, so unless the environment holds keys it gets placeholder ones
// (rather than probing the credential chain, which can stall on EC2
// metadata).
//
// The SDK's own warnings go to logger (nil: slog.Default) as JSON lines, like
// every other log line, instead of the SDK's plain-text default.
func NewClient(ctx context.Context, endpoint, region string, logger *slog.Logger) (*dynamodb.Client, error) {
	if logger == nil {
		logger = slog.Default()
	}
	opts := []func(*awsconfig.LoadOptions) error{
		awsconfig.WithLogger(sdkLogger{logger}),
		// The SDK's own client, so AWS_CA_BUNDLE and proxy settings still apply.
		awsconfig.WithHTTPClient(awshttp.NewBuildableClient().WithTimeout(10 * time.Second)),
	}
	if region != "" {
		opts = append(opts, awsconfig.WithRegion(region))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("load AWS configuration: %w", err)
	}
	if IsLocalEndpoint(endpoint) && os.Getenv("AWS_ACCESS_KEY_ID") == "" {
		cfg.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
	}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
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

// IsConditionFailed reports whether err is a failed condition expression.
func IsConditionFailed(err error) bool {
	var cf *types.ConditionalCheckFailedException
	return errors.As(err, &cf)
}

// Classify turns a storage failure into the API error the client gets:
// throttling and outages are retryable 503s, anything else is internal.
func Classify(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := apierror.As(err); ok {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return apierror.Unavailable(err, time.Second)
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode() {
		case "ProvisionedThroughputExceededException", "ThrottlingException",
			"RequestLimitExceeded", "InternalServerError", "ServiceUnavailable",
			"LimitExceededException":
			return apierror.Unavailable(err, time.Second)
		}
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return apierror.Unavailable(err, time.Second)
	}
	return apierror.Internal(err)
}
