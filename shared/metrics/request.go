package metrics

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"
)

// The per-request figures (docs/metrics.md): on every request line of the
// API's functions, the portal and the OAuth server. Only some are metrics
// CloudWatch extracts (below); the others are members Logs Insights reads.
const (
	Requests          = "Requests"
	Status5xx         = "Status5xx"
	Latency           = "Latency"
	DynamoDBCalls     = "DynamoDBCalls"
	DynamoDBThrottles = "DynamoDBThrottles"
	IdempotentReplays = "IdempotentReplays"
)

// FailureMetrics are the metrics a request line declares only when they
// are not 0: Status5xx by Function and Version, which the rollback alarms
// read (with Lambda's own Invocations of the version as the total), and
// DynamoDBThrottles of the whole stack (no dimension), which the table's
// throttle alarm reads. A healthy hour writes neither, and CloudWatch bills
// a custom metric only for the hours it receives data.
var FailureMetrics = []Metric{{Status5xx, Count}, {DynamoDBThrottles, Count}}

// OperationMetrics are what an operator drills into per operation (its
// traffic, its failures and its latency), by Function and Operation, on
// every line of an API function when the meter goes ByOperation: each costs
// a custom metric per operation ($0.30 a month), so they are opt-in.
var OperationMetrics = []Metric{{Requests, Count}, {Status5xx, Count}, {Latency, Milliseconds}}

// Event is something a server counts on its request line, a member of its
// own name on the lines where it happened (no metric: no alarm reads one,
// and Logs Insights sums them; docs/metrics.md).
type Event int

// The events, each a member of its own name.
const (
	OAuthCodeExchanges Event = iota
	OAuthRefreshes
	OAuthRefreshReuse
	PortalSignInFailures
	PortalLockouts
	numEvents
)

var eventNames = [numEvents]string{"OAuthCodeExchanges", "OAuthRefreshes", "OAuthRefreshReuse", "PortalSignInFailures", "PortalLockouts"}

// Name is the event's member name.
func (e Event) Name() string { return eventNames[e] }

// The Function of the servers that count events: each has many routes
// (the portal's pages, OAuth's endpoints), none of which is a dimension.
const (
	OAuthFunction  = "oauth"
	PortalFunction = "portal"
)

// ServerEvents are the events each server counts.
var ServerEvents = map[string][]Event{
	OAuthFunction:  {OAuthCodeExchanges, OAuthRefreshes, OAuthRefreshReuse},
	PortalFunction: {PortalSignInFailures, PortalLockouts},
}

// Request is one request's figures, counted by the layers that see them
// (the DynamoDB client, the idempotency guard, the OAuth server, the
// portal's sign-in) through the request's context. Counts may come from
// several goroutines (admission runs beside the handler). The methods of a
// nil Request count nothing: work outside a request (a webhook sweep)
// has none.
type Request struct {
	calls, throttles atomic.Int64
	replayed         atomic.Bool
	events           [numEvents]atomic.Int64
}

type requestKey struct{}

// Begin returns ctx carrying a new request's figures, and the figures.
func Begin(ctx context.Context) (context.Context, *Request) {
	r := &Request{}
	return context.WithValue(ctx, requestKey{}, r), r
}

// RequestFrom is the figures of the request ctx belongs to; nil outside a
// request.
func RequestFrom(ctx context.Context) *Request {
	r, _ := ctx.Value(requestKey{}).(*Request)
	return r
}

// CountCall counts one DynamoDB call (its retries are the same call).
func (r *Request) CountCall() {
	if r != nil {
		r.calls.Add(1)
	}
}

// CountThrottle counts one DynamoDB attempt refused for throughput.
func (r *Request) CountThrottle() {
	if r != nil {
		r.throttles.Add(1)
	}
}

// Replayed notes that the answer is a kept one, replayed for an
// Idempotency-Key sent again.
func (r *Request) Replayed() {
	if r != nil {
		r.replayed.Store(true)
	}
}

// Count counts one event.
func (r *Request) Count(e Event) {
	if r != nil {
		r.events[e].Add(1)
	}
}

// Calls is the DynamoDB calls counted so far.
func (r *Request) Calls() int64 {
	if r == nil {
		return 0
	}
	return r.calls.Load()
}

