package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/tools/perf"
)

// CallFigures are one request's DynamoDB calls as the proxy saw them.
type CallFigures struct {
	Status     int    `json:"status"`
	Calls      int    `json:"calls"`
	RoundTrips int    `json:"roundTrips"`
	Ops        string `json:"ops"`
	// Read and write capacity units the engine reported
	// (ReturnConsumedCapacity), a failed conditional write at one unit.
	RCU float64 `json:"rcu"`
	WCU float64 `json:"wcu"`
}

// figuresOf sums up one request's calls.
func figuresOf(status int, calls []perf.Call) CallFigures {
	rcu, wcu := testenv.Capacity(calls)
	return CallFigures{Status: status, Calls: len(calls), RoundTrips: testenv.RoundTrips(calls), Ops: testenv.Ops(calls), RCU: rcu, WCU: wcu}
}

// OperationCalls are an operation's figures on a warm and a cold instance.
type OperationCalls struct {
	Route string      `json:"route"`
	Event string      `json:"event"`
	Warm  CallFigures `json:"warm"`
	Cold  CallFigures `json:"cold"`
}

// CallsResult is what `bench calls` saves.
type CallsResult struct {
	Operations      []OperationCalls `json:"operations"`
	Unauthenticated CallFigures      `json:"unauthenticated"`
}

// runCalls sends each operation's sample event to a fresh server (cold: the
// token was never seen) on one copy of the demo data, and after one warm-up
// request (warm: token cached, admission state known) on another copy, and
// counts what reaches the engine through the counting proxy.
func runCalls(args []string) error {
	var c common
	fs := flag.NewFlagSet("calls", flag.ExitOnError)
	c.register(fs)
	withKey := fs.Bool("idempotency-key", false, "send each POST, PUT and DELETE with an Idempotency-Key (its first request: the claim and the kept answer)")
	_ = fs.Parse(args)
	if err := c.init(); err != nil {
		return err
	}
	ctx := context.Background()
	eng, err := startEngine(ctx, c.root)
	if err != nil {
		return err
	}
	defer eng.stop()
	eng.proxy.Delay = 20 * time.Millisecond
	eng.proxy.Capacity = true
	events, err := perf.ReadEvents(c.root)
	if err != nil {
		return err
	}

	res := CallsResult{}
	byRoute := map[string]*OperationCalls{}
	for _, mode := range []string{"cold", "warm"} {
		table, err := eng.demoTable(ctx)
		if err != nil {
			return err
		}
		proxied := &storage.Table{DB: eng.proxied, Name: table.Name}
		clk := clock.NewManual(time.Now())
		if err := settleStateItems(proxied, clk, events, benchConfig("").Window); err != nil {
			return err
		}
		eng.proxy.Take()
		for _, ev := range events {
			srv, err := newServer(proxied, clk)
			if err != nil {
				return err
			}
			if mode == "warm" {
				if _, err := send(srv, warmUp(ev)); err != nil {
					return err
				}
				eng.proxy.Take()
			}
			req, err := ev.Request("")
			if err != nil {
				return err
			}
			if *withKey && req.Method != http.MethodGet {
				req.Header.Set(idempotency.HeaderKey, "bench-"+ev.File)
			}
			status, err := send(srv, req)
			if err != nil {
				return err
			}
			calls := eng.proxy.Take()
			fig := figuresOf(status, calls)
			if status < 200 || status > 299 {
				return fmt.Errorf("%s (%s) answered %d", ev.File, mode, status)
			}
			oc := byRoute[ev.RouteKey]
			if oc == nil {
				oc = &OperationCalls{Route: ev.RouteKey, Event: ev.File}
				byRoute[ev.RouteKey] = oc
				res.Operations = append(res.Operations, OperationCalls{})
			}
			if mode == "warm" {
				oc.Warm = fig
			} else {
				oc.Cold = fig
			}
		}
		if mode == "warm" {
			srv, err := newServer(proxied, clk)
			if err != nil {
				return err
			}
			req, _ := events[0].Request("")
			req.Header.Del("Authorization")
			status, err := send(srv, req)
			if err != nil {
				return err
			}
			calls := eng.proxy.Take()
			res.Unauthenticated = figuresOf(status, calls)
		}
	}
	for i, ev := range uniqueRoutes(events) {
		res.Operations[i] = *byRoute[ev]
	}
	if err := c.save("calls.json", res); err != nil {
		return err
	}
	printCalls(os.Stdout, res)
	return nil
}

