package metrics

import "slices"

// WebhookMetrics are the deliverer's metrics, by Function alone.
var WebhookMetrics = []Metric{
	{WebhookDeliveries, Count}, {WebhookFailures, Count}, {WebhookAttempts, Count}, {WebhookGivenUp, Count},
	{WebhookOldestPendingAgeSeconds, Seconds},
}

// Writes reports whether the lines of function (its directory under
// functions/) carry metric under the dimension set dims (names in any
// order). It reads the lists the lines are encoded from, so that the
// template's alarms and dashboard are checked against what the code
// writes, from one source.
func Writes(function, metric string, dims []string) bool {
	byFunction := len(dims) == 1 && dims[0] == DimFunction
	byOperation := len(dims) == 2 && slices.Contains(dims, DimFunction) && slices.Contains(dims, DimOperation)
	has := func(ms []Metric) bool {
		return slices.ContainsFunc(ms, func(m Metric) bool { return m.Name == metric })
	}
	switch {
	case function == WebhookFunction:
		return byFunction && has(WebhookMetrics)
	case ServerEvents[function] != nil:
		return byFunction && (has(RequestMetrics) || slices.ContainsFunc(ServerEvents[function], func(e Event) bool { return e.Name() == metric }))
	case has(OperationMetrics):
		return byFunction || byOperation
	default:
		return byFunction && has(FunctionRequestMetrics)
	}
}
