package deploytest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
)

// The deploy hook: functions/pretraffic, its template logical id.
const (
	hookDir      = catalog.Hook
	hookFunction = catalog.HookFunction
)

// parameterName is an SSM parameter's name as the template gives it: the
// parameter's value, or by default one with the stack's name in it.
func parameterName(param, condition, suffix string) map[string]any {
	return map[string]any{"Fn::If": []any{condition, map[string]any{"Fn::Sub": "/bizplatform/${AWS::StackName}/" + suffix}, map[string]any{"Ref": param}}}
}

// canaryParameter and webhookKeyParameter are the two SSM parameters.
var (
	canaryParameter     = parameterName("CanaryTokenParameterName", "DefaultCanaryTokenParameter", "canary-token")
	webhookKeyParameter = parameterName("WebhookKeyParameterName", "DefaultWebhookKeyParameter", "webhook-signing-key")
)

// parameterArn is the IAM resource of one SSM parameter, as a JSON string.
func parameterArn(name map[string]any) string {
	b, _ := json.Marshal(map[string]any{"Fn::Sub": []any{"arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter${Name}", map[string]any{"Name": name}}})
	return string(b)
}

func TestEveryFunctionDeploysThroughCodeDeployCheckedBeforeAndAfterTheShift(t *testing.T) {
	_, tpl, res := readTemplate(t)
	fn := Path(tpl, "Globals", "Function")
	assert.Equal(t, "live", Path(fn, "AutoPublishAlias"), "every function publishes a version and invokes it through an alias")
	assert.Equal(t, map[string]any{"Ref": "DeploymentType"}, Path(fn, "DeploymentPreference", "Type"))
	assert.Equal(t, map[string]any{"Ref": hookFunction}, Path(fn, "DeploymentPreference", "Hooks", "PreTraffic"),
		"no version takes traffic before the hook passed it")
	assert.Equal(t, map[string]any{"Ref": hookFunction}, Path(fn, "DeploymentPreference", "Hooks", "PostTraffic"),
		"after the shift the hook checks the alias, which must run the new version")
	allowed := asList(Path(tpl, "Parameters", "DeploymentType", "AllowedValues"))
	for _, want := range []string{"Canary10Percent5Minutes", "Linear10PercentEvery1Minute", "AllAtOnce"} {
		assert.Contains(t, allowed, want)
	}
	for _, f := range catalog.Functions() {
		if !f.Deployed() {
			assert.ElementsMatch(t, []any{"AutoPublishAlias", "DeploymentPreference"}, asList(Path(res[f.LogicalID], "IgnoreGlobals")),
				"%s serves no one: updated in place, not through the hook", f.LogicalID)
		}
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
	assert.Equal(t, canaryParameter, Path(vars, "CANARY_TOKEN_PARAMETER"))
	assert.Equal(t, map[string]any{"Ref": "CanaryAccountId"}, Path(vars, "CANARY_ACCOUNT_ID"))
	pairs := strings.Split(fmt.Sprint(Path(vars, "HOOK_FUNCTIONS", "Fn::Sub")), ",")
	var want, arns []string
	for dir, fn := range functionDirs() {
		want = append(want, dir+"=${"+fn+"}")
		arns = append(arns, `{"Fn::Sub":"${`+fn+`.Arn}:*"}`)
	}
	assert.ElementsMatch(t, want, pairs, "the hook knows every function CodeDeploy moves by its deployed name")

	actions, resources := policy(t, hook)
	assert.Equal(t, []string{"codedeploy:GetDeployment", "codedeploy:PutLifecycleEventHookExecutionStatus", "lambda:InvokeFunction", "ssm:GetParameter"}, actions)
	assert.ElementsMatch(t, arns, resources["lambda"], "it may invoke the versions and aliases of the stack's functions, nothing else")
	assert.Equal(t, []string{`{"Fn::Sub":"arn:${AWS::Partition}:codedeploy:${AWS::Region}:${AWS::AccountId}:deploymentgroup:${ServerlessDeploymentApplication}/*"}`},
		resources["codedeploy"], "only the stack's deployment groups")
	assert.Equal(t, []string{parameterArn(canaryParameter)}, resources["ssm"], "only the canary token's parameter")
	for svc, rs := range resources {
		assert.False(t, slices.Contains(rs, `"*"`), "%s on every resource", svc)
	}
	lg := res[fmt.Sprint(Path(hook, "Properties", "LoggingConfig", "LogGroup", "Ref"))]
	assert.Equal(t, "AWS::Logs::LogGroup", Path(lg, "Type"))
	assert.NotNil(t, Path(lg, "Properties", "RetentionInDays"))
	assert.NotNil(t, Path(tpl, "Outputs", "CanaryTokenParameter"), "the operator reads the parameter's name from the stack")
}
