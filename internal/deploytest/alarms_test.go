package deploytest

import (
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
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

// awsMetrics are the AWS services' own metrics (free) the alarms may read.
// None of AWS/DynamoDB's: CloudWatch ignores TreatMissingData for alarms on
// that namespace, and its throttle metrics exist only while throttling, so
// such an alarm would never say it is over.
var awsMetrics = map[string][]string{
	"AWS/Lambda":     {"Errors", "Invocations", "Throttles", "ConcurrentExecutions", "IteratorAge"},
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

// liveVersion are the dimensions of Lambda's metrics of the version a
// function's alias live runs: a deploy moves them to the new version.
func liveVersion(logicalID string) map[string]any {
	return map[string]any{
		"FunctionName":    map[string]any{"Ref": logicalID},
		"Resource":        map[string]any{"Fn::Sub": "${" + logicalID + "}:live"},
		"ExecutedVersion": versionOf(logicalID),
	}
}

// versionOf is the number of the version a deploy publishes (SAM's
// Function.Version reference, its AWS::Lambda::Version's attribute).
func versionOf(logicalID string) map[string]any {
	return map[string]any{"Fn::GetAtt": []any{logicalID, "Version.Version"}}
}

// Each function CodeDeploy moves is rolled back by alarms on the version
// being deployed alone: its failed invocations, and, for one that answers
// requests, its 5xx answers (its own metric of that version) over its
// invocations (Lambda's, of that version). A canary that fails every
// request it gets is judged on those, not diluted by the old version.
func TestEveryDeployedFunctionRollsBackOnItsNewVersionsOwnFigures(t *testing.T) {
	_, tpl, res := readTemplate(t)
	assert.Equal(t, stackNamespace, Path(tpl, "Globals", "Function", "Environment", "Variables", "METRICS_NAMESPACE"),
		"two stacks in one account write to namespaces of their own")
	assert.Equal(t, "live", Path(tpl, "Globals", "Function", "AutoPublishAlias"), "the alias the dimensions name")
	for _, f := range catalog.Functions() {
		if !f.Deployed() {
			continue
		}
		t.Run(f.LogicalID+" rolls back on its new version's failures", func(t *testing.T) {
			fn := res[f.LogicalID]
			assert.Nil(t, Path(fn, "Properties", "Environment", "Variables", "FUNCTION_NAME_DIMENSION"),
				"the binary names itself (its directory); the packaging tests read it back")
			var rollback []string
			for _, a := range asList(Path(fn, "Properties", "DeploymentPreference", "Alarms")) {
				rollback = append(rollback, fmt.Sprint(Path(a, "Ref")))
			}
			want := []string{f.LogicalID + "ErrorsAlarm"}
			if f.AnswersRequests() {
				want = append(want, f.LogicalID+"ErrorRateAlarm")
			}
			assert.Equal(t, want, rollback)

			errs := alarmMetrics(res[f.LogicalID+"ErrorsAlarm"])
			require.Len(t, errs, 1)
			assert.Equal(t, alarmMetric{"AWS/Lambda", "Errors", liveVersion(f.LogicalID)}, errs[0], "a crash, a timeout or running out of memory of the new version")
			assert.Equal(t, map[string]any{"Ref": "FunctionErrorsThreshold"}, Path(res[f.LogicalID+"ErrorsAlarm"], "Properties", "Threshold"))
			if !f.AnswersRequests() {
				return
			}
			rate := alarmMetrics(res[f.LogicalID+"ErrorRateAlarm"])
			assert.ElementsMatch(t, []alarmMetric{
				{stackNamespace, metrics.Status5xx, map[string]any{metrics.DimFunction: f.Dir, metrics.DimVersion: versionOf(f.LogicalID)}},
				{"AWS/Lambda", "Invocations", liveVersion(f.LogicalID)},
			}, rate, "the version's 5xx over its invocations")
		})
	}
}

func TestEveryAlarmNotifiesTheTopicAndReadsAMetricThatIsWritten(t *testing.T) {
	_, tpl, res := readTemplate(t)
	alarms := resourcesOfType(res, "AWS::CloudWatch::Alarm")
	require.NotEmpty(t, alarms)
	dirOf := map[string]string{}
	for _, f := range catalog.Functions() {
		dirOf[f.LogicalID] = f.Dir
	}
	read := map[string]bool{}
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
				if expr, ok := Path(q, "Expression").(string); ok {
					assert.NotContains(t, expr, "SELECT", "no Metrics Insights query: priced and evaluated otherwise")
				}
			}
			for _, m := range alarmMetrics(res[a]) {
				if assert.ObjectsAreEqual(stackNamespace, m.namespace) {
					dims := make([]string, 0, len(m.dims))
					for d := range m.dims {
						dims = append(dims, d)
					}
					function, _ := m.dims[metrics.DimFunction].(string)
					if v, ok := m.dims[metrics.DimVersion]; ok {
						owner := fmt.Sprint(asList(Path(v, "Fn::GetAtt"))[0])
						assert.Equal(t, function, dirOf[owner], "%s reads the version of the function it names", a)
					}
					assert.True(t, metrics.Writes(function, m.name, dims), "%s reads %s %v of %q: not a metric the code writes", a, m.name, dims, function)
					read[m.name] = true
					continue
				}
				ns := fmt.Sprint(m.namespace)
				assert.Contains(t, awsMetrics[ns], m.name, "%s reads %s %s", a, ns, m.name)
				if ns == "AWS/ApiGateway" {
					assert.Equal(t, map[string]any{"ApiId": map[string]any{"Ref": "HttpApi"}}, m.dims, "the API's own figures")
				}
				if m.name == "ConcurrentExecutions" || m.name == "Throttles" {
					assert.Empty(t, m.dims, "the account's %s, every function of it: AWS's free metric", m.name)
				}
				if m.name == "IteratorAge" {
					assert.Equal(t, map[string]any{"FunctionName": map[string]any{"Ref": catalog.WebhookFunction}}, m.dims, "the deliverer's stream")
				}
				read[ns+" "+m.name] = true
			}
		})
	}
	for _, want := range []string{metrics.ProbeFailures, metrics.DynamoDBThrottles, metrics.WebhookOldestPendingAgeSeconds, metrics.WebhookFailures,
		"AWS/Lambda Throttles", "AWS/Lambda ConcurrentExecutions", "AWS/Lambda IteratorAge", "AWS/ApiGateway 5xx", "AWS/ApiGateway Latency"} {
		assert.True(t, read[want], "an alarm reads %s", want)
	}
}

func TestTheAlarmTopicIsTheStacksOrTheOperatorsAndAStackWithoutASubscriberSaysSo(t *testing.T) {
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

	warning := Path(tpl, "Outputs", "AlarmsReachNoOne")
	require.NotNil(t, warning, "an output says when no one is paged")
	cond := fmt.Sprint(Path(warning, "Condition"))
	for _, tc := range []struct {
		name   string
		params map[string]string
		warns  bool
	}{
		{"neither an address nor a topic: the stack's topic reaches no one", map[string]string{}, true},
		{"an address subscribed", map[string]string{"AlarmEmail": "oncall@example.com"}, false},
		{"the operator's topic", map[string]string{"AlarmTopicArn": "arn:aws:sns:us-east-1:123456789012:pager"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Stack{Name: "s", Region: "us-east-1", Parameters: tc.params}.condition(tpl, cond)
			require.NoError(t, err)
			assert.Equal(t, tc.warns, got)
		})
	}
}
