// Command samwatch writes what template.yaml repeats for each of the
// stack's functions (internal/catalog.Functions): each deployed function's
// alarms and the list of them its DeploymentPreference rolls back on, the
// deploy hook's list of functions and the versions it may invoke, and the
// dashboard. The rest of the template is written by hand and kept as it is;
// the route events are samtemplate's. go generate ./... runs it.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/gen"
)

func main() {
	gen.Main("samwatch", func(root string) ([]gen.File, error) {
		f, err := template(root, catalog.Functions())
		return []gen.File{f}, err
	}, nil)
}

// marker ends a key's line whose deeper-indented lines below it are
// generated: a function's DeploymentPreference, the hook's HOOK_FUNCTIONS
// and the Resource of its lambda:InvokeFunction statement.
const marker = "# generated from internal/catalog: go generate ./..."

// The lines around the generated resources: each function's alarms and the
// dashboard.
const (
	regionBegin = "  # Generated from internal/catalog (go generate ./..., internal/gen/samwatch): each function's"
	regionNote  = "  # alarms and the dashboard. Edit the generator, never these lines."
	regionEnd   = "  # End of the generated alarms and dashboard."
)

var resourceLine = regexp.MustCompile(`^  ([A-Za-z0-9]+):\s*$`)

// template returns template.yaml with its generated parts made from fns.
func template(root string, fns []catalog.Function) (gen.File, error) {
	const path = "template.yaml"
	raw, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return gen.File{}, err
	}
	byID := map[string]catalog.Function{}
	for _, f := range fns {
		byID[f.LogicalID] = f
	}
	lines := strings.Split(string(raw), "\n")
	var out []string
	resource := ""
	done := map[string]bool{}
	region := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case line == regionBegin:
			if region || done["region"] {
				return gen.File{}, fmt.Errorf("%s: a second %q", path, regionBegin)
			}
			region = true
			out = append(out, regionBegin, regionNote, "")
			out = append(out, resources(fns)...)
			continue
		case line == regionEnd:
			if !region {
				return gen.File{}, fmt.Errorf("%s: %q before its beginning", path, regionEnd)
			}
			region, done["region"] = false, true
			out = append(out, regionEnd)
			continue
		case region:
			continue // made again above
		}
		out = append(out, line)
		if m := resourceLine.FindStringSubmatch(line); m != nil {
			resource = m[1]
		}
		key, ok := strings.CutSuffix(line, " "+marker)
		if !ok {
			continue
		}
		indent := key[:len(key)-len(strings.TrimLeft(key, " "))]
		made, err := under(strings.TrimSpace(key), indent+"  ", resource, byID, fns)
		if err != nil {
			return gen.File{}, fmt.Errorf("%s: %s: %w", path, resource, err)
		}
		what := resource + "." + strings.TrimSpace(key)
		if done[what] {
			return gen.File{}, fmt.Errorf("%s: %s has two lines %q", path, resource, key)
		}
		done[what] = true
		for i+1 < len(lines) && strings.HasPrefix(lines[i+1], indent+"  ") {
			i++ // what was made before, made again
		}
		out = append(out, made...)
	}
	if region {
		return gen.File{}, fmt.Errorf("%s: %q without its end %q", path, regionBegin, regionEnd)
	}
	var missing []string
	if !done["region"] {
		missing = append(missing, fmt.Sprintf("the lines %q and %q under Resources", regionBegin, regionEnd))
	}
	for _, f := range fns {
		if f.Deployed() && !done[f.LogicalID+".DeploymentPreference:"] {
			missing = append(missing, fmt.Sprintf("%s's %q", f.LogicalID, "DeploymentPreference: "+marker))
		}
	}
	for _, key := range []string{"HOOK_FUNCTIONS:", "Resource:"} {
		if !done[catalog.HookFunction+"."+key] {
			missing = append(missing, fmt.Sprintf("%s's %q", catalog.HookFunction, key+" "+marker))
		}
	}
	if len(missing) > 0 {
		return gen.File{}, fmt.Errorf("%s lacks %s", path, strings.Join(missing, ", "))
	}
	return gen.File{Path: path, Content: strings.Join(out, "\n")}, nil
}

// under makes the lines under a marked key of resource.
func under(key, indent, resource string, byID map[string]catalog.Function, fns []catalog.Function) ([]string, error) {
	f, known := byID[resource]
	switch {
	case key == "DeploymentPreference:" && known && f.Deployed():
		out := []string{indent + "Alarms:"}
		for _, a := range rollbackAlarms(f) {
			out = append(out, indent+"  - !Ref "+a)
		}
		return out, nil
	case key == "HOOK_FUNCTIONS:" && resource == catalog.HookFunction:
		var pairs []string
		for _, f := range deployed(fns) {
			pairs = append(pairs, f.Dir+"=${"+f.LogicalID+"}")
		}
		return []string{indent + `!Sub "` + strings.Join(pairs, ",") + `"`}, nil
	case key == "Resource:" && resource == catalog.HookFunction:
		var out []string
		for _, f := range deployed(fns) {
			out = append(out, indent+`- !Sub "${`+f.LogicalID+`.Arn}:*"`)
		}
		return out, nil
	}
	return nil, fmt.Errorf("no generated lines belong under %q here", key)
}

