package deployhook

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/codedeploy"
	cdtypes "github.com/aws/aws-sdk-go-v2/service/codedeploy/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeAWS records the hook's calls; the binary's test runs it against
// real function binaries (internal/deploytest).
type fakeAWS struct {
	revision *cdtypes.RevisionLocation
	putErr   error
	statuses []cdtypes.LifecycleEventStatus
	invoked  []string
	ssmReads int
}

func (f *fakeAWS) GetDeployment(_ context.Context, in *codedeploy.GetDeploymentInput, _ ...func(*codedeploy.Options)) (*codedeploy.GetDeploymentOutput, error) {
	return &codedeploy.GetDeploymentOutput{DeploymentInfo: &cdtypes.DeploymentInfo{DeploymentId: in.DeploymentId, Revision: f.revision}}, nil
}

func (f *fakeAWS) PutLifecycleEventHookExecutionStatus(_ context.Context, in *codedeploy.PutLifecycleEventHookExecutionStatusInput, _ ...func(*codedeploy.Options)) (*codedeploy.PutLifecycleEventHookExecutionStatusOutput, error) {
	f.statuses = append(f.statuses, in.Status)
	return &codedeploy.PutLifecycleEventHookExecutionStatusOutput{}, f.putErr
}

func (f *fakeAWS) Invoke(_ context.Context, in *lambda.InvokeInput, _ ...func(*lambda.Options)) (*lambda.InvokeOutput, error) {
	f.invoked = append(f.invoked, aws.ToString(in.FunctionName)+":"+aws.ToString(in.Qualifier))
	return &lambda.InvokeOutput{StatusCode: 200, Payload: []byte(`null`)}, nil
}

func (f *fakeAWS) GetParameter(_ context.Context, in *ssm.GetParameterInput, _ ...func(*ssm.Options)) (*ssm.GetParameterOutput, error) {
	f.ssmReads++
	return &ssm.GetParameterOutput{Parameter: &ssmtypes.Parameter{Name: in.Name, Value: aws.String("bpt_canary\n")}}, nil
}

var (
	_ Invoker     = (*fakeAWS)(nil)
	_ Deployments = (*fakeAWS)(nil)
	_ Parameters  = (*fakeAWS)(nil)
)

func newHook(f *fakeAWS) *Hook {
	return &Hook{Lambda: f, CodeDeploy: f, SSM: f, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Functions: map[string]string{"stack-WebhookFunction-ABC": "webhooks"}, CanaryParameter: "/canary", CanaryAccount: "acct"}
}

const event = `{"DeploymentId":"d-1","LifecycleEventHookExecutionId":"e-1"}`

func TestTheHookChecksTheVersionTheDeploymentNames(t *testing.T) {
	spec := func(name string) string {
		return `{"version":0.0,"Resources":[{"WebhookFunction":{"Type":"AWS::Lambda::Function","Properties":{"Name":"` + name + `","Alias":"live","CurrentVersion":"3","TargetVersion":"4"}}}]}`
	}
	yamlSpec := "version: 0.0\nResources:\n  - WebhookFunction:\n      Type: AWS::Lambda::Function\n      Properties:\n        Name: stack-WebhookFunction-ABC\n        Alias: live\n        CurrentVersion: \"3\"\n        TargetVersion: \"4\"\n"
	cases := []struct {
		name     string
		revision *cdtypes.RevisionLocation
		status   cdtypes.LifecycleEventStatus
		invoked  []string
	}{
		{"an AppSpec as content passes the version it names", &cdtypes.RevisionLocation{AppSpecContent: &cdtypes.AppSpecContent{Content: aws.String(spec("stack-WebhookFunction-ABC"))}},
			cdtypes.LifecycleEventStatusSucceeded, []string{"stack-WebhookFunction-ABC:4"}},
		{"an AppSpec as a YAML string passes the version it names", &cdtypes.RevisionLocation{String_: &cdtypes.RawString{Content: aws.String(yamlSpec)}},
			cdtypes.LifecycleEventStatusSucceeded, []string{"stack-WebhookFunction-ABC:4"}},
		{"a function named by its ARN is the same function", &cdtypes.RevisionLocation{AppSpecContent: &cdtypes.AppSpecContent{Content: aws.String(spec("arn:aws:lambda:us-east-1:123456789012:function:stack-WebhookFunction-ABC"))}},
			cdtypes.LifecycleEventStatusSucceeded, []string{"stack-WebhookFunction-ABC:4"}},
		{"a function the hook does not know fails without being invoked", &cdtypes.RevisionLocation{AppSpecContent: &cdtypes.AppSpecContent{Content: aws.String(spec("other-stack-Fn"))}},
			cdtypes.LifecycleEventStatusFailed, nil},
		{"a deployment without an AppSpec fails", nil, cdtypes.LifecycleEventStatusFailed, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeAWS{revision: c.revision}
			require.NoError(t, newHook(f).Handle(context.Background(), []byte(event)))
			assert.Equal(t, []cdtypes.LifecycleEventStatus{c.status}, f.statuses, "one verdict, reported")
			assert.Equal(t, c.invoked, f.invoked)
		})
	}
}

func TestAVerdictThatCannotBeReportedFailsTheInvocationSoLambdaRetriesIt(t *testing.T) {
	f := &fakeAWS{putErr: errors.New("throttled")}
	assert.Error(t, newHook(f).Handle(context.Background(), []byte(event)))
	assert.Error(t, newHook(f).Handle(context.Background(), []byte(`{"something":"else"}`)), "not a lifecycle event")
}

func TestTheCanaryTokenIsReadOncePerColdStartAndTrimmed(t *testing.T) {
	f := &fakeAWS{}
	h := newHook(f)
	h.CanaryParameter = "/canary-once"
	for range 3 {
		v, err := h.canaryToken(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "bpt_canary", v)
	}
	assert.Equal(t, 1, f.ssmReads)
}
