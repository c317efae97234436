package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/tools/perf"
)

// runColdTrace shows where a cold start's time goes, for the yardsticks and
// each function's first authenticated answer: package initialisation
// (GODEBUG=inittrace=1, runs of their own), the end of initialisation (the
// first poll of the Runtime API), each DynamoDB call as the engine's side of
// a proxy sees it (no delay added) with the TCP connections opened, and the
// answer. Medians over the rounds, milliseconds from process start. The
// proxy adds a hop to every call, so these runs are a little slower than
// `bench coldstart`'s, which stay the reference figures.
func runColdTrace(args []string) error {
	var c common
	fs := flag.NewFlagSet("coldtrace", flag.ExitOnError)
	c.register(fs)
	rounds := fs.Int("rounds", 9, "starts of each binary per function (and as many with inittrace)")
	only := fs.String("area", "", "trace this function only (an area, or portal)")
	arch := fs.String("arch", "native", "native or arm64, as for coldstart")
	_ = fs.Parse(args)
	if err := c.init(); err != nil {
		return err
	}
	ctx := context.Background()
	lab, err := newColdLab(ctx, c.root, c.out, *arch)
	if err != nil {
		return err
	}
	defer lab.close()
	wire, err := startWireTrace(lab.eng.srv.Endpoint)
	if err != nil {
		return err
	}
	defer wire.close()
	lab.setEnv("DYNAMODB_ENDPOINT", wire.endpoint)

	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	var largest []string
	fmt.Fprintln(w, "binary\tpackage init\tinit end (first poll)\tfirst call at\tDynamoDB calls (start-end)\tconnections\tanswer\tlast call to answer\t")
	for _, fn := range lab.functions(*only) {
		for _, b := range []struct{ label, bin string }{
			{"hello", "hello"}, {"getitem", "getitem"}, {catalog.FunctionName(fn.dir), fn.dir},
		} {
			var traced []tracedRun
			var inits []initTrace
			for i := 0; i < *rounds; i++ {
				wire.take()
				run, err := lab.start(ctx, b.bin, fn.authed)
				if err != nil {
					return fmt.Errorf("%s: %w", b.bin, err)
				}
				calls, conns := wire.take()
				traced = append(traced, tracedRun{coldRun: run, calls: calls, conns: conns})
				run, err = lab.start(ctx, b.bin, fn.authed, "GODEBUG=inittrace=1")
				if err != nil {
					return fmt.Errorf("%s: %w", b.bin, err)
				}
				wire.take()
				inits = append(inits, parseInitTrace(run.Stderr))
			}
			printTrace(w, b.label, traced, inits)
			if b.bin == fn.dir {
				largest = append(largest, fmt.Sprintf("%s: %s", b.label, topInits(inits, 6)))
			}
		}
		_ = w.Flush()
	}
	fmt.Println("\npackage initialisation, the longest (ms, medians):")
	for _, l := range largest {
		fmt.Println("  " + l)
	}
	return nil
}

// tracedRun is a cold start with the DynamoDB calls it made and the
// connections it opened.
type tracedRun struct {
	coldRun
	calls []perf.Call
	conns []time.Time
}

