package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
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
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// defaultEnginePort is where the local engine listens, so that platformctl
// can reach it (DYNAMODB_LOCAL_PORT overrides).
const defaultEnginePort = 4567

// run serves until ctx is done. Progress goes to out, request logs to logOut.
func run(ctx context.Context, getenv func(string) string, out, logOut io.Writer) error {
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	endpoint := cfg.Endpoint
	var eng engineSettings // the local engine's, when there is one
	if endpoint == "" {
		if eng, err = loadEngineSettings(getenv); err != nil {
			return err
		}
	}
	// The API's port first: when another make run holds it, it holds the
	// engine too, and the message says so before anything starts.
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Port)))
	if errors.Is(err, syscall.EADDRINUSE) {
		return apiPortInUse(cfg.Port, eng, endpoint, launch{getenv})
	}
	if err != nil {
		return fmt.Errorf("listen on port %d (set PORT to use another): %w", cfg.Port, err)
	}
	defer ln.Close() // when returning before serving
	if endpoint == "" {
		engine, err := dynamodblocal.Start(ctx, dynamodblocal.Options{Root: eng.root, DataDir: eng.dataDir, Port: eng.port, Log: os.Stderr})
		if err != nil {
			return engineNotStarted(err, eng, launch{getenv})
		}
		fmt.Fprintf(out, "Local engine: DynamoDB Local %s at %s, data kept in %s\n", dynamodblocal.EngineVersion, engine.Endpoint, eng.dataDir)
		fmt.Fprintf(out, "  (for the CLI: export DYNAMODB_ENDPOINT=%s)\n", engine.Endpoint)
		defer func() {
			if err := engine.Stop(); err != nil {
				fmt.Fprintln(out, "engine:", err)
			}
			fmt.Fprintln(out, "Stopped the local engine.")
		}()
		endpoint = engine.Endpoint
	}

	logger := slog.New(slog.NewJSONHandler(logOut, &slog.HandlerOptions{Level: cfg.LogLevel}))
	db, err := dynamo.NewClient(ctx, endpoint, cfg.Region, logger, app.ClientOptions(cfg)...)
	if err != nil {
		return err
	}
	deps := app.Deps{Table: &storage.Table{DB: db, Name: cfg.TableName}, Clock: clock.System{}, Logger: logger}
	if deps.Secrets, err = openSecrets(ctx, cfg, out); err != nil {
		return err
	}
	srv, err := app.NewServer(cfg, deps, catalog.Areas...)
	if err != nil {
		return err
	}
	// The API reference and the portal beside the API, without a token.
	pages := newPages(api.FindBundle("."))
	portalSite, err := mountPortal(pages, cfg, deps, srv)
	if err != nil {
		return err
	}
	if err := prepareTable(ctx, db, deps, srv, portalSite, endpoint, out); err != nil {
		return err
	}

	httpSrv := newHTTPServer(newSite(pages, srv.Handler), defaultTimeouts(cfg.RequestTimeout))
	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(ln) }()
	fmt.Fprintf(out, "Serving %d operations of %d areas on http://%s (Ctrl-C to stop)\n",
		len(srv.Router.Routes()), len(catalog.Areas), ln.Addr())
	fmt.Fprintf(out, "API reference: http://%s/docs (the document: /openapi.yaml, /openapi.json)\n", ln.Addr())
	fmt.Fprintf(out, "Portal: http://%s/portal\n", ln.Addr())

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	// Stop accepting, let in-flight requests finish (their storage work is
	// bounded by the request deadline), then the deferred engine stop runs:
	// no request ever sees the engine go away under it.
	grace := cfg.RequestTimeout + 5*time.Second
	fmt.Fprintf(out, "Shutting down: finishing in-flight requests (up to %s)...\n", grace)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := httpSrv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = httpSrv.Close()
		fmt.Fprintf(out, "Requests still running after %s were cut off: %v\n", grace, err)
		return nil
	}
	fmt.Fprintln(out, "Every in-flight request finished.")
	return nil
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
	return app.OpenSecrets(ctx, cfg, app.EnvAWSConfig, catalog.Areas...)
}

// prepareTable creates the table on first start and loads the demo dataset
// and tokens into it; later starts find the table and keep its data.
func prepareTable(ctx context.Context, admin storage.TableAdmin, deps app.Deps, srv *app.Server, site *portal.Portal, endpoint string, out io.Writer) error {
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
