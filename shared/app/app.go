// Package app assembles a servable API from areas: the same assembly runs in
// each Lambda function (one area), in the local server (every area) and in
// tests. Its Core (the classified table, the limiter, the token store) is
// what the portal is built on too.
package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/failures"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/pipeline"
	"github.com/bizplatform/api/shared/ratelimit"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// Deps are what an area's handlers need, built once per process.
type Deps struct {
	// Table is the one DynamoDB table. The Deps an area's Routes receive
	// hold it as storage.GateWrites makes it: a handler's writes wait for
	// its request's admission (see storage.Admission).
	Table  *storage.Table
	Clock  clock.Clock
	Logger *slog.Logger
	// Secrets seals the secrets users hand the API before they are stored
	// (see OpenSecrets); nil where no area keeps any.
	Secrets *secrets.Keeper
}

// Area is one area of the API (one Lambda function).
type Area struct {
	// Name is the area's name, as in functions/<Name>.
	Name string
	// Routes returns the area's operations bound to their handlers.
	Routes func(Deps) []route.Route
	// Seed loads the area's part of a demo dataset (see internal/demo).
	// Nil when the area has no demo data.
	Seed func(ctx context.Context, deps Deps, data json.RawMessage) error
	// OpenKMSKey, set by areas that keep secrets users hand them, builds
	// the key source of the KMS key that seals them (kmskey.Open): only
	// the functions of such areas link the KMS client. See OpenSecrets.
	OpenKMSKey func(cfg aws.Config, keyID string) secrets.KeySource
	// GuardRetries makes the area's POST, PUT and DELETE operations safe to
	// retry with an Idempotency-Key (idempotency.GuardRoutes). An area with
	// such an operation must set it (NewServer refuses one without); a
	// read-only area leaves it nil, so its function links no code that
	// writes idempotency records and its policy grants no write.
	GuardRetries func(table *storage.Table, clk clock.Clock, logger *slog.Logger, routes []route.Route) []route.Route
	// Events are the event types the area's changes make (one each, in the
	// change's transaction): the area's part of the event catalogue.
	Events []events.Type
}

// DecodeSeed decodes an area's part of a dataset into dst strictly: a
// misspelt field in hand-edited data is an error, not a silently lost value.
// A record that does not decode is a *RecordError naming it and the field.
func DecodeSeed(raw json.RawMessage, dst any) error {
	if err := decodeStrictly(raw, dst); err != nil {
		return locateDecodeError(raw, dst, err)
	}
	return nil
}

// Seeder returns the Seed of an area whose part of a dataset decodes
// (strictly, see DecodeSeed) into a D, and which load checks, completes
// and writes. Errors name the part: "seed contacts: contacts[3] (id c1):
// dateAdded must be an RFC 3339 time".
func Seeder[D any](area string, load func(ctx context.Context, deps Deps, data D) error) func(context.Context, Deps, json.RawMessage) error {
	return func(ctx context.Context, deps Deps, raw json.RawMessage) error {
		var data D
		err := DecodeSeed(raw, &data)
		if err == nil {
			err = load(ctx, deps, data)
		}
		if err != nil {
			return fmt.Errorf("seed %s: %w", area, err)
		}
		return nil
	}
}

// Core is what the API and the portal are both built on, once per process:
// the deps (defaults filled in, the table's errors classified), the
// admission limiter and the token store on that table.
type Core struct {
	// Deps hold the table as every server's storage calls see it: each
	// error its client returns is classified (dynamo.Classified), so the
	// authenticator, the limiter, the handlers and the portal return
	// storage errors as they are.
	Deps Deps
	// Limiter is the admission control the pipeline uses.
	Limiter *ratelimit.Limiter
	// Tokens issues and revokes tokens; it tells the limiter's admission
	// state of every revocation.
	Tokens *auth.Tokens
	// Meter builds the metric members of the servers' log lines
	// (METRICS_NAMESPACE, FUNCTION_NAME_DIMENSION, the function version,
	// METRICS_BY_OPERATION).
	Meter metrics.Meter
}

