package deploytest

import (
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/metrics"
)

// stackNamespace is the template's metrics namespace, one per stack.
var stackNamespace = map[string]any{"Fn::Sub": metrics.DefaultNamespace + "/${AWS::StackName}"}

// alarmTopic is what every alarm notifies: the stack's topic, or the
// operator's.
var alarmTopic = []any{map[string]any{"Fn::If": []any{"CreateAlarmTopic", map[string]any{"Ref": "AlarmTopic"}, map[string]any{"Ref": "AlarmTopicArn"}}}}

// dataTable is the table the functions use: the stack's, or the one
// ExistingTableName names.
var dataTable = map[string]any{"Fn::If": []any{"UseExistingTable", map[string]any{"Ref": "ExistingTableName"}, map[string]any{"Ref": "Table"}}}

// awsMetrics are the AWS services' own metrics the alarms may read.
var awsMetrics = map[string][]string{
	"AWS/Lambda":     {"Errors", "Throttles", "ConcurrentExecutions"},
	"AWS/ApiGateway": {"5xx", "Count", "Latency"},
}

// alarmMetric is one metric an alarm reads.
type alarmMetric struct {
	namespace any
	name      string
	dims      map[string]any
}

// alarmMetrics are the metrics an alarm reads: its own, or its metric
// math's.
func alarmMetrics(alarm any) []alarmMetric {
	read := func(m any) alarmMetric {
		am := alarmMetric{namespace: Path(m, "Namespace"), name: fmt.Sprint(Path(m, "MetricName")), dims: map[string]any{}}
		for _, d := range asList(Path(m, "Dimensions")) {
			am.dims[fmt.Sprint(Path(d, "Name"))] = Path(d, "Value")
		}
		return am
	}
	props := Path(alarm, "Properties")
	if Path(props, "MetricName") != nil {
		return []alarmMetric{read(props)}
	}
	var out []alarmMetric
	for _, q := range asList(Path(props, "Metrics")) {
		if m := Path(q, "MetricStat", "Metric"); m != nil {
			out = append(out, read(m))
		}
	}
	return out
}

