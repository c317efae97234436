package deploytest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/metrics"
)

// The PreTraffic hook: functions/pretraffic, its template logical id.
const (
	hookDir      = "pretraffic"
	hookFunction = "PreTrafficHookFunction"
)

func TestEveryFunctionDeploysThroughCodeDeployAndRollsBackOnItsOwnAlarms(t *testing.T) {
	_, tpl, res := readTemplate(t)
	fn := Path(tpl, "Globals", "Function")
	assert.Equal(t, "live", Path(fn, "AutoPublishAlias"), "every function publishes a version and invokes it through an alias")
	assert.Equal(t, map[string]any{"Ref": "DeploymentType"}, Path(fn, "DeploymentPreference", "Type"))
	assert.Equal(t, map[string]any{"Ref": hookFunction}, Path(fn, "DeploymentPreference", "Hooks", "PreTraffic"),
		"no version takes traffic before the hook passed it")
	allowed := asList(Path(tpl, "Parameters", "DeploymentType", "AllowedValues"))
	for _, want := range []string{"Canary10Percent5Minutes", "Linear10PercentEvery1Minute", "AllAtOnce"} {
		assert.Contains(t, allowed, want)
	}
	for dir, name := range functionDirs() {
		t.Run(name+" is rolled back by its own alarms", func(t *testing.T) {
			alarms := asList(Path(res[name], "Properties", "DeploymentPreference", "Alarms"))
			require.NotEmpty(t, alarms, "%s lists the alarms that roll it back", name)
			var names []string
			for _, a := range alarms {
				alarm, _ := Path(a, "Ref").(string)
				names = append(names, alarm)
				require.Equal(t, "AWS::CloudWatch::Alarm", Path(res[alarm], "Type"), "%s is an alarm of the template", alarm)
				for _, m := range alarmMetrics(res[alarm]) {
					if m.namespace == "AWS/Lambda" {
						assert.Equal(t, map[string]any{"Ref": name}, m.dims["FunctionName"], "%s reads %s's own figures", alarm, name)
					} else {
						assert.Equal(t, dir, m.dims[metrics.DimFunction], "%s reads %s's own figures", alarm, name)
					}
				}
			}
			assert.Contains(t, names, name+"ErrorsAlarm", "a version that fails its invocations is rolled back")
			if dir != "webhooks" {
				assert.Contains(t, names, name+"ErrorRateAlarm", "a version that answers 5xx is rolled back")
			}
		})
	}
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "samconfig.toml"))
	require.NoError(t, err)
	dev, prod, _ := strings.Cut(string(raw), "[prod.")
	assert.Contains(t, dev, "DeploymentType=AllAtOnce", "dev deploys at once")
	assert.Contains(t, prod, "DeploymentType=Canary10Percent5Minutes", "prod deploys to a canary first")
}

func TestTheDeployHookKnowsEveryFunctionAndMayDoOnlyItsWork(t *testing.T) {
	_, tpl, res := readTemplate(t)
	hook := res[hookFunction]
	require.NotNil(t, hook)
	assert.Equal(t, "makefile", Path(hook, "Metadata", "BuildMethod"))
	assert.ElementsMatch(t, []any{"AutoPublishAlias", "DeploymentPreference"}, asList(Path(hook, "IgnoreGlobals")),
		"the hook is not deployed through itself")
	name := fmt.Sprint(Path(hook, "Properties", "FunctionName", "Fn::Sub"))
	assert.True(t, strings.HasPrefix(name, "CodeDeployHook_"), "CodeDeploy's role (AWSCodeDeployRoleForLambda) may invoke only CodeDeployHook_* functions: %s", name)
	vars := Path(hook, "Properties", "Environment", "Variables")
	assert.Equal(t, map[string]any{"Ref": "CanaryTokenParameterName"}, Path(vars, "CANARY_TOKEN_PARAMETER"))
	assert.Equal(t, map[string]any{"Ref": "CanaryAccountId"}, Path(vars, "CANARY_ACCOUNT_ID"))
	pairs := strings.Split(fmt.Sprint(Path(vars, "HOOK_FUNCTIONS", "Fn::Sub")), ",")
	var want, arns []string
	for dir, fn := range functionDirs() {
		want = append(want, dir+"=${"+fn+"}")
		arns = append(arns, `{"Fn::Sub":"${`+fn+`.Arn}:*"}`)
	}
	assert.ElementsMatch(t, want, pairs, "the hook knows every function by its deployed name")

	actions, resources := policy(t, hook)
	assert.Equal(t, []string{"codedeploy:GetDeployment", "codedeploy:PutLifecycleEventHookExecutionStatus", "lambda:InvokeFunction", "ssm:GetParameter"}, actions)
	assert.ElementsMatch(t, arns, resources["lambda"], "it may invoke the versions of the stack's functions, nothing else")
	assert.Equal(t, []string{`{"Fn::Sub":"arn:${AWS::Partition}:codedeploy:${AWS::Region}:${AWS::AccountId}:deploymentgroup:${ServerlessDeploymentApplication}/*"}`},
		resources["codedeploy"], "only the stack's deployment groups")
	assert.Equal(t, []string{`{"Fn::Sub":"arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter${CanaryTokenParameterName}"}`},
		resources["ssm"], "only the canary token's parameter")
	for svc, rs := range resources {
		assert.False(t, slices.Contains(rs, `"*"`), "%s on every resource", svc)
	}
	assert.NotNil(t, Path(tpl, "Parameters", "CanaryTokenParameterName", "Default"))
	lg := res[fmt.Sprint(Path(hook, "Properties", "LoggingConfig", "LogGroup", "Ref"))]
	assert.Equal(t, "AWS::Logs::LogGroup", Path(lg, "Type"))
	assert.NotNil(t, Path(lg, "Properties", "RetentionInDays"))
}
