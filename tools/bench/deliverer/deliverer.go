// Package deliverer is `bench deliverer`: what one dead receiver costs
// the webhook deliverer's other receivers, and what receivers that flood
// their answers cost its memory, on a DynamoDB Local table of this run.
//
// Fairness: account M's endpoint never answers (it takes the connection
// and says nothing) and has a backlog of deliveries; account Q's endpoint
// answers at once. Q's events are written one every 250 ms while M's keep
// coming too, and each Q event's time from its write to its receipt is
// measured, for each backlog, as the local server runs the deliverer
// (-mode local: its loop every 2 s) and as it runs deployed (-mode
// stream: each event handed to DeliverNamed as the table's stream names
// it, one batch after the other like one stream shard, beside the
// minute's sweep; stream10: as the template's ParallelizationFactor of 10
// has Lambda run a shard, 10 batches at once, each event's by its
// partition key, in order per key, each in an execution environment, a
// deliverer, of its own).
//
// Memory: -flood receivers answer 200, then send header lines without
// end; one sweep attempts a delivery to each at once, and the heap in use
// above its start is sampled every 5 ms: its peak is printed.
package deliverer

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/tools/bench/kit"
	"github.com/bizplatform/api/webhooks"
)

// Fairness is one backlog's figures: Q's events' times from write to
// receipt, in milliseconds.
type Fairness struct {
	Mode     string  `json:"mode"`
	Backlog  int     `json:"backlog"`
	QEvents  int     `json:"qEvents"`
	Received int     `json:"received"`
	P50Ms    float64 `json:"p50Ms"`
	P95Ms    float64 `json:"p95Ms"`
	MaxMs    float64 `json:"maxMs"`
}

// Memory is the flood's figures.
type Memory struct {
	Receivers int `json:"receivers"`
	Attempts  int `json:"attempts"`
	// PeakMB is the peak heap in use above the start, sampled every 5 ms.
	PeakMB float64 `json:"peakHeapAboveStartMB"`
	// PeakRSSMB is the process's resident memory's peak above its start
	// (Linux: VmHWM after clear_refs; 0 elsewhere).
	PeakRSSMB float64 `json:"peakRssAboveStartMB"`
	// AllocMB is what the sweep allocated in all.
	AllocMB float64 `json:"allocatedMB"`
	Seconds float64 `json:"seconds"`
}

// Results are the command's figures.
type Results struct {
	Fairness []Fairness `json:"fairness"`
	Memory   *Memory    `json:"memory,omitempty"`
}

// taskDelete is the event type the run writes, with the fields it carries.
var taskDelete = events.Type{Name: "TaskDelete", Scope: "contacts.readonly", Version: 1, Fields: map[string]string{}}

// Run is `bench deliverer`.
func Run(args []string) error {
	cmd := kit.NewCommand("deliverer")
	modes := cmd.String("mode", "local,stream,stream10", "how the deliverer runs: local (make run's loop), stream (deployed: one stream shard's batches and the minute's sweep), stream10 (the same, 10 batches of the shard at once), comma-separated")
	backlogs := cmd.String("backlogs", "0,24,100", "M's backlogs of deliveries to its dead receiver, comma-separated")
	span := cmd.Duration("for", 15*time.Second, "how long Q's events are written")
	flood := cmd.Int("flood", 64, "receivers flooding their answers' headers, attempted at once (0: no memory run)")
	if err := cmd.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	engine, err := kit.StartEngine(ctx, cmd.Root)
	if err != nil {
		return err
	}
	defer engine.Stop()
	var res Results
	for _, mode := range strings.Split(*modes, ",") {
		for _, b := range strings.Split(*backlogs, ",") {
			var backlog int
			if _, err := fmt.Sscan(b, &backlog); err != nil {
				return fmt.Errorf("-backlogs: %q is not a number", b)
			}
			f, err := fairness(ctx, engine, mode, backlog, *span)
			if err != nil {
				return fmt.Errorf("%s, backlog %d: %w", mode, backlog, err)
			}
			res.Fairness = append(res.Fairness, f)
			fmt.Fprintf(os.Stderr, "%s backlog %d: p50 %.0f ms, max %.0f ms\n", mode, backlog, f.P50Ms, f.MaxMs)
		}
	}
	if *flood > 0 {
		m, err := memory(ctx, engine, *flood)
		if err != nil {
			return fmt.Errorf("flood: %w", err)
		}
		res.Memory = &m
	}
	print(os.Stdout, res)
	return cmd.Save("deliverer.json", res)
}