// RequestLines are the metric members of one server's request lines.
type RequestLines struct {
	ns       string
	function func(operation string) string
	version  string
	// byOperation: the operation metrics go by Function and Operation on
	// every line (the API's functions, when the meter says so; never the
	// portal's and OAuth's, whose routes are many).
	byOperation bool
	events      []Event
	// kinds are the lines' directives, encoded once, by what the line
	// declares (kindFailed, kindThrottled); nil: no metric at all.
	kinds [4]*Kind
}

// The bits of a line's kind.
const (
	kindFailed    = 1 << iota // a 5xx: Status5xx by Function and Version
	kindThrottled             // DynamoDB throttled it: DynamoDBThrottles
)

// RequestLines builds the request lines of an API server whose Function is
// function(operation) (one function's server has one name; the local
// server names the area owning the operation).
func (m Meter) RequestLines(function func(operation string) string) *RequestLines {
	return m.requestLines(function, m.byOperation, nil)
}

// ServerLines builds the request lines of the portal or the OAuth server
// (PortalFunction, OAuthFunction), which also count their ServerEvents.
func (m Meter) ServerLines(function string) *RequestLines {
	return m.requestLines(Named(function), false, ServerEvents[function])
}

func (m Meter) requestLines(function func(string) string, byOperation bool, events []Event) *RequestLines {
	l := &RequestLines{ns: m.Namespace(), function: func(op string) string { return m.Function(function(op)) },
		version: m.Version(), byOperation: byOperation, events: events}
	for mask := range l.kinds {
		if ds := l.directives(mask); len(ds) > 0 {
			l.kinds[mask] = NewKind(ds...)
		}
	}
	return l
}

// directives are a line's: one per dimension set, as EMF wants a
// directive per group of dimension sets.
func (l *RequestLines) directives(mask int) []Directive {
	var out []Directive
	if mask&kindFailed != 0 {
		out = append(out, Directive{Namespace: l.ns, Dimensions: [][]string{{DimFunction, DimVersion}}, Metrics: FailureMetrics[:1]})
	}
	if mask&kindThrottled != 0 {
		out = append(out, Directive{Namespace: l.ns, Dimensions: [][]string{{}}, Metrics: FailureMetrics[1:]})
	}
	if l.byOperation {
		out = append(out, Directive{Namespace: l.ns, Dimensions: [][]string{{DimFunction, DimOperation}}, Metrics: OperationMetrics})
	}
	return out
}

// Named is the function of a server with one name.
func Named(name string) func(string) string { return func(string) string { return name } }

// Attrs are the metric members of a request's line: operation is the route
// template served ("" when none matched), status the answer's, r the
// request's figures (nil: none counted). Every line has its Function and
// DynamoDBCalls; a 5xx its Version and Status5xx; the throttles, a replay
// and the server's events only when they happened; and, by operation, its
// Operation, Requests, Status5xx and Latency.
func (l *RequestLines) Attrs(at time.Time, operation string, status int, latency time.Duration, r *Request) []slog.Attr {
	if operation == "" {
		operation = Unmatched
	}
	var calls, throttles int64
	replayed := false
	if r != nil {
		calls, throttles, replayed = r.calls.Load(), r.throttles.Load(), r.replayed.Load()
	}
	mask := 0
	if status >= 500 {
		mask |= kindFailed
	}
	if throttles > 0 {
		mask |= kindThrottled
	}
	attrs := make([]slog.Attr, 0, 12)
	if kind := l.kinds[mask]; kind != nil {
		attrs = append(attrs, kind.Attr(at))
	}
	attrs = append(attrs, slog.String(DimFunction, l.function(operation)))
	if l.byOperation {
		attrs = append(attrs, slog.String(DimOperation, operation))
	}
	if mask&kindFailed != 0 {
		attrs = append(attrs, slog.String(DimVersion, l.version))
	}
	if mask&kindFailed != 0 || l.byOperation {
		attrs = append(attrs, slog.Int(Status5xx, flag(status >= 500)))
	}
	if l.byOperation {
		attrs = append(attrs, slog.Int(Requests, 1), slog.Float64(Latency, float64(latency.Microseconds())/1000))
	}
	attrs = append(attrs, slog.Int64(DynamoDBCalls, calls))
	if throttles > 0 {
		attrs = append(attrs, slog.Int64(DynamoDBThrottles, throttles))
	}
	if replayed {
		attrs = append(attrs, slog.Int(IdempotentReplays, 1))
	}
	if r != nil {
		for _, e := range l.events {
			if n := r.events[e].Load(); n > 0 {
				attrs = append(attrs, slog.Int64(e.Name(), n))
			}
		}
	}
	return attrs
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}
