package metrics

import "slices"

// Writes reports whether the lines of function (its directory under
// functions/) make the series of metric under the dimension set dims
// (names in any order; none: the stack-wide series, whichever function
// writes it). It reads the lists the lines are encoded from, so that the
// template's alarms and dashboard are checked against what the code
// writes, from one source. A series the meter writes only ByOperation
// counts as written.
func Writes(function, metric string, dims []string) bool {
	has := func(ms []Metric) bool {
		return slices.ContainsFunc(ms, func(m Metric) bool { return m.Name == metric })
	}
	same := func(want ...string) bool {
		return len(dims) == len(want) && !slices.ContainsFunc(want, func(d string) bool { return !slices.Contains(dims, d) })
	}
	switch function {
	case WebhookFunction:
		return same(DimFunction) && has(WebhookMetrics)
	case ProbeFunction:
		return same(DimFunction) && has(ProbeMetrics)
	}
	switch {
	case same():
		return metric == DynamoDBThrottles
	case same(DimFunction, DimVersion):
		return metric == Status5xx
	case same(DimFunction, DimOperation):
		return ServerEvents[function] == nil && has(OperationMetrics)
	}
	return false
}