func print(w io.Writer, res Results) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode\tM's dead backlog\tQ events\treceived\tp50 ms\tp95 ms\tmax ms\t")
	for _, f := range res.Fairness {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.0f\t%.0f\t%.0f\t\n", f.Mode, f.Backlog, f.QEvents, f.Received, f.P50Ms, f.P95Ms, f.MaxMs)
	}
	_ = tw.Flush()
	if m := res.Memory; m != nil {
		fmt.Fprintf(w, "\n%d receivers flooding their answers' headers, %d attempts: peak heap %.1f MB and peak resident memory %.1f MB above the start, %.0f MB allocated, %.1f s\n",
			m.Receivers, m.Attempts, m.PeakMB, m.PeakRSSMB, m.AllocMB, m.Seconds)
	}
}

// run is one measurement's table, deliverer and accounts.
type run struct {
	table *storage.Table
	clock clock.Clock
	key   ed25519.PrivateKey
	d     *webhooks.Deliverer
	store *endpoints.Store
}

func newRun(ctx context.Context, engine *kit.Engine) (*run, error) {
	table := &storage.Table{DB: engine.Direct, Name: "bench-deliverer-" + kit.RandomHex(4)}
	if _, err := storage.CreateTable(ctx, engine.Direct, table.Name); err != nil {
		return nil, err
	}
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		return nil, err
	}
	c := clock.System{}
	r := &run{table: table, clock: c, key: key, store: endpoints.New(table, c, true)}
	r.d, err = r.deliverer()
	return r, err
}

// deliverer is a deliverer of the run's table: one process's.
func (r *run) deliverer() (*webhooks.Deliverer, error) {
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	return webhooks.New(r.table, r.clock, r.key, nil, quiet, metrics.NewMeter("", "")), nil
}

// endpoint adds account's endpoint taking TaskDelete at url.
func (r *run) endpoint(ctx context.Context, account, url string) error {
	types := []string{taskDelete.Name}
	_, err := r.store.Add(ctx, account, endpoints.Input{URL: &url, Events: &types}, auth.Operator)
	return err
}

// write commits an event of account about id, as a change does, and
// returns its key.
func (r *run) write(ctx context.Context, account, id string) (storage.Key, error) {
	tx := r.table.Tx()
	owner := events.Owner{LocationID: account}
	taskDelete.Add(tx, owner, map[string]string{"id": id}, r.clock.Now())
	if err := tx.Commit(ctx); err != nil {
		return storage.Key{}, err
	}
	page, _, err := events.Page(ctx, r.table, owner, events.Filter{}, 1, "")
	if err != nil || len(page) == 0 {
		return storage.Key{}, fmt.Errorf("the event of %s is not listed: %v", id, err)
	}
	return page[0].Key(), nil
}

// dead takes connections and answers nothing until it is closed.
func dead() (string, func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go func() { _, _ = io.Copy(io.Discard, c) }()
		}
	}()
	return "http://" + l.Addr().String() + "/in", func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}, nil
}

// arrivals is Q's receiver: when each event (by its body's id) arrived.
type arrivals struct {
	mu sync.Mutex
	at map[string]time.Time
}