func printTrace(w *tabwriter.Writer, label string, runs []tracedRun, inits []initTrace) {
	var initClock []float64
	for _, it := range inits {
		initClock = append(initClock, it.total)
	}
	since := func(r tracedRun, t time.Time) float64 { return ms(t.Sub(r.Start)) }
	// The calls' order can vary between rounds (concurrent calls); the
	// figures are of the rounds with the most common sequence.
	byOps := map[string][]tracedRun{}
	var order []string
	for _, r := range runs {
		ops := perf.Ops(r.calls)
		if byOps[ops] == nil {
			order = append(order, ops)
		}
		byOps[ops] = append(byOps[ops], r)
	}
	common := byOps[order[0]]
	for _, ops := range order[1:] {
		if len(byOps[ops]) > len(common) {
			common = byOps[ops]
		}
	}
	var calls []string
	firstCall, lastEnd := "-", "-"
	if n := len(common[0].calls); n > 0 {
		for i := 0; i < n; i++ {
			start := medianRuns(common, func(r tracedRun) float64 { return since(r, r.calls[i].Start) })
			end := medianRuns(common, func(r tracedRun) float64 { return since(r, r.calls[i].End) })
			calls = append(calls, fmt.Sprintf("%s %.1f-%.1f", common[0].calls[i].Op, start, end))
		}
		firstCall = fmt.Sprintf("%.1f", medianRuns(common, func(r tracedRun) float64 { return since(r, r.calls[0].Start) }))
		lastEnd = fmt.Sprintf("%.1f", medianRuns(common, func(r tracedRun) float64 {
			last := r.calls[0].End
			for _, c := range r.calls {
				if c.End.After(last) {
					last = c.End
				}
			}
			return ms(r.Answered.Sub(last))
		}))
	}
	var conns []string
	for i := range common[0].conns {
		if i >= 4 {
			conns = append(conns, "...")
			break
		}
		conns = append(conns, fmt.Sprintf("%.1f", medianRuns(common, func(r tracedRun) float64 {
			if i >= len(r.conns) {
				return since(r, r.Answered)
			}
			return since(r, r.conns[i])
		})))
	}
	if len(conns) == 0 {
		conns = []string{"-"}
	}
	callText := strings.Join(calls, ", ")
	if callText == "" {
		callText = "-"
	}
	fmt.Fprintf(w, "%s\t%.1f\t%.1f\t%s\t%s\t%s\t%.1f\t%s\t\n", label, median(initClock),
		medianRuns(runs, func(r tracedRun) float64 { return initMs(r.coldRun) }),
		firstCall, callText, strings.Join(conns, " "),
		medianRuns(runs, func(r tracedRun) float64 { return answerMs(r.coldRun) }), lastEnd)
	if n := len(runs) - len(common); n > 0 {
		fmt.Fprintf(w, "\t\t\t\t(%d of %d rounds made their calls in another order)\t\t\t\t\n", n, len(runs))
	}
}

func medianRuns(runs []tracedRun, f func(tracedRun) float64) float64 {
	xs := make([]float64, len(runs))
	for i, r := range runs {
		xs[i] = f(r)
	}
	return median(xs)
}

// initTrace is a process's package initialisation as GODEBUG=inittrace=1
// prints it: each package's clock time, in milliseconds.
type initTrace struct {
	total float64
	pkgs  map[string]float64
}

// parseInitTrace reads lines such as
// "init net/http @0.51 ms, 0.12 ms clock, 4096 bytes, 40 allocs" (fields:
// init, package, @start, "ms,", clock, "ms", "clock,", ...).
func parseInitTrace(stderr string) initTrace {
	it := initTrace{pkgs: map[string]float64{}}
	for _, line := range strings.Split(stderr, "\n") {
		f := strings.Fields(line)
		if len(f) < 7 || f[0] != "init" || f[6] != "clock," {
			continue
		}
		clock, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			continue
		}
		it.total += clock
		it.pkgs[f[1]] += clock
	}
	return it
}

// topInits names the n packages whose initialisation took longest (medians).
func topInits(inits []initTrace, n int) string {
	per := map[string][]float64{}
	for _, it := range inits {
		for p, d := range it.pkgs {
			per[p] = append(per[p], d)
		}
	}
	type pkg struct {
		name string
		ms   float64
	}
	var all []pkg
	for name, ds := range per {
		for len(ds) < len(inits) {
			ds = append(ds, 0)
		}
		all = append(all, pkg{name, median(ds)})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ms > all[j].ms })
	var out []string
	for i := 0; i < n && i < len(all); i++ {
		out = append(out, fmt.Sprintf("%s %.2f", all[i].name, all[i].ms))
	}
	return strings.Join(out, ", ")
}

// wireTrace is a counting proxy in front of the engine (no delay) that also
// records when each TCP connection to it was opened.
type wireTrace struct {
	proxy    *perf.CountingProxy
	srv      *http.Server
	endpoint string

	mu    sync.Mutex
	conns []time.Time
}

func startWireTrace(upstream string) (*wireTrace, error) {
	proxy, err := perf.NewCountingProxy(upstream)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	w := &wireTrace{proxy: proxy, endpoint: "http://" + ln.Addr().String()}
	w.srv = &http.Server{Handler: proxy, ReadHeaderTimeout: 10 * time.Second,
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				w.mu.Lock()
				w.conns = append(w.conns, time.Now())
				w.mu.Unlock()
			}
		}}
	go func() { _ = w.srv.Serve(ln) }()
	return w, nil
}

// take returns the calls and connections seen so far and forgets them.
func (w *wireTrace) take() ([]perf.Call, []time.Time) {
	w.mu.Lock()
	conns := w.conns
	w.conns = nil
	w.mu.Unlock()
	return w.proxy.Take(), conns
}

func (w *wireTrace) close() { _ = w.srv.Close() }
