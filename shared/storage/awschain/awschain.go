// Package awschain builds the DynamoDB client from the AWS SDK's whole
// default configuration chain: shared config and credentials files,
// profiles, SSO, web identity, container and instance roles. It is for the
// admin CLI, which people run with their own profiles; the functions read
// their credentials from the Lambda environment (dynamo.NewClient) and do
// not link this chain, whose initialisation would slow every cold start.
package awschain

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/bizplatform/api/shared/storage/dynamo"
)

// NewClient is dynamo.NewClient with the credentials and region the
// default chain finds. A local engine checks no credentials, so unless the
// environment holds keys it gets placeholder ones (rather than probing the
// chain, which can stall on instance metadata).
func NewClient(ctx context.Context, endpoint, region string, logger *slog.Logger, opts ...dynamo.ClientOption) (*dynamodb.Client, error) {
	cfg, err := Config(ctx, region, dynamo.IsLocalEndpoint(endpoint))
	if err != nil {
		return nil, err
	}
	return dynamo.NewClientFromConfig(cfg, endpoint, logger, opts...), nil
}

// Config is the AWS configuration the default chain finds (dynamo.EnvConfig
// with the whole chain). For a local engine (local) without keys in the
// environment, the credentials are placeholders.
func Config(ctx context.Context, region string, local bool) (aws.Config, error) {
	var loadOpts []func(*awsconfig.LoadOptions) error
	if region != "" {
		loadOpts = append(loadOpts, awsconfig.WithRegion(region))
	}
	if local && os.Getenv("AWS_ACCESS_KEY_ID") == "" {
		loadOpts = append(loadOpts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("local", "local", "")))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("load AWS configuration: %w", err)
	}
	return cfg, nil
}
