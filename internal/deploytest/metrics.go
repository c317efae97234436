package deploytest

// The metrics contract (docs/operations.md): the metrics the functions
// write in CloudWatch's embedded metric format, which the template's alarms
// and dashboard read. One list, so that the code that writes them and the
// template that reads them can be checked against the same names.

// MetricsNamespaceDefault is the namespace when METRICS_NAMESPACE is unset;
// the template sets BizPlatform/<stack name>.
const MetricsNamespaceDefault = "BizPlatform"

// Dimension names. Function is the function's directory under functions/;
// Operation the route template the router matched ("unmatched" otherwise).
const (
	DimFunction  = "Function"
	DimOperation = "Operation"
)

// RequestMetrics are written once per request by the API functions, the
// portal and the OAuth server, with the dimension sets
// [Function, Operation] and [Function].
var RequestMetrics = []string{
	"Requests", "Status4xx", "Status5xx", "Status429", "Latency",
	"DynamoDBCalls", "DynamoDBThrottles", "IdempotentReplays",
}

// FunctionMetrics are written with the dimension set [Function] alone, by
// the function named.
var FunctionMetrics = map[string][]string{
	"webhooks": {"WebhookDeliveries", "WebhookFailures", "WebhookAttempts", "WebhookGivenUp", "WebhookOldestPendingAgeSeconds"},
	"oauth":    {"OAuthCodeExchanges", "OAuthRefreshes", "OAuthRefreshReuse"},
	"portal":   {"PortalSignInFailures", "PortalLockouts"},
}

// contractMetric reports whether function writes metric under the dimension
// names dims (in any order).
func contractMetric(function, metric string, dims []string) bool {
	has := map[string]bool{}
	for _, d := range dims {
		has[d] = true
	}
	onlyFunction := len(dims) == 1 && has[DimFunction]
	withOperation := len(dims) == 2 && has[DimFunction] && has[DimOperation]
	for _, m := range FunctionMetrics[function] {
		if m == metric {
			return onlyFunction
		}
	}
	if function == "webhooks" {
		return false // the deliverer serves no request
	}
	for _, m := range RequestMetrics {
		if m == metric {
			return onlyFunction || withOperation
		}
	}
	return false
}
