package metrics

import (
	"context"
	"log/slog"
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

// RequestMetrics are the per-request metrics, in the order a line holds
// them.
var RequestMetrics = []Metric{
	{Requests, Count}, {Status4xx, Count}, {Status5xx, Count}, {Status429, Count},
	{Latency, Milliseconds}, {DynamoDBCalls, Count}, {DynamoDBThrottles, Count}, {IdempotentReplays, Count},
}

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
	kind     *Kind
	ns       string
	function func(operation string) string
	events   []Event
}

// RequestLines builds the request lines of a server whose Function is
// function(operation) (one function's server has one name; the local
// server names the area owning the operation), counting events besides
// the per-request metrics. The per-request metrics go by Function and
// Operation and by Function alone; events by Function alone.
func (m Meter) RequestLines(function func(operation string) string, events ...Event) *RequestLines {
	ns := m.Namespace()
	kind := NewKind(Directive{Namespace: ns, Dimensions: [][]string{{DimFunction, DimOperation}, {DimFunction}}, Metrics: RequestMetrics})
	return &RequestLines{kind: kind, ns: ns, function: func(op string) string { return m.Function(function(op)) }, events: events}
}

// Named is the function of a server with one name.
func Named(name string) func(string) string { return func(string) string { return name } }

// Attrs are the metric members of a request's line: operation is the route
// template served ("" when none matched), status the answer's, r the
// request's figures (nil: none counted). The per-request metrics are on
// every line, zeros included (a rate's denominator); an event is only on
// the lines of requests where it happened, which its Sum counts alike,
// and saves its directive's bytes on every other line.
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
	aws := l.kind.Attr(at)
	if len(happened) > 0 {
		// Rare (a grant, a failed sign-in): encoded when it happens.
		aws = NewKind(
			Directive{Namespace: l.ns, Dimensions: [][]string{{DimFunction, DimOperation}, {DimFunction}}, Metrics: RequestMetrics},
			Directive{Namespace: l.ns, Dimensions: [][]string{{DimFunction}}, Metrics: happened},
		).Attr(at)
	}
	attrs := make([]slog.Attr, 0, 11+len(counts))
	attrs = append(attrs,
		aws,
		slog.String(DimFunction, l.function(operation)),
		slog.String(DimOperation, operation),
		slog.Int(Requests, 1),
		slog.Int(Status4xx, flag(status >= 400 && status < 500)),
		slog.Int(Status5xx, flag(status >= 500)),
		slog.Int(Status429, flag(status == 429)),
		slog.Float64(Latency, float64(latency.Microseconds())/1000),
		slog.Int64(DynamoDBCalls, calls),
		slog.Int64(DynamoDBThrottles, throttles),
		slog.Int(IdempotentReplays, flag(replayed)),
	)
	return append(attrs, counts...)
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}
