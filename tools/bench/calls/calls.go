// Package calls is `bench calls`: each operation's sample event sent to a
// server on the demo data, warm and cold, with the DynamoDB calls, round
// trips and capacity units a counting proxy sees.
package calls

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"text/tabwriter"
	"time"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/tools/bench/kit"
	"github.com/bizplatform/api/tools/perf"
)

// Figures are one request's DynamoDB calls as the proxy saw them.
type Figures struct {
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
func figuresOf(status int, calls []perf.Call) Figures {
	rcu, wcu := testenv.Capacity(calls)
	return Figures{Status: status, Calls: len(calls), RoundTrips: testenv.RoundTrips(calls), Ops: testenv.Ops(calls), RCU: rcu, WCU: wcu}
}

// Operation is an operation's figures on a warm and a cold instance.
type Operation struct {
	Route string  `json:"route"`
	Event string  `json:"event"`
	Warm  Figures `json:"warm"`
	Cold  Figures `json:"cold"`
}

// Result is what `bench calls` saves.
type Result struct {
	Operations      []Operation `json:"operations"`
	Unauthenticated Figures     `json:"unauthenticated"`
}

// Run sends each operation's sample event to a fresh server (cold: the
// token was never seen) on one copy of the demo data, and after one warm-up
// request (warm: token cached, admission state known) on another copy, and
// counts what reaches the engine through the counting proxy.
func Run(args []string) error {
	c := kit.NewCommand("calls")
	withKey := c.Bool("idempotency-key", false, "send each POST, PUT and DELETE with an Idempotency-Key (its first request: the claim and the kept answer)")
	if err := c.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	eng, err := kit.StartEngine(ctx, c.Root)
	if err != nil {
		return err
	}
	defer eng.Stop()
	eng.Proxy.Delay = 20 * time.Millisecond
	eng.Proxy.Capacity = true
	events, err := perf.ReadEvents(c.Root)
	if err != nil {
		return err
	}

	res := Result{}
	byRoute := map[string]*Operation{}
	for _, mode := range []string{"cold", "warm"} {
		table, err := eng.DemoTable(ctx)
		if err != nil {
			return err
		}
		proxied := &storage.Table{DB: eng.Proxied, Name: table.Name}
		clk := clock.NewManual(time.Now())
		if err := kit.SettleStateItems(proxied, clk, events, kit.Config("").Window); err != nil {
			return err
		}
		eng.Proxy.Take()
		for _, ev := range events {
			srv, err := kit.NewServer(proxied, clk)
			if err != nil {
				return err
			}
			if mode == "warm" {
				if _, err := kit.Send(srv, kit.WarmUp(ev)); err != nil {
					return err
				}
				eng.Proxy.Take()
			}
			req, err := ev.Request("")
			if err != nil {
				return err
			}
			if *withKey && req.Method != http.MethodGet {
				req.Header.Set(idempotency.HeaderKey, "bench-"+ev.File)
			}
			status, err := kit.Send(srv, req)
			if err != nil {
				return err
			}
			calls := eng.Proxy.Take()
			fig := figuresOf(status, calls)
			if status < 200 || status > 299 {
				return fmt.Errorf("%s (%s) answered %d", ev.File, mode, status)
			}
			oc := byRoute[ev.RouteKey]
			if oc == nil {
				oc = &Operation{Route: ev.RouteKey, Event: ev.File}
				byRoute[ev.RouteKey] = oc
				res.Operations = append(res.Operations, Operation{})
			}
			if mode == "warm" {
				oc.Warm = fig
			} else {
				oc.Cold = fig
			}
		}
		if mode == "warm" {
			srv, err := kit.NewServer(proxied, clk)
			if err != nil {
				return err
			}
			req, _ := events[0].Request("")
			req.Header.Del("Authorization")
			status, err := kit.Send(srv, req)
			if err != nil {
				return err
			}
			calls := eng.Proxy.Take()
			res.Unauthenticated = figuresOf(status, calls)
		}
	}
	for i, ev := range uniqueRoutes(events) {
		res.Operations[i] = *byRoute[ev]
	}
	if err := c.Save("calls.json", res); err != nil {
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

func printCalls(w io.Writer, res Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "operation\twarm calls\twarm rounds\twarm RCU\twarm WCU\tcold calls\tcold rounds\twarm calls in order")
	for _, o := range res.Operations {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%.1f\t%d\t%d\t%s\n", o.Route, o.Warm.Calls, o.Warm.RoundTrips, o.Warm.RCU, o.Warm.WCU, o.Cold.Calls, o.Cold.RoundTrips, o.Warm.Ops)
	}
	fmt.Fprintf(tw, "(no token: %d)\t%d\t%d\t%.1f\t%.1f\t\t\t\n", res.Unauthenticated.Status, res.Unauthenticated.Calls, res.Unauthenticated.RoundTrips, res.Unauthenticated.RCU, res.Unauthenticated.WCU)
	_ = tw.Flush()
}
