package metrics

import (
	"log/slog"
	"time"
)

// The synthetic probe's metric (functions/probe): on each run's line, by
// Function, the checks of the deployed API that failed. Written every run,
// so that its alarm reads silence as a probe that stopped.
const ProbeFailures = "ProbeFailures"

// ProbeFunction is the probe's Function.
const ProbeFunction = "probe"

// ProbeMetrics are the probe's metrics, by Function.
var ProbeMetrics = []Metric{{ProbeFailures, Count}}

// ProbeLines are the metric members of the probe's lines.
type ProbeLines struct {
	function string
	kind     *Kind
}

// ProbeLines builds the probe's lines.
func (m Meter) ProbeLines() *ProbeLines {
	return &ProbeLines{function: m.Function(ProbeFunction),
		kind: NewKind(Directive{Namespace: m.Namespace(), Dimensions: [][]string{{DimFunction}}, Metrics: ProbeMetrics})}
}

// Attrs are the metric members of a run's line: failed checks of the run.
func (l *ProbeLines) Attrs(at time.Time, failed int) []slog.Attr {
	return []slog.Attr{l.kind.Attr(at), slog.String(DimFunction, l.function), slog.Int(ProbeFailures, failed)}
}
