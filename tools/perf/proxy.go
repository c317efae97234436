package perf

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
)

// Call is one DynamoDB API call seen on the wire.
type Call struct {
	Op         string // GetItem, UpdateItem, ... (from X-Amz-Target)
	Start, End time.Time
}

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
	p.Transport = &http.Transport{MaxIdleConnsPerHost: 256}
	c := &CountingProxy{proxy: p}
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
	c.proxy.ServeHTTP(w, r)
	end := time.Now()
	c.mu.Lock()
	c.calls = append(c.calls, Call{Op: op, Start: start, End: end})
	c.inFlight--
	c.recorded.Broadcast()
	c.mu.Unlock()
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

// RoundTrips is the number of sequential round trips on the critical path
// of calls: the longest chain of calls each starting after the previous one
// ended. Calls that overlap in time count as one round trip.
func RoundTrips(calls []Call) int {
	sorted := append([]Call(nil), calls...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Start.Before(sorted[j].Start) })
	chain := make([]int, len(sorted))
	longest := 0
	for i, c := range sorted {
		chain[i] = 1
		for j := 0; j < i; j++ {
			if !sorted[j].End.After(c.Start) && chain[j]+1 > chain[i] {
				chain[i] = chain[j] + 1
			}
		}
		longest = max(longest, chain[i])
	}
	return longest
}

// Ops lists the calls' operation names in start order ("UpdateItem GetItem").
func Ops(calls []Call) string {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.Op
	}
	return strings.Join(names, " ")
}