func uniqueRoutes(events []perf.Event) []string {
	seen := map[string]bool{}
	var out []string
	for _, ev := range events {
		if !seen[ev.RouteKey] {
			seen[ev.RouteKey] = true
			out = append(out, ev.RouteKey)
		}
	}
	return out
}

func newServer(table *storage.Table, clk clock.Clock) (*app.Server, error) {
	return newServerWith(benchConfig(table.Name), table, clk)
}

func newServerWith(cfg config.Config, table *storage.Table, clk clock.Clock) (*app.Server, error) {
	deps := app.Deps{Table: table, Clock: clk, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}
	return app.NewServer(cfg, deps, append([]app.Area{warmUpArea}, catalog.Areas...)...)
}

// warmUpOp is the bench's own operation: the pipeline authenticates and
// admits a request to it (a path no operation serves is refused before
// that), and its handler touches no data. A token without its scope gets a
// 403, equally after authentication and admission.
var warmUpOp = operations.Operation{Method: "GET", Path: "/bench-warm-up", Area: "bench", Scope: "contacts.readonly", ValidationStatus: http.StatusUnprocessableEntity}

var warmUpArea = app.Area{Name: "bench", Routes: func(app.Deps) []route.Route {
	return []route.Route{{Op: warmUpOp, Handle: func(w http.ResponseWriter, _ *http.Request) error {
		w.WriteHeader(http.StatusNoContent)
		return nil
	}}}
}}

func send(srv *app.Server, r *http.Request) (int, error) {
	w := httptest.NewRecorder()
	srv.Handler.ServeHTTP(w, r)
	return w.Code, nil
}

// warmUp is a request with ev's token to the bench's own operation: it
// passes authentication and admission (the token's facts are then cached)
// without touching the areas' data.
func warmUp(ev perf.Event) *http.Request {
	r := httptest.NewRequest(warmUpOp.Method, warmUpOp.Path, nil)
	for k, v := range ev.Headers {
		if strings.EqualFold(k, "authorization") || strings.EqualFold(k, "version") {
			r.Header.Set(k, v)
		}
	}
	return r
}

// settleStateItems makes every demo account's admission state item exist and
// be a minute old, as in steady operation: a state item born within seconds
// of a token read costs one more token read (auth.Session.Confirm), which
// happens once per account per state item lifetime (a day of idleness).
// The items count in windows of window (the instances that use them must
// count in the same, or their first admission misses the window).
func settleStateItems(table *storage.Table, clk *clock.Manual, events []perf.Event, window time.Duration) error {
	cfg := benchConfig(table.Name)
	cfg.Window = window
	srv, err := newServerWith(cfg, table, clk)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, ev := range events {
		if seen[ev.Headers["authorization"]] {
			continue
		}
		seen[ev.Headers["authorization"]] = true
		if _, err := send(srv, warmUp(ev)); err != nil {
			return err
		}
	}
	_ = demo.AccountAlpha
	clk.Advance(time.Minute)
	return nil
}

func printCalls(w io.Writer, res CallsResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "operation\twarm calls\twarm rounds\twarm RCU\twarm WCU\tcold calls\tcold rounds\twarm calls in order")
	for _, o := range res.Operations {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%.1f\t%d\t%d\t%s\n", o.Route, o.Warm.Calls, o.Warm.RoundTrips, o.Warm.RCU, o.Warm.WCU, o.Cold.Calls, o.Cold.RoundTrips, o.Warm.Ops)
	}
	fmt.Fprintf(tw, "(no token: %d)\t%d\t%d\t%.1f\t%.1f\t\t\t\n", res.Unauthenticated.Status, res.Unauthenticated.Calls, res.Unauthenticated.RoundTrips, res.Unauthenticated.RCU, res.Unauthenticated.WCU)
	_ = tw.Flush()
}