// deployed are the functions CodeDeploy moves, which the hook checks.
func deployed(fns []catalog.Function) []catalog.Function {
	var out []catalog.Function
	for _, f := range fns {
		if f.Deployed() {
			out = append(out, f)
		}
	}
	return out
}

// rollbackAlarms are the logical ids of a deployed function's alarms, each
// of which rolls a deploy of it back.
func rollbackAlarms(f catalog.Function) []string {
	out := []string{f.LogicalID + "ErrorsAlarm"}
	if f.AnswersRequests() {
		out = append(out, f.LogicalID+"ErrorRateAlarm")
	}
	return out
}

// resources are the generated resources: each deployed function's alarms,
// then the dashboard.
func resources(fns []catalog.Function) []string {
	var out []string
	for _, f := range deployed(fns) {
		out = append(out, errorsAlarm(f)...)
		if f.AnswersRequests() {
			out = append(out, errorRateAlarm(f)...)
		}
		out = append(out, "")
	}
	return append(out, dashboard(fns)...)
}

// notify are the lines that send an alarm and its end to the topic.
var notify = []string{
	"      AlarmActions: [!If [CreateAlarmTopic, !Ref AlarmTopic, !Ref AlarmTopicArn]]",
	"      OKActions: [!If [CreateAlarmTopic, !Ref AlarmTopic, !Ref AlarmTopicArn]]",
}

// liveVersion are the dimensions of Lambda's own metrics of the version
// the alias live runs: a deploy updates the alarm to the new version, so
// that a canary is judged on what it alone answers.
func liveVersion(f catalog.Function, indent string) []string {
	return []string{
		indent + "- Name: FunctionName",
		indent + "  Value: !Ref " + f.LogicalID,
		indent + "- Name: Resource",
		indent + `  Value: !Sub "${` + f.LogicalID + `}:live"`,
		indent + "- Name: ExecutedVersion",
		indent + "  Value: !GetAtt " + f.LogicalID + ".Version.Version",
	}
}

// errorsAlarm fires on a failed invocation of the live version (a crash, a
// timeout, running out of memory: a function answers every handled failure
// as a response).
func errorsAlarm(f catalog.Function) []string {
	out := []string{
		"  " + f.LogicalID + "ErrorsAlarm:",
		"    Type: AWS::CloudWatch::Alarm",
		"    Properties:",
		`      AlarmDescription: "` + f.Dir + `: invocations of the live version failed (crash, timeout, out of memory); rolls a deploy of it back"`,
	}
	out = append(out, notify...)
	out = append(out,
		"      Namespace: AWS/Lambda",
		"      MetricName: Errors",
		"      Dimensions:")
	out = append(out, liveVersion(f, "        ")...)
	return append(out,
		"      Statistic: Sum",
		"      Period: 60",
		"      EvaluationPeriods: 1",
		"      ComparisonOperator: GreaterThanOrEqualToThreshold",
		"      Threshold: !Ref FunctionErrorsThreshold",
		"      TreatMissingData: notBreaching",
	)
}

// errorRateAlarm fires when the live version answers 5xx to a share of
// its requests in 2 of 3 minutes: a minute counts when it had
// AlarmMinRequests requests, or, at low traffic, AlarmMinFailures failed
// ones. The 5xx are the function's own metric of that version (written
// only by a failed request), the requests Lambda's Invocations of it. FILL
// makes a minute without either a 0, not a gap.
func errorRateAlarm(f catalog.Function) []string {
	out := []string{
		"  " + f.LogicalID + "ErrorRateAlarm:",
		"    Type: AWS::CloudWatch::Alarm",
		"    Properties:",
		`      AlarmDescription: "` + f.Dir + `: the live version answered 5xx to FunctionErrorRatePercent of its requests (in minutes of AlarmMinRequests requests, or of AlarmMinFailures failures) in 2 of 3 minutes; rolls a deploy of it back"`,
	}
	out = append(out, notify...)
	out = append(out,
		"      ComparisonOperator: GreaterThanOrEqualToThreshold",
		"      Threshold: !Ref FunctionErrorRatePercent",
		"      EvaluationPeriods: 3",
		"      DatapointsToAlarm: 2",
		"      TreatMissingData: notBreaching",
		"      Metrics:",
		"        - Id: rate",
		"          Label: percent",
		`          Expression: !Sub "IF(FILL(total, 0) >= ${AlarmMinRequests} OR FILL(failed, 0) >= ${AlarmMinFailures}, 100 * FILL(failed, 0) / FILL(total, 0), 0)"`,
		"          ReturnData: true",
		"        - Id: failed",
		"          ReturnData: false",
		"          MetricStat:",
		"            Stat: Sum",
		"            Period: 60",
		"            Metric:",
		`              Namespace: !Sub "BizPlatform/${AWS::StackName}"`,
		"              MetricName: Status5xx",
		"              Dimensions:",
		"                - Name: Function",
		"                  Value: "+f.Dir,
		"                - Name: Version",
		"                  Value: !GetAtt "+f.LogicalID+".Version.Version",
		"        - Id: total",
		"          ReturnData: false",
		"          MetricStat:",
		"            Stat: Sum",
		"            Period: 60",
		"            Metric:",
		"              Namespace: AWS/Lambda",
		"              MetricName: Invocations",
		"              Dimensions:",
	)
	return append(out, liveVersion(f, "                ")...)
}