func (a *arrivals) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var ev struct{ ID string }
	_ = json.NewDecoder(r.Body).Decode(&ev)
	a.mu.Lock()
	if _, ok := a.at[ev.ID]; !ok {
		a.at[ev.ID] = time.Now()
	}
	a.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func fairness(ctx context.Context, engine *kit.Engine, mode string, backlog int, span time.Duration) (Fairness, error) {
	r, err := newRun(ctx, engine)
	if err != nil {
		return Fairness{}, err
	}
	deadURL, closeDead, err := dead()
	if err != nil {
		return Fairness{}, err
	}
	defer closeDead()
	q := &arrivals{at: map[string]time.Time{}}
	qSrv := &http.Server{Handler: q, ReadHeaderTimeout: 5 * time.Second}
	ql, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Fairness{}, err
	}
	go func() { _ = qSrv.Serve(ql) }()
	defer qSrv.Close()
	if err := r.endpoint(ctx, "acctM", deadURL); err != nil {
		return Fairness{}, err
	}
	if err := r.endpoint(ctx, "acctQ", "http://"+ql.Addr().String()+"/in"); err != nil {
		return Fairness{}, err
	}
	var named chan storage.Key // the stream's records, in order
	for i := range backlog {
		if _, err := r.write(ctx, "acctM", fmt.Sprintf("m-old-%d", i)); err != nil {
			return Fairness{}, err
		}
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	switch mode {
	case "local":
		wg.Go(func() { r.d.Loop(runCtx, 2*time.Second) })
	case "stream", "stream10":
		// The backlog is what the stream handed on before the run, from
		// batches that did not attempt it: its deliveries wait, due, for
		// the sweep.
		if err := r.backlog(ctx, "acctM"); err != nil {
			return Fairness{}, err
		}
		named = make(chan storage.Key, 10_000)
		concurrent := 1
		if mode == "stream10" {
			concurrent = 10
		}
		wg.Go(func() {
			if err := shard(runCtx, r, concurrent, named); err != nil {
				fmt.Fprintln(os.Stderr, "stream:", err)
			}
		})
		wg.Go(func() {
			for runCtx.Err() == nil {
				for {
					n, err := r.d.Sweep(runCtx)
					if err != nil || n == 0 {
						break
					}
				}
				select {
				case <-runCtx.Done():
				case <-time.After(time.Minute):
				}
			}
		})
	default:
		return Fairness{}, fmt.Errorf("-mode: %q is neither local nor stream", mode)
	}
	written := map[string]time.Time{}
	tick := time.NewTicker(250 * time.Millisecond)
	end := time.Now().Add(span)
	for i := 0; time.Now().Before(end); i++ {
		<-tick.C
		id := fmt.Sprintf("q-%d", i)
		key, err := r.write(ctx, "acctQ", id)
		if err != nil {
			return Fairness{}, err
		}
		written[id] = time.Now()
		if named != nil {
			named <- key
		}
		if i%2 == 0 { // M's events keep coming as well
			mkey, err := r.write(ctx, "acctM", fmt.Sprintf("m-%d", i))
			if err != nil {
				return Fairness{}, err
			}
			if named != nil {
				named <- mkey
			}
		}
	}
	tick.Stop()
	// Time for the last to arrive.
	time.Sleep(12 * time.Second)
	stop()
	closeDead()
	wg.Wait()
	f := Fairness{Mode: mode, Backlog: backlog, QEvents: len(written)}
	var ms []float64
	q.mu.Lock()
	for id, w := range written {
		at, ok := q.at[id]
		if !ok {
			continue
		}
		f.Received++
		ms = append(ms, float64(at.Sub(w).Milliseconds()))
	}
	q.mu.Unlock()
	sort.Float64s(ms)
	if len(ms) > 0 {
		f.P50Ms, f.P95Ms, f.MaxMs = ms[len(ms)/2], ms[len(ms)*95/100], ms[len(ms)-1]
	}
	return f, nil
}

// shard hands the keys named to DeliverNamed as Lambda does one stream
// shard's records, concurrent batches at once: each key to the batcher of
// its partition key's hash, each batcher with a deliverer of its own.
func shard(ctx context.Context, r *run, concurrent int, named <-chan storage.Key) error {
	lanes := make([]chan storage.Key, concurrent)
	var wg sync.WaitGroup
	for i := range lanes {
		lanes[i] = make(chan storage.Key, 10_000)
		d := r.d
		if i > 0 {
			var err error
			if d, err = r.deliverer(); err != nil {
				return err
			}
		}
		wg.Go(func() { stream(ctx, d, lanes[i]) })
	}
	defer wg.Wait()
	for {
		select {
		case <-ctx.Done():
			return nil
		case k := <-named:
			h := fnv.New32a()
			h.Write([]byte(k.PK))
			lanes[h.Sum32()%uint32(concurrent)] <- k
		}
	}
}

