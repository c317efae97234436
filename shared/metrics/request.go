package metrics

import (
	"context"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"
)

// The per-request metrics (docs/metrics.md): on every request line of the
// API's functions, the portal and the OAuth server.
const (
	Requests          = "Requests"
	Status4xx         = "Status4xx"
	Status5xx         = "Status5xx"
	Status429         = "Status429"
	Latency           = "Latency"
	DynamoDBCalls     = "DynamoDBCalls"
	DynamoDBThrottles = "DynamoDBThrottles"
	IdempotentReplays = "IdempotentReplays"
)

// OperationMetrics are the per-request metrics by Function and Operation
// as well as by Function: what an operator drills into per operation (its
// traffic, its failures and its latency). Each costs a custom metric per
// operation ($0.30 a month), so the rest go by Function alone.
var OperationMetrics = []Metric{{Requests, Count}, {Status5xx, Count}, {Latency, Milliseconds}}

// FunctionRequestMetrics are the per-request metrics by Function alone.
var FunctionRequestMetrics = []Metric{{Status4xx, Count}, {DynamoDBCalls, Count}, {Status429, Count}, {DynamoDBThrottles, Count}, {IdempotentReplays, Count}}

// RequestMetrics are every per-request metric.
var RequestMetrics = append(append([]Metric{}, OperationMetrics...), FunctionRequestMetrics...)

// rare are the request metrics a line carries only when not 0: they are
// summed (a rate of 429s, throttles, replays), and a Sum is the same
// without the zeros, while each costs ~55 bytes on every line.
var rare = []string{Status429, DynamoDBThrottles, IdempotentReplays}

// Event is something a server counts on its request line beside the
// per-request metrics, under the Function dimension alone.
type Event int

// The events, each a metric of its own name.
const (
	OAuthCodeExchanges Event = iota
	OAuthRefreshes
	OAuthRefreshReuse
	PortalSignInFailures
	PortalLockouts
	numEvents
)

var eventNames = [numEvents]string{"OAuthCodeExchanges", "OAuthRefreshes", "OAuthRefreshReuse", "PortalSignInFailures", "PortalLockouts"}

// Name is the event's metric name.
func (e Event) Name() string { return eventNames[e] }

// The Function of the servers that count events: each has many routes
// (the portal's pages, OAuth's endpoints), so its request metrics go by
// Function alone.
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
	// byOperation: the operation metrics also go by Function and
	// Operation (the API's functions; not the portal's and OAuth's).
	byOperation bool
	events      []Event
	// kinds are the lines' directives, encoded once, by which rare
	// metrics a line carries (bit i: rare[i]).
	kinds [1 << 3]*Kind
}

// RequestLines builds the request lines of an API server whose Function is
// function(operation) (one function's server has one name; the local
// server names the area owning the operation): OperationMetrics by
// Function and Operation and by Function, the rest by Function.
func (m Meter) RequestLines(function func(operation string) string) *RequestLines {
	return m.requestLines(function, true, nil)
}

// ServerLines builds the request lines of the portal or the OAuth server
// (PortalFunction, OAuthFunction): every metric by Function alone, and its
// ServerEvents.
func (m Meter) ServerLines(function string) *RequestLines {
	return m.requestLines(Named(function), false, ServerEvents[function])
}

func (m Meter) requestLines(function func(string) string, byOperation bool, events []Event) *RequestLines {
	l := &RequestLines{ns: m.Namespace(), function: func(op string) string { return m.Function(function(op)) }, byOperation: byOperation, events: events}
	for mask := range l.kinds {
		l.kinds[mask] = NewKind(l.directives(mask, nil)...)
	}
	return l
}

// directives are a line's: the operation metrics (with their Operation
// when byOperation), then by Function alone the rest, the rare ones of
// mask and the events that happened. Two directives cost the namespace
// twice; one directive per dimension-set group is what EMF allows.
func (l *RequestLines) directives(mask int, happened []Metric) []Directive {
	var byFunction []Metric
	for _, m := range FunctionRequestMetrics {
		if i := slices.Index(rare, m.Name); i < 0 || mask&(1<<i) != 0 {
			byFunction = append(byFunction, m)
		}
	}
	byFunction = append(byFunction, happened...)
	function := [][]string{{DimFunction}}
	if !l.byOperation {
		return []Directive{{Namespace: l.ns, Dimensions: function, Metrics: append(append([]Metric{}, OperationMetrics...), byFunction...)}}
	}
	return []Directive{
		{Namespace: l.ns, Dimensions: [][]string{{DimFunction, DimOperation}, {DimFunction}}, Metrics: OperationMetrics},
		{Namespace: l.ns, Dimensions: function, Metrics: byFunction},
	}
}

// Named is the function of a server with one name.
func Named(name string) func(string) string { return func(string) string { return name } }

// Attrs are the metric members of a request's line: operation is the route
// template served ("" when none matched), status the answer's, r the
// request's figures (nil: none counted). The operation metrics,
// Status4xx and DynamoDBCalls are on every line, zeros included (a rate's numerator and
// denominator); the rare metrics and the events only on the lines where
// they are not 0, which their Sum counts alike, and which saves their
// bytes on every other line. Operation is on the line only when a
// dimension: the line's route says it anyway.
func (l *RequestLines) Attrs(at time.Time, operation string, status int, latency time.Duration, r *Request) []slog.Attr {
	if operation == "" {
		operation = Unmatched
	}
	var calls, throttles int64
	replayed := false
	var happened []Metric
	var counts []slog.Attr
	if r != nil {
		calls, throttles, replayed = r.calls.Load(), r.throttles.Load(), r.replayed.Load()
		for _, e := range l.events {
			if n := r.events[e].Load(); n > 0 {
				happened = append(happened, Metric{e.Name(), Count})
				counts = append(counts, slog.Int64(e.Name(), n))
			}
		}
	}
	attrs := make([]slog.Attr, 0, 11+len(counts))
	attrs = append(attrs, slog.Attr{}, slog.String(DimFunction, l.function(operation)))
	if l.byOperation {
		attrs = append(attrs, slog.String(DimOperation, operation))
	}
	attrs = append(attrs,
		slog.Int(Requests, 1),
		slog.Int(Status5xx, flag(status >= 500)),
		slog.Float64(Latency, float64(latency.Microseconds())/1000),
		slog.Int(Status4xx, flag(status >= 400 && status < 500)),
		slog.Int64(DynamoDBCalls, calls),
	)
	mask := 0
	for i, v := range []int64{int64(flag(status == 429)), throttles, int64(flag(replayed))} {
		if v != 0 {
			mask |= 1 << i
			attrs = append(attrs, slog.Int64(rare[i], v))
		}
	}
	kind := l.kinds[mask]
	if len(happened) > 0 {
		// Rare (a grant, a failed sign-in): encoded when it happens.
		kind = NewKind(l.directives(mask, happened)...)
	}
	attrs[0] = kind.Attr(at)
	return append(attrs, counts...)
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}
