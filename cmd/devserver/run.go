package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/dynamodblocal"
	"github.com/bizplatform/api/portal"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

// defaultEnginePort is where the local engine listens, so that platformctl
// can reach it (DYNAMODB_LOCAL_PORT overrides).
const defaultEnginePort = 4567

// run serves until ctx is done. Progress goes to out, request logs to logOut.
func run(ctx context.Context, getenv func(string) string, out, logOut io.Writer) error {
	cfg, eng, err := loadSettings(getenv)
	if err != nil {
		return err
	}
	ln, err := listen(cfg, eng, launch{getenv})
	if err != nil {
		return err
	}
	defer ln.Close() // when returning before serving
	stopEngine, err := startEngine(ctx, &cfg, eng, launch{getenv}, out)
	if err != nil {
		return err
	}
	defer stopEngine()
	logOut, summary := teeMetrics(logOut)
	deps, err := connect(ctx, cfg, out, logOut)
	if err != nil {
		return err
	}
	srv, err := apiserver.New(cfg, deps, catalog.Areas...)
	if err != nil {
		return err
	}
	// The API reference and the portal beside the API, without a token.
	pages := newPages(api.FindBundle("."))
	mountMetrics(pages, summary)
	portalSite, err := mountPortal(pages, cfg, srv)
	if err != nil {
		return err
	}
	mountOAuth(pages, cfg, srv)
	if err := prepareTable(ctx, deps, srv, portalSite, cfg.Endpoint, out); err != nil {
		return dynamo.Unreachable(err, cfg.Endpoint) // its first call to the engine
	}
	stopDeliveries, err := startDeliveries(ctx, cfg, srv, out)
	if err != nil {
		return err
	}
	defer stopDeliveries() // before the engine stops

	return serve(ctx, ln, newSite(pages, srv.Handler), cfg, len(srv.Router.Routes()), out)
}

// loadSettings reads the configuration and, unless DYNAMODB_ENDPOINT names
// an engine, where the local engine listens and keeps its data.
func loadSettings(getenv func(string) string) (config.Config, engineSettings, error) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return config.Config{}, engineSettings{}, err
	}
	if cfg.Endpoint != "" {
		return cfg, engineSettings{}, nil
	}
	eng, err := loadEngineSettings(getenv)
	return cfg, eng, err
}

// listen takes the API's port first: when another make run holds it, it
// holds the engine too, and the message says so before anything starts.
func listen(cfg config.Config, eng engineSettings, l launch) (net.Listener, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Port)))
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, apiPortInUse(cfg.Port, eng, cfg.Endpoint, l)
	}
	if err != nil {
		return nil, fmt.Errorf("listen on port %d (set PORT to use another): %w", cfg.Port, err)
	}
	return ln, nil
}

// startEngine starts DynamoDB Local unless cfg names an engine, and points
// cfg.Endpoint at it. The returned function stops what was started.
func startEngine(ctx context.Context, cfg *config.Config, eng engineSettings, l launch, out io.Writer) (stop func(), err error) {
	if cfg.Endpoint != "" {
		return func() {}, nil
	}
	engine, err := dynamodblocal.Start(ctx, dynamodblocal.Options{Root: eng.root, DataDir: eng.dataDir, Port: eng.port, Log: os.Stderr})
	if err != nil {
		return nil, engineNotStarted(err, eng, l)
	}
	fmt.Fprintf(out, "Local engine: DynamoDB Local %s at %s, data kept in %s\n", dynamodblocal.EngineVersion, engine.Endpoint, eng.dataDir)
	fmt.Fprintf(out, "  (for the CLI: export DYNAMODB_ENDPOINT=%s)\n", engine.Endpoint)
	cfg.Endpoint = engine.Endpoint
	return func() {
		if err := engine.Stop(); err != nil {
			fmt.Fprintln(out, "engine:", err)
		}
		fmt.Fprintln(out, "Stopped the local engine.")
	}, nil
}

// connect builds what every area gets: the logger, the table's client on
// cfg's engine, and the keeper of the secrets users hand the API.
func connect(ctx context.Context, cfg config.Config, out, logOut io.Writer) (wiring.Deps, error) {
	deps, err := wiring.NewDeps(ctx, cfg, logOut, dynamo.NewClient)
	if err != nil {
		return wiring.Deps{}, err
	}
	if deps.Secrets, err = openSecrets(ctx, cfg, out); err != nil {
		return wiring.Deps{}, err
	}
	return deps, nil
}

