package deploytest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/metrics"
)

// searchMetric is a dashboard SEARCH of every function's figure in the
// stack's namespace.
var searchMetric = regexp.MustCompile(`^SEARCH\('\{BizPlatform/\$\{AWS::StackName\},Function\} MetricName="([A-Za-z0-9]+)"', '[A-Za-z0-9]+', 60\)$`)

// The dashboard shows the figures the alarms watch, one row per concern,
// and reads only metrics the code writes.
func TestTheDashboardShowsEachConcernFromMetricsThatAreWritten(t *testing.T) {
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
			} `json:"properties"`
		} `json:"widgets"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &dash), "the body is JSON once CloudFormation has filled it in")
	var rows []string
	shown := map[string]bool{}
	for _, w := range dash.Widgets {
		if w.Type == "text" {
			rows = append(rows, w.Properties.Markdown)
			continue
		}
		for _, m := range w.Properties.Metrics {
			require.NotEmpty(t, m)
			if q, ok := m[0].(map[string]any); ok {
				expr := fmt.Sprint(q["expression"])
				if sm := searchMetric.FindStringSubmatch(expr); sm != nil {
					assert.True(t, metrics.Writes("contacts", sm[1], []string{metrics.DimFunction}), "the dashboard searches %s, which no function writes", sm[1])
					shown[sm[1]] = true
				} else {
					assert.Regexp(t, `^SEARCH\('\{AWS/DynamoDB,Operation,TableName\} TableName="\$\{DataTable\}"`, expr)
				}
				continue
			}
			ns, name := fmt.Sprint(m[0]), fmt.Sprint(m[1])
			if ns == "BizPlatform/${AWS::StackName}" {
				require.GreaterOrEqual(t, len(m), 4)
				assert.Equal(t, metrics.DimFunction, m[2])
				assert.True(t, metrics.Writes(fmt.Sprint(m[3]), name, []string{metrics.DimFunction}), "the dashboard shows %s of %v, which it does not write", name, m[3])
			}
			shown[name] = true
		}
	}
	assert.Len(t, rows, 5, "one row per concern: API, functions, DynamoDB, webhooks, security")
	for _, m := range []string{"Requests", "Status5xx", "Status429", "Latency", "Errors", "Throttles", "ConcurrentExecutions",
		"DynamoDBCalls", "DynamoDBThrottles", "WebhookFailures", "WebhookOldestPendingAgeSeconds", "OAuthRefreshReuse", "PortalLockouts"} {
		assert.True(t, shown[m], "the dashboard shows %s", m)
	}
}
