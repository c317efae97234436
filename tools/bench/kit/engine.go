package kit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/dynamodblocal"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
	"github.com/bizplatform/api/tools/perf"
)

// Engine is a DynamoDB Local of this run, reached directly and through a
// counting proxy.
type Engine struct {
	Srv     *dynamodblocal.Server
	Direct  *dynamodb.Client
	Proxied storage.API
	Proxy   *perf.CountingProxy
	httpSrv *http.Server
}

// StartEngine starts DynamoDB Local (from root's .local) and the counting
// proxy in front of it.
func StartEngine(ctx context.Context, root string) (*Engine, error) {
	srv, err := dynamodblocal.Start(ctx, dynamodblocal.Options{Root: root, Log: os.Stderr})
	if err != nil {
		return nil, err
	}
	e := &Engine{Srv: srv}
	if e.Proxy, err = perf.NewCountingProxy(srv.Endpoint); err != nil {
		e.Stop()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.Stop()
		return nil, err
	}
	e.httpSrv = &http.Server{Handler: e.Proxy, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = e.httpSrv.Serve(ln) }()
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	if e.Direct, err = dynamo.NewClient(ctx, srv.Endpoint, "us-east-1", quiet); err != nil {
		e.Stop()
		return nil, err
	}
	if e.Proxied, err = dynamo.NewClient(ctx, "http://"+ln.Addr().String(), "us-east-1", quiet); err != nil {
		e.Stop()
		return nil, err
	}
	return e, nil
}

// Stop stops the proxy and the engine.
func (e *Engine) Stop() {
	if e.httpSrv != nil {
		_ = e.httpSrv.Close()
	}
	_ = e.Srv.Stop()
}

// DemoTable creates a fresh table holding the demo dataset and demo tokens.
func (e *Engine) DemoTable(ctx context.Context) (*storage.Table, error) {
	table := &storage.Table{DB: e.Direct, Name: "bench-" + RandomHex(6)}
	if _, err := storage.CreateTable(ctx, e.Direct, table.Name); err != nil {
		return nil, err
	}
	keeper, err := secrets.NewEphemeralKeeper() // the data is thrown away after the run
	if err != nil {
		return nil, err
	}
	deps := wiring.Deps{Table: table, Clock: clock.System{}, Secrets: keeper}
	ds, err := demo.Default()
	if err != nil {
		return nil, err
	}
	if _, err := demo.Load(ctx, deps, ds, catalog.Areas); err != nil {
		return nil, fmt.Errorf("load the demo dataset: %w", err)
	}
	srv, err := apiserver.New(Config(table.Name), deps)
	if err != nil {
		return nil, err
	}
	if _, err := demo.CreateTokens(ctx, srv.Tokens, e.Srv.Endpoint); err != nil {
		return nil, err
	}
	return table, nil
}

// Config has limits no measurement reaches.
func Config(tableName string) config.Config {
	return config.Config{TableName: tableName, Burst: 1_000_000, Window: 10 * time.Second, Daily: 100_000_000}
}

// RandomHex is n random bytes in hexadecimal: a table name of this run.
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
