// Package wiring builds what every binary starts with, once per process:
// the configuration, the logger, the one table's client and, for the
// services beside it (SSM, KMS), the AWS configuration. It knows nothing
// of HTTP, so that a binary that serves no request (the webhook deliverer,
// the admin CLI) links no part of the API's assembly (shared/apiserver).
package wiring

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// Deps are what an area's handlers and the other applications need, built
// once per process.
type Deps struct {
	// Table is the one DynamoDB table. The Deps an area's Routes receive
	// hold it as storage.GateWrites makes it: a handler's writes wait for
	// its request's admission (see storage.Admission).
	Table  *storage.Table
	Clock  clock.Clock
	Logger *slog.Logger
	// Secrets seals the secrets users hand the API before they are stored
	// (see app.OpenSecrets); nil where no area keeps any.
	Secrets *secrets.Keeper
}

// Classified is deps with its defaults filled in (the system clock, a
// logger that discards) and its table's errors classified
// (dynamo.Classified): what every server and task works on, so that
// storage errors are returned as they are.
func (d Deps) Classified() Deps {
	if d.Clock == nil {
		d.Clock = clock.System{}
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	}
	d.Table = &storage.Table{DB: dynamo.Classified(d.Table.DB), Name: d.Table.Name}
	return d
}

// NewClientFunc builds the DynamoDB client: dynamo.NewClient (credentials
// from the environment, as in Lambda) or awschain.NewClient (the SDK's
// whole default chain, for the admin CLI).
type NewClientFunc func(ctx context.Context, endpoint, region string, logger *slog.Logger, opts ...dynamo.ClientOption) (*dynamodb.Client, error)

// Connect reads the configuration from getenv and builds the logger and the
// DynamoDB client from the environment: the start of every function.
func Connect(ctx context.Context, getenv func(string) string, logOut io.Writer) (config.Config, Deps, error) {
	return ConnectWith(ctx, getenv, logOut, dynamo.NewClient)
}

// ConnectWith is Connect with another way to build the client.
func ConnectWith(ctx context.Context, getenv func(string) string, logOut io.Writer, newClient NewClientFunc) (config.Config, Deps, error) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return config.Config{}, Deps{}, err
	}
	deps, err := NewDeps(ctx, cfg, logOut, newClient)
	if err != nil {
		return config.Config{}, Deps{}, err
	}
	return cfg, deps, nil
}

// NewDeps builds the deps of a loaded configuration: the logger (JSON lines
// to logOut, at cfg's level) and, with newClient, the client of cfg's table
// at cfg's endpoint.
func NewDeps(ctx context.Context, cfg config.Config, logOut io.Writer, newClient NewClientFunc) (Deps, error) {
	logger := NewLogger(logOut, cfg.LogLevel)
	db, err := newClient(ctx, cfg.Endpoint, cfg.Region, logger, ClientOptions(cfg)...)
	if err != nil {
		return Deps{}, err
	}
	return Deps{Table: &storage.Table{DB: db, Name: cfg.TableName}, Clock: clock.System{}, Logger: logger}, nil
}

// NewLogger is every process's logger: JSON lines to out from level up,
// each line logged with a request's context naming the request (its
// request_id and trace_id).
func NewLogger(out io.Writer, level slog.Leveler) *slog.Logger {
	return slog.New(httpserve.WithIDs(slog.NewJSONHandler(out, &slog.HandlerOptions{Level: level})))
}

// AWSConfigFunc loads the AWS configuration (region, credentials) of a
// service other than the table: dynamo.EnvConfig in the functions,
// awschain.Config in the admin CLI.
type AWSConfigFunc func(ctx context.Context, region string) (aws.Config, error)

// EnvAWSConfig is the functions' AWSConfigFunc: the Lambda environment
// alone (see dynamo.EnvConfig).
func EnvAWSConfig(_ context.Context, region string) (aws.Config, error) {
	return dynamo.EnvConfig(region, false)
}

// ClientOptions are the DynamoDB client's bounds from the configuration.
func ClientOptions(cfg config.Config) []dynamo.ClientOption {
	return []dynamo.ClientOption{dynamo.WithCallTimeout(cfg.DynamoCallTimeout), dynamo.WithMaxAttempts(cfg.DynamoMaxAttempts)}
}

// KMSKeyOpener builds the key source of a KMS key (kmskey.Open): passed
// in by the binaries that keep secrets, so that only they link the KMS
// client.
type KMSKeyOpener func(cfg aws.Config, keyID string) secrets.KeySource

// OpenKeeper builds the keeper of the secrets users hand the API, for who
// (an area, the portal, the deliverer): with the local key file
// SECRETS_LOCAL_KEY_FILE names (created on first use), or with the KMS
// key SECRETS_KEY_ID names, through openKMS (no call is made until a
// secret is sealed or opened). Neither set is an error, so that a binary
// never starts unable to seal or open.
func OpenKeeper(ctx context.Context, cfg config.Config, loadAWS AWSConfigFunc, who string, openKMS KMSKeyOpener) (*secrets.Keeper, error) {
	switch {
	case cfg.SecretsLocalKeyFile != "":
		key, err := secrets.LoadOrCreateKeyFile(cfg.SecretsLocalKeyFile)
		if err != nil {
			return nil, err
		}
		local, err := secrets.NewLocalKey(key)
		if err != nil {
			return nil, err
		}
		return secrets.NewKeeper(local), nil
	case cfg.SecretsKeyID != "":
		awsCfg, err := loadAWS(ctx, cfg.Region)
		if err != nil {
			return nil, fmt.Errorf("the KMS key's client: %w", err)
		}
		return secrets.NewKeeper(openKMS(awsCfg, cfg.SecretsKeyID)), nil
	default:
		return nil, fmt.Errorf("%s keeps secrets users hand it: %w", who, secrets.ErrNoKeeper)
	}
}