func resourcesOfType(res map[string]any, typ string) []string {
	var out []string
	for name, r := range res {
		if Path(r, "Type") == typ {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func TestEveryFunctionHasItsErrorAndThrottleAlarms(t *testing.T) {
	_, tpl, res := readTemplate(t)
	assert.Equal(t, stackNamespace, Path(tpl, "Globals", "Function", "Environment", "Variables", "METRICS_NAMESPACE"),
		"two stacks in one account write to namespaces of their own")
	alarms := resourcesOfType(res, "AWS::CloudWatch::Alarm")
	for dir, name := range functionDirs() {
		t.Run(name+" names itself in its metrics and has its alarms", func(t *testing.T) {
			fn := res[name]
			assert.Equal(t, dir, Path(fn, "Properties", "Environment", "Variables", "FUNCTION_NAME_DIMENSION"),
				"the Function dimension is the function's directory")
			found := map[string]bool{}
			for _, a := range alarms {
				for _, m := range alarmMetrics(res[a]) {
					switch {
					case m.namespace == "AWS/Lambda" && assert.ObjectsAreEqual(map[string]any{"Ref": name}, m.dims["FunctionName"]):
						found[m.name] = true
					case assert.ObjectsAreEqual(stackNamespace, m.namespace) && m.dims[metrics.DimFunction] == dir:
						found[m.name] = true
					}
				}
			}
			assert.True(t, found["Errors"], "an alarm on %s's failed invocations", name)
			assert.True(t, found["Throttles"], "an alarm on %s's throttled invocations", name)
			if dir == "webhooks" {
				assert.True(t, found["WebhookFailures"] && found["WebhookAttempts"], "an alarm on failing deliveries")
				assert.True(t, found["WebhookOldestPendingAgeSeconds"], "an alarm on the oldest pending event")
			} else {
				assert.True(t, found["Status5xx"] && found["Requests"], "an alarm on %s's rate of 5xx answers", name)
			}
		})
	}
}

func TestEveryAlarmNotifiesTheTopicAndReadsAMetricThatIsWritten(t *testing.T) {
	_, tpl, res := readTemplate(t)
	alarms := resourcesOfType(res, "AWS::CloudWatch::Alarm")
	require.NotEmpty(t, alarms)
	areaOf := map[string]string{}
	for dir := range functionDirs() {
		areaOf[dir] = dir
	}
	api, table, concurrency := false, map[string]bool{}, false
	for _, a := range alarms {
		t.Run(a, func(t *testing.T) {
			props := Path(res[a], "Properties")
			assert.Equal(t, alarmTopic, Path(props, "AlarmActions"), "%s notifies the alarm topic", a)
			assert.Equal(t, alarmTopic, Path(props, "OKActions"), "%s says when it is over", a)
			assert.Contains(t, []any{"notBreaching", "breaching"}, Path(props, "TreatMissingData"), "%s decides what silence means", a)
			assert.NotEmpty(t, Path(props, "AlarmDescription"))
			threshold, _ := Path(props, "Threshold", "Ref").(string)
			require.NotEmpty(t, threshold, "%s's threshold is a parameter", a)
			assert.NotNil(t, Path(tpl, "Parameters", threshold, "Default"), "%s has a default", threshold)
			for _, q := range asList(Path(props, "Metrics")) {
				sub, _ := Path(q, "Expression", "Fn::Sub").([]any)
				if len(sub) != 2 {
					continue
				}
				assert.Equal(t, dataTable, Path(sub[1], "DataTable"), "%s reads the table the functions use", a)
				for _, metric := range []string{"ThrottledRequests", "SystemErrors"} {
					if sub[0] == `SELECT SUM(`+metric+`) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = '${DataTable}'` {
						table[metric] = true
					}
				}
			}
			for _, m := range alarmMetrics(res[a]) {
				if assert.ObjectsAreEqual(stackNamespace, m.namespace) {
					dims := make([]string, 0, len(m.dims))
					for d := range m.dims {
						dims = append(dims, d)
					}
					function := fmt.Sprint(m.dims[metrics.DimFunction])
					assert.Contains(t, areaOf, function, "%s reads the metrics of a function that exists", a)
					assert.True(t, metrics.Writes(function, m.name, dims), "%s reads %s %v of %s: not a metric the code writes", a, m.name, dims, function)
					continue
				}
				ns := fmt.Sprint(m.namespace)
				assert.Contains(t, awsMetrics[ns], m.name, "%s reads %s %s", a, ns, m.name)
				if ns == "AWS/ApiGateway" {
					api = api || m.name == "Latency"
					assert.Equal(t, map[string]any{"ApiId": map[string]any{"Ref": "HttpApi"}}, m.dims, "the API's own figures")
				}
				if m.name == "ConcurrentExecutions" {
					concurrency = true
					assert.Empty(t, m.dims, "the account's concurrency, every function of it")
				}
			}
		})
	}
	assert.True(t, api, "an alarm on the API's latency")
	assert.True(t, table["ThrottledRequests"] && table["SystemErrors"], "alarms on the table's throttled requests and system errors")
	assert.True(t, concurrency, "an alarm on the account's concurrency")
}

func TestTheAlarmTopicIsTheStacksOrTheOperators(t *testing.T) {
	_, tpl, res := readTemplate(t)
	assert.Equal(t, map[string]any{"Fn::Equals": []any{map[string]any{"Ref": "AlarmTopicArn"}, ""}}, Path(tpl, "Conditions", "CreateAlarmTopic"))
	assert.Equal(t, "", Path(tpl, "Parameters", "AlarmTopicArn", "Default"), "a topic of the stack unless one is given")
	assert.Equal(t, "", Path(tpl, "Parameters", "AlarmEmail", "Default"), "no subscription unless an address is given")
	topic := res["AlarmTopic"]
	assert.Equal(t, "AWS::SNS::Topic", Path(topic, "Type"))
	assert.Equal(t, "CreateAlarmTopic", Path(topic, "Condition"))
	sub := res["AlarmEmailSubscription"]
	assert.Equal(t, "AWS::SNS::Subscription", Path(sub, "Type"))
	assert.Equal(t, "SubscribeAlarmEmail", Path(sub, "Condition"))
	assert.Equal(t, "email", Path(sub, "Properties", "Protocol"))
	assert.Equal(t, alarmTopic[0], Path(sub, "Properties", "TopicArn"))
	assert.Equal(t, alarmTopic[0], Path(tpl, "Outputs", "AlarmsTopicArn", "Value"))
}
