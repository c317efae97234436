package perf

import (
	"context"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bizplatform/api/internal/testenv"
)

// Call is one DynamoDB call the proxy forwarded (testenv's record, which
// the tests' call counter makes too).
type Call = testenv.Call

// CountingProxy is a reverse proxy in front of a DynamoDB engine that
// records every call it forwards, with its start and end times, so that
// calls can be counted from outside the code and overlapping calls (run
// concurrently) told apart from sequential ones.
type CountingProxy struct {
	proxy *httputil.ReverseProxy
	// Delay holds every call this long before forwarding it, as a remote
	// table's latency would. Calls made at the same time then overlap by
	// far more than the scheduling jitter of a busy machine, so overlap
	// (concurrency) is told from sequence reliably.
	Delay time.Duration
	// Capacity asks the engine for the capacity each call consumes
	// (ReturnConsumedCapacity TOTAL, added to the request on its way) and
	// records it. The product never asks for it: the figures are the
	// proxy's, from outside, and DynamoDB Local checks that a request is
	// signed, not its signature, so the added field passes.
	Capacity bool
	// Indexes adds to a transaction's write units those of the index
	// (GSI1) its writes make, which DynamoDB charges beside the table's
	// and the engine leaves out of a transaction (it counts them in a
	// single write's TOTAL): 1 unit per KB of the index entry put,
	// updated or deleted (2 writes when its key changes), as DynamoDB
	// prices an index write, transactional or not.
	Indexes bool
	// WithoutEvents takes the event out of every transaction on its way
	// (each Put of an item of an events partition, events.IsEventKey), so
	// that a change is measured as it would be without its event; a
	// transaction left with one write is priced as that single write (1
	// unit per KB), which is what the change was before it carried an
	// event. Measuring only: a condition's index in a cancelled
	// transaction shifts.
	WithoutEvents bool

	// upstream and side reach the engine directly, for the reads that
	// size a transaction's items (never recorded).
	upstream string
	side     *http.Client

	mu    sync.Mutex
	calls []Call
	// inFlight counts the calls forwarded and not yet recorded: the client
	// has a call's answer before the proxy records it, so a request can end
	// before its last call is recorded.
	inFlight int
	recorded *sync.Cond
}

// NewCountingProxy forwards to the engine at upstream (http://host:port).
func NewCountingProxy(upstream string) (*CountingProxy, error) {
	u, err := url.Parse(upstream)
	if err != nil {
		return nil, err
	}
	p := httputil.NewSingleHostReverseProxy(u)
	// The SDK keeps connections open; so must the proxy, or every call would
	// pay a TCP handshake the engine alone does not.
	transport := &http.Transport{MaxIdleConnsPerHost: 256}
	p.Transport = transport
	c := &CountingProxy{proxy: p, upstream: upstream, side: &http.Client{Transport: transport}}
	p.ModifyResponse = c.readCapacity
	c.recorded = sync.NewCond(&c.mu)
	return c, nil
}

func (c *CountingProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	op := r.Header.Get("X-Amz-Target")
	if i := strings.LastIndexByte(op, '.'); i >= 0 {
		op = op[i+1:]
	}
	c.mu.Lock()
	c.inFlight++
	c.mu.Unlock()
	start := time.Now()
	if c.Delay > 0 {
		time.Sleep(c.Delay)
	}
	call := &Call{Op: op, Start: start}
	var tx *txSizes
	switch {
	case c.Capacity && (op == "TransactWriteItems" || op == "TransactGetItems"):
		if c.WithoutEvents && op == "TransactWriteItems" {
			dropEvents(r)
		}
		tx = c.sizeTransaction(r, op)
		r = r.WithContext(context.WithValue(r.Context(), callKey{}, call))
	case c.Capacity && capacityOps[op]:
		askCapacity(r)
		r = r.WithContext(context.WithValue(r.Context(), callKey{}, call))
	}
	status := &statusWriter{ResponseWriter: w}
	c.proxy.ServeHTTP(status, r)
	if tx != nil && status.code == http.StatusOK {
		c.finishTransaction(call, tx)
	}
	call.End = time.Now()
	c.mu.Lock()
	c.calls = append(c.calls, *call)
	c.inFlight--
	c.recorded.Broadcast()
	c.mu.Unlock()
}

// statusWriter notes the status of the answer it passes on.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (s *statusWriter) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}

// Take waits until every call forwarded is recorded, then returns the
// calls recorded so far, in start order, and forgets them.
func (c *CountingProxy) Take() []Call {
	c.mu.Lock()
	for c.inFlight > 0 {
		c.recorded.Wait()
	}
	out := c.calls
	c.calls = nil
	c.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}