// serve answers on ln until ctx is done (or the server fails), then shuts
// down.
func serve(ctx context.Context, ln net.Listener, h http.Handler, cfg config.Config, operations int, out io.Writer) error {
	httpSrv := newHTTPServer(h, defaultTimeouts(cfg.RequestTimeout))
	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(ln) }()
	fmt.Fprintf(out, "Serving %d operations of %d areas on http://%s (Ctrl-C to stop)\n", operations, len(catalog.Areas), ln.Addr())
	fmt.Fprintf(out, "API reference: http://%s/docs (the document: /openapi.yaml, /openapi.json; in OpenAPI 3.0: /openapi-3.0.yaml)\n", ln.Addr())
	fmt.Fprintf(out, "Portal: http://%s/portal\n", ln.Addr())
	// platformctl portal invite builds its links on PORTAL_URL: this
	// server's own address, whatever PORT it was given.
	fmt.Fprintf(out, "  (for the CLI's invite links: export PORTAL_URL=http://%s)\n", ln.Addr())
	fmt.Fprintf(out, "Metrics the log lines carry, added up: http://%s%s\n", ln.Addr(), metricsPath)

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown(httpSrv, cfg.RequestTimeout, out)
	return nil
}

// shutdown stops accepting, lets in-flight requests finish (their storage
// work is bounded by the request deadline), and cuts off what still runs
// after that grace. The engine stops after it: no request ever sees the
// engine go away under it.
func shutdown(httpSrv *http.Server, requestTimeout time.Duration, out io.Writer) {
	grace := requestTimeout + 5*time.Second
	fmt.Fprintf(out, "Shutting down: finishing in-flight requests (up to %s)...\n", grace)
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := httpSrv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = httpSrv.Close()
		fmt.Fprintf(out, "Requests still running after %s were cut off: %v\n", grace, err)
		return
	}
	fmt.Fprintln(out, "Every in-flight request finished.")
}

// openSecrets builds the keeper of the secrets users hand the API: with the
// KMS key or key file the environment names, else with the repository's
// .local/secrets.key, created on first start.
func openSecrets(ctx context.Context, cfg config.Config, out io.Writer) (*secrets.Keeper, error) {
	if cfg.SecretsKeyID == "" && cfg.SecretsLocalKeyFile == "" {
		root, err := dynamodblocal.FindRoot(".")
		if err != nil {
			return nil, err
		}
		cfg.SecretsLocalKeyFile = filepath.Join(root, filepath.FromSlash(secrets.LocalKeyFile))
		fmt.Fprintf(out, "Secrets users hand the API are sealed with the key in %s\n", cfg.SecretsLocalKeyFile)
	}
	return app.OpenSecrets(ctx, cfg, wiring.EnvAWSConfig, catalog.Areas...)
}

// prepareTable creates the table on first start and loads the demo dataset
// and tokens into it; later starts find the table and keep its data.
func prepareTable(ctx context.Context, deps wiring.Deps, srv *apiserver.Server, site *portal.Portal, endpoint string, out io.Writer) error {
	admin, ok := deps.Table.DB.(storage.TableAdmin)
	if !ok {
		return fmt.Errorf("the client of table %q cannot create tables", deps.Table.Name)
	}
	created, err := storage.CreateTable(ctx, admin, deps.Table.Name)
	if err != nil {
		return err
	}
	if !created {
		fmt.Fprintf(out, "Table %q found: keeping its data (the demo tokens were printed at first start and are listed in README.md).\n", deps.Table.Name)
		return nil
	}
	ds, err := demo.Default()
	if err != nil {
		return err
	}
	// DynamoDB Local writes each item through to its disk: the demo's
	// contacts and their search index take a while the first time.
	fmt.Fprintf(out, "Table %q created; loading the demo dataset (the first start takes up to a minute)...\n", deps.Table.Name)
	sum, err := demo.Load(ctx, deps, ds, catalog.Areas)
	if err != nil {
		return fmt.Errorf("load the demo dataset: %w", err)
	}
	fmt.Fprintf(out, "Demo dataset loaded: %d accounts, parts %v\n", sum.Accounts, sum.Parts)
	tokens, err := demo.CreateTokens(ctx, srv.Tokens, endpoint)
	if errors.Is(err, demo.ErrNotLocal) {
		fmt.Fprintf(out, "No demo tokens: %v. Create one with platformctl.\n", err)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "Demo tokens (shown once, like every token):")
	for _, t := range tokens {
		fmt.Fprintf(out, "  %-50s %s\n", t.Label, t.Value())
	}
	return printDemoSignIn(ctx, site, endpoint, out)
}
