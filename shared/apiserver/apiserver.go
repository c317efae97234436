// Package apiserver assembles a servable API from areas: the same assembly
// runs in each Lambda function (one area), in the local server (every area)
// and in tests. Its Core (the classified table, the limiter, the token
// store) is what the portal and the OAuth server are built on too.
package apiserver

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/failures"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/pipeline"
	"github.com/bizplatform/api/shared/ratelimit"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
)

// Core is what the API and the portal are both built on, once per process:
// the deps (defaults filled in, the table's errors classified), the
// admission limiter and the token store on that table.
type Core struct {
	// Deps hold the table as every server's storage calls see it: each
	// error its client returns is classified (dynamo.Classified), so the
	// authenticator, the limiter, the handlers and the portal return
	// storage errors as they are.
	Deps wiring.Deps
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
func NewCore(cfg config.Config, deps wiring.Deps) Core {
	deps = deps.Classified()
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

// New assembles the pipeline in front of the areas' routes.
func New(cfg config.Config, deps wiring.Deps, areas ...app.Area) (*Server, error) {
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
func functionOf(owner map[string]string, areas []app.Area) func(operation string) string {
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