// NewCore builds the core on deps' table, with cfg's rate limits.
func NewCore(cfg config.Config, deps Deps) Core {
	if deps.Clock == nil {
		deps.Clock = clock.System{}
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	}
	deps.Table = &storage.Table{DB: dynamo.Classified(deps.Table.DB), Name: deps.Table.Name}
	limiter := ratelimit.New(deps.Table, deps.Clock, ratelimit.Limits{Burst: cfg.Burst, Window: cfg.Window, Daily: cfg.Daily})
	return Core{Deps: deps, Limiter: limiter, Tokens: auth.NewTokens(deps.Table, deps.Clock, limiter),
		Meter: metrics.NewMeter(cfg.MetricsNamespace, cfg.FunctionDimension).Versioned(cfg.FunctionVersion).ByOperation(cfg.OperationMetrics)}
}

// Server is an assembled API.
type Server struct {
	Core
	// Handler serves requests through the whole pipeline.
	Handler http.Handler
	// Router lists the routes served.
	Router *route.Router
}

// NewServer assembles the pipeline in front of the areas' routes.
func NewServer(cfg config.Config, deps Deps, areas ...Area) (*Server, error) {
	core := NewCore(cfg, deps)
	deps = core.Deps
	// Handlers read while the pipeline admits the request; their writes
	// wait for admission (see storage.Admission).
	areaDeps := deps
	areaDeps.Table = storage.GateWrites(deps.Table)
	var routes []route.Route
	owner := map[string]string{} // operation -> area, the metrics' Function
	for _, a := range areas {
		rs := a.Routes(areaDeps)
		for _, rt := range rs {
			owner[rt.Op.ID()] = a.Name
		}
		// POST, PUT and DELETE requests sent with an Idempotency-Key run once.
		if a.GuardRetries != nil {
			rs = a.GuardRetries(areaDeps.Table, deps.Clock, deps.Logger, rs)
		} else if i := slices.IndexFunc(rs, func(rt route.Route) bool { return rt.Op.Changes() }); i >= 0 {
			return nil, fmt.Errorf("area %s serves %s but sets no GuardRetries: its retries would run twice", a.Name, rs[i].Op.ID())
		}
		routes = append(routes, rs...)
	}
	router, err := route.NewRouter(routes)
	if err != nil {
		return nil, fmt.Errorf("build router: %w", err)
	}
	handler := pipeline.New(pipeline.Options{
		Logger:  deps.Logger,
		Auth:    auth.NewAuthenticator(core.Tokens, deps.Clock),
		Limiter: core.Limiter,
		Clock:   deps.Clock,
		Routes:  router,
		Metrics: core.Meter.RequestLines(functionOf(owner, areas)),
		// Not through areaDeps' table: a refused request is recorded too.
		Failures: failures.New(deps.Table, deps.Clock),
	}, router.Checked())
	return &Server{Core: core, Handler: httpserve.WithDeadline(handler, cfg.RequestTimeout), Router: router}, nil
}

// unmatchedFunction is the local server's Function of a request that named
// no operation (a function's is its own name).
const unmatchedFunction = "local"

// functionOf names the function serving an operation: its area's
// directory under functions/.
func functionOf(owner map[string]string, areas []Area) func(operation string) string {
	fallback := unmatchedFunction
	if len(areas) == 1 {
		fallback = areas[0].Name
	}
	return func(operation string) string {
		if name, ok := owner[operation]; ok {
			return name
		}
		return fallback
	}
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

// OpenSecrets builds the keeper that seals the secrets the areas keep:
// with the local key file SECRETS_LOCAL_KEY_FILE names (created on first
// use), or with the KMS key SECRETS_KEY_ID names (no call is made until a
// secret is sealed). It is nil when no area keeps secrets (none sets
// OpenKMSKey), and an error when one does and neither is set, so that a
// function never starts unable to seal.
func OpenSecrets(ctx context.Context, cfg config.Config, loadAWS AWSConfigFunc, areas ...Area) (*secrets.Keeper, error) {
	var keeping *Area
	for i := range areas {
		if areas[i].OpenKMSKey != nil {
			keeping = &areas[i]
			break
		}
	}
	switch {
	case keeping == nil:
		return nil, nil
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
		return secrets.NewKeeper(keeping.OpenKMSKey(awsCfg, cfg.SecretsKeyID)), nil
	default:
		return nil, fmt.Errorf("%s keeps secrets users hand it: %w", keeping.Name, secrets.ErrNoKeeper)
	}
}

// ClientOptions are the DynamoDB client's bounds from the configuration.
func ClientOptions(cfg config.Config) []dynamo.ClientOption {
	return []dynamo.ClientOption{dynamo.WithCallTimeout(cfg.DynamoCallTimeout), dynamo.WithMaxAttempts(cfg.DynamoMaxAttempts)}
}
