package deploytest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/metrics"
)

// searchMetric is a dashboard SEARCH: its namespace and dimension names,
// and the metric's name.
var searchMetric = regexp.MustCompile(`^SEARCH\('\{((?:[^,}$]|\$\{[^}]*\})+)((?:,[A-Za-z]+)*)\} MetricName="([A-Za-z0-9]+)"[^']*', '[A-Za-z0-9]+', 60\)$`)

// dashboardMetrics are the AWS metrics (free) the dashboard may show.
var dashboardMetrics = map[string][]string{
	"AWS/Lambda":     {"Errors", "Invocations", "Throttles", "ConcurrentExecutions", "IteratorAge"},
	"AWS/ApiGateway": {"5xx", "4xx", "Count", "Latency"},
	"AWS/DynamoDB":   {"ReadThrottleEvents", "WriteThrottleEvents", "SystemErrors", "ConsumedReadCapacityUnits", "ConsumedWriteCapacityUnits"},
}

// loggedMembers are the members of the lines Logs Insights may read: the
// request line's own and the figures that are members, not metrics.
func loggedMembers() map[string]bool {
	out := map[string]bool{"status": true, metrics.DimFunction: true, metrics.IdempotentReplays: true, metrics.DynamoDBCalls: true}
	for _, events := range metrics.ServerEvents {
		for _, e := range events {
			out[e.Name()] = true
		}
	}
	return out
}

var (
	querySource = regexp.MustCompile(`SOURCE '([^']+)'`)
	queryField  = regexp.MustCompile(`(?:sum\(|filter |by )([A-Za-z0-9]+)\b(?:[^(]|$)`)
)

// The dashboard shows what the alarms watch, one row per concern, from
// AWS's own metrics, the metrics the code writes, and Logs Insights over
// the log groups of the stack's functions for the counters that are no
// metric.
func TestTheDashboardShowsEachConcernFromWhatIsWritten(t *testing.T) {
	_, _, res := readTemplate(t)
	d := res["Dashboard"]
	require.Equal(t, "AWS::CloudWatch::Dashboard", Path(d, "Type"))
	sub, _ := Path(d, "Properties", "DashboardBody", "Fn::Sub").([]any)
	require.Len(t, sub, 2, "DashboardBody is !Sub [body, variables]")
	assert.Equal(t, dataTable, Path(sub[1], "DataTable"), "the dashboard shows the table the functions use")
	// ${...} are CloudFormation's; numbers stand unquoted in the body.
	body := regexp.MustCompile(`:\s*\$\{[A-Za-z0-9]+\}`).ReplaceAllString(fmt.Sprint(sub[0]), ": 1")
	var dash struct {
		Widgets []struct {
			Type       string `json:"type"`
			Properties struct {
				Markdown string  `json:"markdown"`
				Metrics  [][]any `json:"metrics"`
				Query    string  `json:"query"`
			} `json:"properties"`
		} `json:"widgets"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &dash), "the body is JSON once CloudFormation has filled it in")
	logGroups := map[string]bool{}
	for _, lg := range resourcesOfType(res, "AWS::Logs::LogGroup") {
		logGroups[fmt.Sprint(Path(res[lg], "Properties", "LogGroupName", "Fn::Sub"))] = true
	}
	members := loggedMembers()
	var rows []string
	shown := map[string]bool{}
	for _, w := range dash.Widgets {
		switch w.Type {
		case "text":
			rows = append(rows, w.Properties.Markdown)
			continue
		case "log":
			q := w.Properties.Query
			sources := querySource.FindAllStringSubmatch(q, -1)
			require.NotEmpty(t, sources, "%s reads log groups", q)
			for _, s := range sources {
				assert.True(t, logGroups[s[1]], "%s is a log group of the stack", s[1])
			}
			for _, f := range queryField.FindAllStringSubmatch(q, -1) {
				assert.True(t, members[f[1]], "the query reads %s, which no line carries", f[1])
				shown[f[1]] = true
			}
			continue
		}
		for _, m := range w.Properties.Metrics {
			require.NotEmpty(t, m)
			if q, ok := m[0].(map[string]any); ok {
				expr := fmt.Sprint(q["expression"])
				sm := searchMetric.FindStringSubmatch(expr)
				require.NotNil(t, sm, "a SEARCH: %s", expr)
				dims := strings.Split(strings.TrimPrefix(sm[2], ","), ",")
				if sm[1] == "BizPlatform/${AWS::StackName}" {
					assert.True(t, metrics.Writes("contacts", sm[3], dims), "the dashboard searches %s %v, which no function writes", sm[3], dims)
				} else {
					assert.Contains(t, dashboardMetrics[sm[1]], sm[3])
				}
				shown[sm[3]] = true
				continue
			}
			ns, name := fmt.Sprint(m[0]), fmt.Sprint(m[1])
			var dims []string
			values := map[string]string{}
			for i := 2; i+1 < len(m); i += 2 {
				if s, ok := m[i].(string); ok {
					dims = append(dims, s)
					values[s] = fmt.Sprint(m[i+1])
				}
			}
			if ns == "BizPlatform/${AWS::StackName}" {
				assert.True(t, metrics.Writes(values[metrics.DimFunction], name, dims), "the dashboard shows %s %v of %q, which is not written", name, dims, values[metrics.DimFunction])
			} else {
				assert.Contains(t, dashboardMetrics[ns], name, "%s %s", ns, name)
				if fn, ok := values["FunctionName"]; ok {
					logical := strings.TrimSuffix(strings.TrimPrefix(fn, "${"), "}")
					assert.Equal(t, "AWS::Serverless::Function", Path(res[logical], "Type"), "%s is a function of the stack", fn)
				}
			}
			shown[name] = true
		}
	}
	assert.Len(t, rows, 5, "one row per concern: the API and the probe, the functions, DynamoDB, webhooks, security")
	for _, m := range []string{"Count", "5xx", "Latency", metrics.ProbeFailures, "Errors", "Invocations", metrics.Status5xx, "Throttles", "ConcurrentExecutions",
		metrics.DynamoDBThrottles, "SystemErrors", metrics.WebhookFailures, metrics.WebhookOldestPendingAgeSeconds, "IteratorAge", metrics.WebhookRecovered,
		metrics.WebhookEndpointsDisabled, "OAuthRefreshReuse", "PortalLockouts", metrics.IdempotentReplays} {
		assert.True(t, shown[m], "the dashboard shows %s", m)
	}
}
