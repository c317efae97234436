package metrics

import (
	"log/slog"
	"time"
)

// The webhook deliverer's metrics, one line per invocation (or local
// sweep), under the Function dimension alone.
const (
	WebhookDeliveries              = "WebhookDeliveries"
	WebhookFailures                = "WebhookFailures"
	WebhookAttempts                = "WebhookAttempts"
	WebhookGivenUp                 = "WebhookGivenUp"
	WebhookOldestPendingAgeSeconds = "WebhookOldestPendingAgeSeconds"
)

// WebhookFunction is the deliverer's Function.
const WebhookFunction = "webhooks"

// Deliveries is what one invocation of the deliverer did.
type Deliveries struct {
	Delivered, Failed, Attempts, GivenUp int
	// OldestPending is the age of the oldest event still pending (0 when
	// none); nil when the invocation did not look (a stream batch
	// attempts only the events it names), so that its line leaves the
	// metric out rather than claim 0.
	OldestPending *time.Duration
}

// WebhookLines are the metric members of the deliverer's lines.
type WebhookLines struct {
	function            string
	withAge, withoutAge *Kind
}

// WebhookLines builds the deliverer's lines.
func (m Meter) WebhookLines() *WebhookLines {
	// WebhookMetrics ends with the age, which only some lines carry.
	withAge := Directive{Namespace: m.Namespace(), Dimensions: [][]string{{DimFunction}}, Metrics: WebhookMetrics}
	d := withAge
	d.Metrics = WebhookMetrics[:len(WebhookMetrics)-1]
	return &WebhookLines{function: m.Function(WebhookFunction), withAge: NewKind(withAge), withoutAge: NewKind(d)}
}

// Attrs are the metric members of an invocation's line.
func (l *WebhookLines) Attrs(at time.Time, d Deliveries) []slog.Attr {
	kind := l.withoutAge
	if d.OldestPending != nil {
		kind = l.withAge
	}
	attrs := []slog.Attr{
		kind.Attr(at),
		slog.String(DimFunction, l.function),
		slog.Int(WebhookDeliveries, d.Delivered),
		slog.Int(WebhookFailures, d.Failed),
		slog.Int(WebhookAttempts, d.Attempts),
		slog.Int(WebhookGivenUp, d.GivenUp),
	}
	if d.OldestPending != nil {
		attrs = append(attrs, slog.Float64(WebhookOldestPendingAgeSeconds, float64(d.OldestPending.Milliseconds())/1000))
	}
	return attrs
}
