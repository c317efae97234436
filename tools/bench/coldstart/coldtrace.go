package coldstart

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/tools/bench/kit"
	"github.com/bizplatform/api/tools/perf"
)

// Trace shows where a cold start's time goes, for the two
// yardsticks and each function's first authenticated answer, started in
// turn as in Run: package initialisation (GODEBUG=inittrace=1, in
// runs of their own, which also count garbage collections), the end of initialisation (the first poll of the
// Runtime API), the DynamoDB calls as a proxy in front of the engine sees
// them (no delay added) with the TCP connections opened to it, and the
// answer. Each phase is a median of each round's own figure. The proxy adds
// a hop to every call, so these runs are a little slower than
// Run's, which stay the reference figures.
func Trace(args []string) error {
	c := kit.NewCommand("coldtrace")
	rounds := c.Int("rounds", 9, "starts of each binary per function (and as many with inittrace)")
	only := c.String("area", "", "trace this function only (an area, or portal)")
	arch := c.String("arch", "native", "native or arm64, as for coldstart")
	useTLS := c.Bool("tls", false, "reach the engine over HTTPS, as for coldstart")
	if err := c.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	lab, err := newColdLab(ctx, c.Root, c.Dir, *arch)
	if err != nil {
		return err
	}
	defer lab.close()
	wire, err := startWireTrace(lab.eng.Srv.Endpoint)
	if err != nil {
		return err
	}
	defer wire.close()
	lab.setEnv("DYNAMODB_ENDPOINT", wire.endpoint)
	if *useTLS {
		if err := lab.serveTLS(); err != nil {
			return err
		}
	}

	var largest []string
	for _, fn := range lab.functions(*only) {
		bins := []string{"hello", "getitem", fn.dir}
		traced := make([][]tracedRun, len(bins))
		inits := make([][]initTrace, len(bins))
		for i := 0; i < *rounds; i++ {
			for b, bin := range bins {
				wire.take()
				run, err := lab.start(ctx, bin, fn.authed)
				if err != nil {
					return fmt.Errorf("%s: %w", bin, err)
				}
				calls, conns := wire.take()
				traced[b] = append(traced[b], tracedRun{coldRun: run, calls: calls, conns: conns})
				run, err = lab.start(ctx, bin, fn.authed, "GODEBUG=inittrace=1,gctrace=1")
				if err != nil {
					return fmt.Errorf("%s: %w", bin, err)
				}
				wire.take()
				inits[b] = append(inits[b], parseInitTrace(run.Stderr))
			}
		}
		name := catalog.FunctionName(fn.dir)
		fmt.Printf("\n%s, %d rounds (ms; medians of each round's own figures):\n", name, *rounds)
		printTrace(os.Stdout, []string{"hello", "getitem", name}, traced, inits)
		largest = append(largest, fmt.Sprintf("%s: %s", name, topInits(inits[2], 6)))
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

// lastEnd is when the run's last DynamoDB call ended.
func (r tracedRun) lastEnd() time.Time {
	last := r.calls[0].End
	for _, c := range r.calls {
		if c.End.After(last) {
			last = c.End
		}
	}
	return last
}

// printTrace prints the phases of each binary's runs side by side, then
// each binary's DynamoDB calls as round trips: concurrent calls joined by
// "|", and in brackets the time between one round trip's end and the
// next one's start (the code running in between).
func printTrace(out io.Writer, labels []string, runs [][]tracedRun, inits [][]initTrace) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "\t%s\t\n", strings.Join(labels, "\t"))
	row := func(name string, f func(r tracedRun) (float64, bool)) {
		cells := []string{name}
		for _, rs := range runs {
			var xs []float64
			for _, r := range rs {
				if x, ok := f(r); ok {
					xs = append(xs, x)
				}
			}
			if len(xs) == 0 {
				cells = append(cells, "-")
				continue
			}
			cells = append(cells, fmt.Sprintf("%.1f", kit.Median(xs)))
		}
		fmt.Fprintf(w, "%s\t\n", strings.Join(cells, "\t"))
	}
	cells := []string{"package init (inittrace, own runs)"}
	for _, its := range inits {
		var xs []float64
		for _, it := range its {
			xs = append(xs, it.total)
		}
		cells = append(cells, fmt.Sprintf("%.1f", kit.Median(xs)))
	}
	fmt.Fprintf(w, "%s\t\n", strings.Join(cells, "\t"))
	cells = []string{"garbage collections (gctrace, same runs)"}
	for _, its := range inits {
		var xs []float64
		for _, it := range its {
			xs = append(xs, float64(it.gcs))
		}
		cells = append(cells, fmt.Sprintf("%.0f", kit.Median(xs)))
	}
	fmt.Fprintf(w, "%s\t\n", strings.Join(cells, "\t"))
	row("start to end of init (first poll)", func(r tracedRun) (float64, bool) { return initMs(r.coldRun), true })
	row("first poll to first DynamoDB call", func(r tracedRun) (float64, bool) {
		if len(r.calls) == 0 {
			return 0, false
		}
		return ms(r.calls[0].Start.Sub(r.InitEnd)), true
	})
	row("first call to last call's end", func(r tracedRun) (float64, bool) {
		if len(r.calls) == 0 {
			return 0, false
		}
		return ms(r.lastEnd().Sub(r.calls[0].Start)), true
	})
	row("last call's end (or first poll) to answer", func(r tracedRun) (float64, bool) {
		if len(r.calls) == 0 {
			return ms(r.Answered.Sub(r.InitEnd)), true
		}
		return ms(r.Answered.Sub(r.lastEnd())), true
	})
	row("start to answer", func(r tracedRun) (float64, bool) { return answerMs(r.coldRun), true })
	row("CPU time", func(r tracedRun) (float64, bool) { return cpuMs(r.coldRun), true })
	row("connections opened to DynamoDB", func(r tracedRun) (float64, bool) { return float64(len(r.conns)), true })
	_ = w.Flush()
	for i, rs := range runs {
		if seq := callSequence(rs); seq != "" {
			fmt.Fprintf(out, "  %s calls: %s\n", labels[i], seq)
		}
	}
}