// backlog hands account's waiting events on, due now and unattempted.
func (r *run) backlog(ctx context.Context, account string) error {
	eps, err := r.store.List(ctx, account)
	if err != nil {
		return err
	}
	var receivers []deliveries.Receiver
	for _, e := range eps {
		receivers = append(receivers, e.Receiver())
	}
	for n := range events.FanOutShards {
		waiting, err := events.WaitingFanOut(ctx, r.table, n, 1000)
		if err != nil {
			return err
		}
		for _, ev := range waiting {
			if ev.Owner.LocationID != account {
				continue
			}
			if _, err := deliveries.FanOut(ctx, r.table, receivers, ev, r.clock.Now(), time.Time{}); err != nil {
				return err
			}
		}
	}
	return nil
}

// stream hands the keys named to DeliverNamed as one stream batcher does:
// a batch of what was written while the last batch ran (at most 100, in a
// window of a second), one batch after the other.
func stream(ctx context.Context, d *webhooks.Deliverer, named <-chan storage.Key) {
	for {
		var batch []storage.Key
		select {
		case <-ctx.Done():
			return
		case k := <-named:
			batch = append(batch, k)
		}
		window := time.After(time.Second)
	more:
		for len(batch) < 100 {
			select {
			case k := <-named:
				batch = append(batch, k)
			case <-window:
				break more
			}
		}
		_, _ = d.DeliverNamed(ctx, batch)
	}
}

// flooder answers every request 200, then header lines without end.
func flooder() (string, func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				req, err := http.ReadRequest(br)
				if err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, req.Body)
				w := bufio.NewWriter(c)
				line := "X-Flood: " + strings.Repeat("f", 100) + "\r\n"
				_, _ = w.WriteString("HTTP/1.1 200 OK\r\n")
				for {
					if _, err := w.WriteString(line); err != nil {
						return
					}
				}
			}()
		}
	}()
	return "http://" + l.Addr().String(), func() { l.Close() }, nil
}

func memory(ctx context.Context, engine *kit.Engine, receivers int) (Memory, error) {
	r, err := newRun(ctx, engine)
	if err != nil {
		return Memory{}, err
	}
	base, closeFlood, err := flooder()
	if err != nil {
		return Memory{}, err
	}
	defer closeFlood()
	// One endpoint per account: each its own receiver.
	for i := range receivers {
		account := fmt.Sprintf("acctFlood%03d", i)
		if err := r.endpoint(ctx, account, fmt.Sprintf("%s/in/%d", base, i)); err != nil {
			return Memory{}, err
		}
		if _, err := r.write(ctx, account, fmt.Sprintf("f-%d", i)); err != nil {
			return Memory{}, err
		}
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	start, peak, allocated := ms.HeapInuse, ms.HeapInuse, ms.TotalAlloc
	rssStart := resetPeakRSS()
	done := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
			}
		}
	})
	began := time.Now()
	n, err := r.d.Sweep(ctx)
	took := time.Since(began)
	close(done)
	sampler.Wait()
	if err != nil {
		return Memory{}, err
	}
	runtime.ReadMemStats(&ms)
	m := Memory{Receivers: receivers, Attempts: n, PeakMB: float64(peak-start) / (1 << 20),
		AllocMB: float64(ms.TotalAlloc-allocated) / (1 << 20), Seconds: took.Seconds()}
	if rssStart > 0 {
		m.PeakRSSMB = float64(status("VmHWM")-rssStart) / (1 << 20)
	}
	return m, nil
}

// resetPeakRSS makes the kernel's peak resident memory (VmHWM) start again
// from now, and returns the resident memory now; 0 where it cannot.
func resetPeakRSS() uint64 {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return 0
	}
	return status("VmRSS")
}

// status reads a memory line of /proc/self/status, in bytes (0: none).
func status(name string) uint64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, name+":"); ok {
			var kb uint64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
