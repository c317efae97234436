package metrics

import (
	"log/slog"
	"time"
)

// The webhook deliverer's figures, one line per invocation (or local
// sweep), under the Function dimension alone.
const (
	WebhookDeliveries              = "WebhookDeliveries"
	WebhookFailures                = "WebhookFailures"
	WebhookAttempts                = "WebhookAttempts"
	WebhookGivenUp                 = "WebhookGivenUp"
	WebhookOldestPendingAgeSeconds = "WebhookOldestPendingAgeSeconds"
	WebhookRecovered               = "WebhookRecovered"
	WebhookEndpointsDisabled       = "WebhookEndpointsDisabled"
)

// WebhookFunction is the deliverer's Function.
const WebhookFunction = "webhooks"

// WebhookMetrics are the deliverer's metrics, by Function: the attempts
// and failures the failure-rate alarm reads (declared when it attempted
// something), the oldest pending event's age the backlog alarm reads (on
// the schedule's sweeps, which look), and, when not 0, the events a sweep
// handed on that the stream had not (WebhookRecovered: the stream's batch
// failed or was dropped) and the account endpoints it disabled. Deliveries
// and events given up are members only.
var WebhookMetrics = []Metric{
	{WebhookAttempts, Count}, {WebhookFailures, Count}, {WebhookOldestPendingAgeSeconds, Seconds},
	{WebhookRecovered, Count}, {WebhookEndpointsDisabled, Count},
}

// Deliveries is what one invocation of the deliverer did.
type Deliveries struct {
	Delivered, Failed, Attempts, GivenUp int
	// Recovered are the waiting events a sweep handed on: deployed, the
	// stream hands each on as it is written, so a sweep finds only those
	// whose stream batch failed (or that it raced).
	Recovered int
	// EndpointsDisabled are the account endpoints disabled for failing
	// every attempt for endpoints.FailingLimit.
	EndpointsDisabled int
	// OldestPending is the age of the oldest event still pending (0 when
	// none); nil when the invocation did not look (a stream batch
	// attempts only the events it names), so that its line leaves the
	// metric out rather than claim 0.
	OldestPending *time.Duration
}

// WebhookLines are the metric members of the deliverer's lines.
type WebhookLines struct {
	function string
	// kinds by which metrics a line declares (bit i: the line declares
	// webhookParts[i]).
	kinds [1 << 4]*Kind
}

// The parts of WebhookMetrics a line may declare: attempts and failures
// together, then each of the others.
var webhookParts = [][]Metric{WebhookMetrics[:2], WebhookMetrics[2:3], WebhookMetrics[3:4], WebhookMetrics[4:5]}

// WebhookLines builds the deliverer's lines.
func (m Meter) WebhookLines() *WebhookLines {
	l := &WebhookLines{function: m.Function(WebhookFunction)}
	for mask := 1; mask < len(l.kinds); mask++ {
		var ms []Metric
		for i, part := range webhookParts {
			if mask&(1<<i) != 0 {
				ms = append(ms, part...)
			}
		}
		l.kinds[mask] = NewKind(Directive{Namespace: m.Namespace(), Dimensions: [][]string{{DimFunction}}, Metrics: ms})
	}
	return l
}

// Attrs are the metric members of an invocation's line.
func (l *WebhookLines) Attrs(at time.Time, d Deliveries) []slog.Attr {
	mask := 0
	for i, on := range []bool{d.Attempts > 0, d.OldestPending != nil, d.Recovered > 0, d.EndpointsDisabled > 0} {
		if on {
			mask |= 1 << i
		}
	}
	attrs := make([]slog.Attr, 0, 10)
	if kind := l.kinds[mask]; kind != nil {
		attrs = append(attrs, kind.Attr(at))
	}
	attrs = append(attrs,
		slog.String(DimFunction, l.function),
		slog.Int(WebhookDeliveries, d.Delivered),
		slog.Int(WebhookFailures, d.Failed),
		slog.Int(WebhookAttempts, d.Attempts),
		slog.Int(WebhookGivenUp, d.GivenUp),
	)
	if d.OldestPending != nil {
		attrs = append(attrs, slog.Float64(WebhookOldestPendingAgeSeconds, float64(d.OldestPending.Milliseconds())/1000))
	}
	if d.Recovered > 0 {
		attrs = append(attrs, slog.Int(WebhookRecovered, d.Recovered))
	}
	if d.EndpointsDisabled > 0 {
		attrs = append(attrs, slog.Int(WebhookEndpointsDisabled, d.EndpointsDisabled))
	}
	return attrs
}