// callSequence describes the runs' DynamoDB calls, for the rounds that made
// the most common sequence: each call's duration (median), concurrent calls
// joined by "|", the gaps between round trips in brackets.
func callSequence(runs []tracedRun) string {
	byOps := map[string][]tracedRun{}
	var order []string
	for _, r := range runs {
		ops := testenv.Ops(r.calls)
		if byOps[ops] == nil {
			order = append(order, ops)
		}
		byOps[ops] = append(byOps[ops], r)
	}
	common := order[0]
	for _, ops := range order[1:] {
		if len(byOps[ops]) > len(byOps[common]) {
			common = ops
		}
	}
	rs := byOps[common]
	if len(rs[0].calls) == 0 {
		return ""
	}
	var b strings.Builder
	groupEnd := rs[0].calls[0].End
	for i, c := range rs[0].calls {
		dur := medianRuns(rs, func(r tracedRun) float64 { return ms(r.calls[i].End.Sub(r.calls[i].Start)) })
		switch {
		case i == 0:
		case c.Start.Before(groupEnd):
			b.WriteString(" | ")
		default:
			gap := medianRuns(rs, func(r tracedRun) float64 {
				end := r.calls[0].End
				for _, p := range r.calls[:i] {
					if p.End.After(end) {
						end = p.End
					}
				}
				return ms(r.calls[i].Start.Sub(end))
			})
			fmt.Fprintf(&b, " [%.1f] ", gap)
		}
		if c.End.After(groupEnd) {
			groupEnd = c.End
		}
		fmt.Fprintf(&b, "%s %.1f", c.Op, dur)
	}
	if len(rs) < len(runs) {
		var other []string
		for _, ops := range order {
			if ops != common {
				other = append(other, fmt.Sprintf("%d× %s", len(byOps[ops]), ops))
			}
		}
		fmt.Fprintf(&b, " (%d of %d rounds; the others: %s)", len(rs), len(runs), strings.Join(other, "; "))
	}
	return b.String()
}

func medianRuns(runs []tracedRun, f func(tracedRun) float64) float64 {
	xs := make([]float64, len(runs))
	for i, r := range runs {
		xs[i] = f(r)
	}
	return kit.Median(xs)
}

// initTrace is a process's package initialisation as GODEBUG=inittrace=1
// prints it: each package's clock time, in milliseconds.
type initTrace struct {
	total float64
	pkgs  map[string]float64
	// gcs is the number of garbage collections before the answer
	// (GODEBUG=gctrace=1).
	gcs int
}

// parseInitTrace reads lines such as
// "init net/http @0.51 ms, 0.12 ms clock, 4096 bytes, 40 allocs" (fields:
// init, package, @start, "ms,", clock, "ms", "clock,", ...).
func parseInitTrace(stderr string) initTrace {
	it := initTrace{pkgs: map[string]float64{}}
	for _, line := range strings.Split(stderr, "\n") {
		f := strings.Fields(line)
		if len(f) > 2 && f[0] == "gc" && strings.HasPrefix(f[2], "@") {
			it.gcs++
			continue
		}
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
		all = append(all, pkg{name, kit.Median(ds)})
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

// take returns the DynamoDB calls and the connections seen so far and
// forgets them. Requests that are no API call (storage.Preconnect's GET of
// the endpoint's root) are left out.
func (w *wireTrace) take() ([]perf.Call, []time.Time) {
	w.mu.Lock()
	conns := w.conns
	w.conns = nil
	w.mu.Unlock()
	calls := slices.DeleteFunc(w.proxy.Take(), func(c perf.Call) bool { return c.Op == "" })
	return calls, conns
}

func (w *wireTrace) close() { _ = w.srv.Close() }
