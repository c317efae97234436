// Package metrics writes the functions' CloudWatch metrics in the Embedded
// Metric Format (EMF): as members of the JSON log line each request (or
// webhook sweep, or probe run) writes anyway, beside an `_aws` member that
// tells CloudWatch Logs which members to extract. No API call, no agent, no
// extra line. AWS publishes no Go library for the format, and none on the
// module proxy fits, so this is the encoder; its test validates the lines
// against the format's published JSON schema. docs/metrics.md lists every
// metric.
//
// Each metric name with each combination of dimension values is a custom
// metric CloudWatch bills by the hour it receives data, so a line declares
// only what an alarm or the dashboard reads, and the metrics that count
// failures only on the lines where something failed: a healthy hour costs
// nothing for them. The rest of a line's figures are plain members, which
// Logs Insights reads.
package metrics

import (
	"encoding/json"
	"log/slog"
	"strconv"
	"time"
)

// DefaultNamespace is the namespace when METRICS_NAMESPACE is unset; the
// template sets BizPlatform/<stack name>, so that two stacks never mix.
const DefaultNamespace = "BizPlatform"

// Unit is a CloudWatch unit.
type Unit string

// The units the metrics use.
const (
	Count        Unit = "Count"
	Milliseconds Unit = "Milliseconds"
	Seconds      Unit = "Seconds"
)

// Metric is a metric's name and unit.
type Metric struct {
	Name string
	Unit Unit
}

// Dimension names. Their values are bounded: a function's directory name
// and a route template, never an account, a token, a user or an id.
const (
	DimFunction  = "Function"
	DimOperation = "Operation"
	// DimVersion is the function version that served the request
	// (AWS_LAMBDA_FUNCTION_VERSION): the rollback alarms read the 5xx of
	// the version a deploy moves traffic to.
	DimVersion = "Version"
)

// LocalVersion is the Version of a process Lambda did not start (the local
// server, tests).
const LocalVersion = "local"

// Unmatched is the Operation of a request that named no operation.
const Unmatched = "unmatched"

// Directive is one metric directive of a line: the namespace, the
// dimension sets and the metrics CloudWatch extracts from the line's root
// members of the same names.
type Directive struct {
	Namespace  string
	Dimensions [][]string
	Metrics    []Metric
}

// Kind is the fixed part of one kind of line (its directives), encoded
// once, so that a line costs only its values.
type Kind struct {
	directives json.RawMessage
}

// NewKind encodes the directives of a kind of line.
func NewKind(directives ...Directive) *Kind {
	type metric struct {
		Name string
		Unit Unit `json:",omitempty"`
	}
	type directive struct {
		Namespace  string
		Dimensions [][]string
		Metrics    []metric
	}
	out := make([]directive, len(directives))
	for i, d := range directives {
		ms := make([]metric, len(d.Metrics))
		for j, m := range d.Metrics {
			ms[j] = metric(m)
		}
		out[i] = directive{Namespace: d.Namespace, Dimensions: d.Dimensions, Metrics: ms}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		panic(err) // strings and slices of strings always encode
	}
	return &Kind{directives: raw}
}

// Attr is the line's `_aws` member for a line about time t.
func (k *Kind) Attr(t time.Time) slog.Attr {
	return slog.Any("_aws", awsMember{timestamp: t.UnixMilli(), directives: k.directives})
}

// awsMember encodes as {"Timestamp":…,"CloudWatchMetrics":[…]}.
type awsMember struct {
	timestamp  int64
	directives json.RawMessage
}

func (a awsMember) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(a.directives)+48)
	b = append(b, `{"Timestamp":`...)
	b = strconv.AppendInt(b, a.timestamp, 10)
	b = append(b, `,"CloudWatchMetrics":`...)
	b = append(b, a.directives...)
	return append(b, '}'), nil
}

// Meter builds the kinds of lines of one process: its namespace, the
// Function dimension when the environment fixes it, the version it runs,
// and whether the API's lines also go by operation.
type Meter struct {
	namespace   string
	function    string
	version     string
	byOperation bool
}

// NewMeter is the meter of namespace ("" is DefaultNamespace); function,
// when set (FUNCTION_NAME_DIMENSION), is every line's Function.
func NewMeter(namespace, function string) Meter {
	if namespace == "" {
		namespace = DefaultNamespace
	}
	return Meter{namespace: namespace, function: function}
}

// Versioned is the meter of a process running version v of its function
// (AWS_LAMBDA_FUNCTION_VERSION; "" is LocalVersion).
func (m Meter) Versioned(v string) Meter {
	m.version = v
	return m
}

// Version is the Version dimension of the meter's lines.
func (m Meter) Version() string {
	if m.version == "" {
		return LocalVersion
	}
	return m.version
}

// ByOperation is the meter whose API request lines also carry
// OperationMetrics by Function and Operation (METRICS_BY_OPERATION; off by
// default: three custom metrics per operation).
func (m Meter) ByOperation(on bool) Meter {
	m.byOperation = on
	return m
}

// Namespace is the meter's namespace.
func (m Meter) Namespace() string {
	if m.namespace == "" {
		return DefaultNamespace
	}
	return m.namespace
}

// Function is the Function dimension of a line of name's function: the
// environment's when it fixes one, else name.
func (m Meter) Function(name string) string {
	if m.function != "" {
		return m.function
	}
	return name
}
