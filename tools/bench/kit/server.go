package kit

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
	"github.com/bizplatform/api/tools/perf"
)

// NewServer is every area, and the bench's warm-up operation, on table
// with Config's limits.
func NewServer(table *storage.Table, clk clock.Clock) (*apiserver.Server, error) {
	return NewServerWith(Config(table.Name), table, clk)
}

// NewServerWith is NewServer with cfg.
func NewServerWith(cfg config.Config, table *storage.Table, clk clock.Clock) (*apiserver.Server, error) {
	deps := wiring.Deps{Table: table, Clock: clk, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}
	return apiserver.New(cfg, deps, append([]app.Area{warmUpArea}, catalog.Areas...)...)
}

// warmUpOp is the bench's own operation: the pipeline authenticates and
// admits a request to it (a path no operation serves is refused before
// that), and its handler touches no data. A token without its scope gets a
// 403, equally after authentication and admission.
var warmUpOp = operations.Operation{Method: "GET", Path: "/bench-warm-up", Area: "bench", Scope: "contacts.readonly", ValidationStatus: http.StatusUnprocessableEntity}

var warmUpArea = app.Area{Name: "bench", Routes: func(wiring.Deps) []route.Route {
	return []route.Route{{Op: warmUpOp, Handle: func(w http.ResponseWriter, _ *http.Request) error {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}}}
}}

// Send serves r in process and returns the answer's status.
func Send(srv *apiserver.Server, r *http.Request) (int, error) {
	w := httptest.NewRecorder()
	srv.Handler.ServeHTTP(w, r)
	return w.Code, nil
}

// WarmUp is a request with ev's token to the bench's own operation: it
// passes authentication and admission (the token's facts are then cached)
// without touching the areas' data.
func WarmUp(ev perf.Event) *http.Request {
	r := httptest.NewRequest(warmUpOp.Method, warmUpOp.Path, nil)
	for k, v := range ev.Headers {
		if strings.EqualFold(k, "authorization") || strings.EqualFold(k, "version") {
			r.Header.Set(k, v)
		}
	}
	return r
}

// SettleStateItems makes every demo account's admission state item exist and
// be a minute old, as in steady operation: a state item born within seconds
// of a token read costs one more token read (auth.Session.Confirm), which
// happens once per account per state item lifetime (a day of idleness).
// The items count in windows of window (the instances that use them must
// count in the same, or their first admission misses the window).
func SettleStateItems(table *storage.Table, clk *clock.Manual, events []perf.Event, window time.Duration) error {
	cfg := Config(table.Name)
	cfg.Window = window
	srv, err := NewServerWith(cfg, table, clk)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, ev := range events {
		if seen[ev.Headers["authorization"]] {
			continue
		}
		seen[ev.Headers["authorization"]] = true
		if _, err := Send(srv, WarmUp(ev)); err != nil {
			return err
		}
	}
	clk.Advance(time.Minute)
	return nil
}
