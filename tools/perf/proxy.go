package perf

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sort"
	"strconv"
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
	if c.Capacity && capacityOps[op] {
		askCapacity(r)
		r = r.WithContext(context.WithValue(r.Context(), callKey{}, call))
	}
	c.proxy.ServeHTTP(w, r)
	call.End = time.Now()
	c.mu.Lock()
	c.calls = append(c.calls, *call)
	c.inFlight--
	c.recorded.Broadcast()
	c.mu.Unlock()
}

// capacityOps are the operations that report consumed capacity.
var capacityOps = map[string]bool{
	"GetItem": true, "PutItem": true, "UpdateItem": true, "DeleteItem": true, "Query": true, "Scan": true,
	"BatchGetItem": true, "BatchWriteItem": true, "TransactWriteItems": true, "TransactGetItems": true,
}

type callKey struct{}

// askCapacity adds ReturnConsumedCapacity TOTAL to a DynamoDB request.
func askCapacity(r *http.Request) {
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	var in map[string]json.RawMessage
	if err == nil && json.Unmarshal(body, &in) == nil {
		in["ReturnConsumedCapacity"] = json.RawMessage(`"TOTAL"`)
		if b, err := json.Marshal(in); err == nil {
			body = b
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.Header.Set("Content-Length", strconv.Itoa(len(body)))
}

// consumed is DynamoDB's ConsumedCapacity: one object, or one per table.
type consumed struct {
	ReadCapacityUnits, WriteCapacityUnits, CapacityUnits float64
}

// readCapacity records the capacity an answer reports on its call.
func (c *CountingProxy) readCapacity(resp *http.Response) error {
	call, ok := resp.Request.Context().Value(callKey{}).(*Call)
	if !ok {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return err
	}
	var out struct {
		Type             string `json:"__type"`
		ConsumedCapacity json.RawMessage
	}
	if json.Unmarshal(body, &out) != nil {
		return nil
	}
	// DynamoDB charges a write whose condition fails (at least one unit),
	// but the engine reports nothing with the failure: the proxy counts the
	// minimum. (A canceled transaction is not counted.)
	if strings.HasSuffix(out.Type, "ConditionalCheckFailedException") && isWrite(call.Op) {
		call.WCU++
		return nil
	}
	if len(out.ConsumedCapacity) == 0 {
		return nil
	}
	var list []consumed
	if json.Unmarshal(out.ConsumedCapacity, &list) != nil {
		var one consumed
		if json.Unmarshal(out.ConsumedCapacity, &one) != nil {
			return nil
		}
		list = []consumed{one}
	}
	for _, cc := range list {
		r, w := cc.ReadCapacityUnits, cc.WriteCapacityUnits
		if r == 0 && w == 0 { // TOTAL may give only the sum: a read op's is reads
			if isWrite(call.Op) {
				w = cc.CapacityUnits
			} else {
				r = cc.CapacityUnits
			}
		}
		call.RCU += r
		call.WCU += w
	}
	return nil
}

func isWrite(op string) bool {
	switch op {
	case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems":
		return true
	}
	return false
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
