package deployhook

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/codedeploy"
	cdtypes "github.com/aws/aws-sdk-go-v2/service/codedeploy/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/canary"
	"github.com/bizplatform/api/shared/dryrun"
)

// fakeAWS records the hook's calls; the binary's test runs it against
// real function binaries (internal/deploytest).
type fakeAWS struct {
	mu       sync.Mutex
	revision *cdtypes.RevisionLocation
	putErr   error
	statuses []cdtypes.LifecycleEventStatus
	// reportCtxErr is the error of the context the verdict was reported on.
	reportCtxErr error
	invoked      []string
	payloads     [][]byte
	ssmReads     int
	// aliasRuns is the version the alias "live" runs ("": the target),
	// or, when aliasSeq is set, the versions it runs one invocation after
	// another.
	aliasRuns string
	aliasSeq  []string
	// throttles is how many invocations are refused before one runs.
	throttles int
	// hang makes every invocation wait for its context.
	hang bool
}

func (f *fakeAWS) GetDeployment(_ context.Context, in *codedeploy.GetDeploymentInput, _ ...func(*codedeploy.Options)) (*codedeploy.GetDeploymentOutput, error) {
	return &codedeploy.GetDeploymentOutput{DeploymentInfo: &cdtypes.DeploymentInfo{DeploymentId: in.DeploymentId, Revision: f.revision}}, nil
}

func (f *fakeAWS) PutLifecycleEventHookExecutionStatus(ctx context.Context, in *codedeploy.PutLifecycleEventHookExecutionStatusInput, _ ...func(*codedeploy.Options)) (*codedeploy.PutLifecycleEventHookExecutionStatusOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.statuses = append(f.statuses, in.Status)
	f.reportCtxErr = ctx.Err()
	return &codedeploy.PutLifecycleEventHookExecutionStatusOutput{}, f.putErr
}

func (f *fakeAWS) Invoke(ctx context.Context, in *lambda.InvokeInput, _ ...func(*lambda.Options)) (*lambda.InvokeOutput, error) {
	f.mu.Lock()
	if f.throttles > 0 {
		f.throttles--
		f.mu.Unlock()
		return nil, &lambdatypes.TooManyRequestsException{Message: aws.String("Rate exceeded")}
	}
	f.invoked = append(f.invoked, aws.ToString(in.FunctionName)+":"+aws.ToString(in.Qualifier))
	f.payloads = append(f.payloads, in.Payload)
	hang := f.hang
	f.mu.Unlock()
	if hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	executed := aws.ToString(in.Qualifier)
	if executed == "live" {
		executed = "4"
		if f.aliasRuns != "" {
			executed = f.aliasRuns
		}
		f.mu.Lock()
		if len(f.aliasSeq) > 0 {
			executed, f.aliasSeq = f.aliasSeq[0], f.aliasSeq[1:]
		}
		f.mu.Unlock()
	}
	return &lambda.InvokeOutput{StatusCode: 200, Payload: answerTo(in.Payload), ExecutedVersion: aws.String(executed)}, nil
}

// answerTo is what a working version answers: null to the deliverer's
// dry run, 200 to an API request with a token, the API's 401 without.
func answerTo(payload []byte) []byte {
	var ev events.APIGatewayV2HTTPRequest
	if json.Unmarshal(payload, &ev) != nil || ev.RouteKey == "" {
		return []byte(`null`)
	}
	if ev.Headers["authorization"] != "" {
		return []byte(`{"statusCode":200,"headers":{"Content-Type":"application/json"},"body":"{\"contacts\":[]}"}`)
	}
	return []byte(`{"statusCode":401,"headers":{"Content-Type":"application/json"},"body":"{\"statusCode\":401,\"message\":\"Missing bearer token\",\"error\":\"Unauthorized\"}"}`)
}

func (f *fakeAWS) GetParameter(_ context.Context, in *ssm.GetParameterInput, _ ...func(*ssm.Options)) (*ssm.GetParameterOutput, error) {
	f.ssmReads++
	return &ssm.GetParameterOutput{Parameter: &ssmtypes.Parameter{Name: in.Name, Value: aws.String("bpt_canary\n")}}, nil
}

var (
	_ Invoker           = (*fakeAWS)(nil)
	_ Deployments       = (*fakeAWS)(nil)
	_ canary.Parameters = (*fakeAWS)(nil)
)

func newHook(f *fakeAWS) *Hook {
	return &Hook{Lambda: f, CodeDeploy: f, Canary: &canary.Token{SSM: f, Parameter: "/canary"}, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Functions: map[string]string{"stack-WebhookFunction-ABC": "webhooks"}, CanaryAccount: "acct"}
}

const event = `{"DeploymentId":"d-1","LifecycleEventHookExecutionId":"e-1"}`

func revisionOf(name, alias string) *cdtypes.RevisionLocation {
	return &cdtypes.RevisionLocation{AppSpecContent: &cdtypes.AppSpecContent{Content: aws.String(
		`{"version":0.0,"Resources":[{"WebhookFunction":{"Type":"AWS::Lambda::Function","Properties":{"Name":"` + name + `","Alias":"` + alias + `","CurrentVersion":"3","TargetVersion":"4"}}}]}`)}}
}

func TestTheHookChecksTheVersionTheDeploymentNames(t *testing.T) {
	yamlSpec := "version: 0.0\nResources:\n  - WebhookFunction:\n      Type: AWS::Lambda::Function\n      Properties:\n        Name: stack-WebhookFunction-ABC\n        Alias: live\n        CurrentVersion: \"3\"\n        TargetVersion: \"4\"\n"
	cases := []struct {
		name      string
		revision  *cdtypes.RevisionLocation
		aliasRuns string
		status    cdtypes.LifecycleEventStatus
		invoked   []string
	}{
		{"before the shift, the version named passes; the alias, still on the old one, is no verdict", revisionOf("stack-WebhookFunction-ABC", "live"), "3",
			cdtypes.LifecycleEventStatusSucceeded, []string{"stack-WebhookFunction-ABC:4", "stack-WebhookFunction-ABC:live"}},
		{"after the shift, the alias running the new version passes too", revisionOf("stack-WebhookFunction-ABC", "live"), "",
			cdtypes.LifecycleEventStatusSucceeded, []string{"stack-WebhookFunction-ABC:4", "stack-WebhookFunction-ABC:live"}},
		{"an AppSpec as a YAML string passes the version it names", &cdtypes.RevisionLocation{String_: &cdtypes.RawString{Content: aws.String(yamlSpec)}}, "",
			cdtypes.LifecycleEventStatusSucceeded, []string{"stack-WebhookFunction-ABC:4", "stack-WebhookFunction-ABC:live"}},
		{"a function named by its ARN is the same function", revisionOf("arn:aws:lambda:us-east-1:123456789012:function:stack-WebhookFunction-ABC", "live"), "",
			cdtypes.LifecycleEventStatusSucceeded, []string{"stack-WebhookFunction-ABC:4", "stack-WebhookFunction-ABC:live"}},
		{"a function the hook does not know fails without being invoked", revisionOf("other-stack-Fn", "live"), "",
			cdtypes.LifecycleEventStatusFailed, nil},
		{"a deployment without an AppSpec fails", nil, "", cdtypes.LifecycleEventStatusFailed, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeAWS{revision: c.revision, aliasRuns: c.aliasRuns}
			require.NoError(t, newHook(f).Handle(context.Background(), []byte(event)))
			assert.Equal(t, []cdtypes.LifecycleEventStatus{c.status}, f.statuses, "one verdict, reported")
			assert.Equal(t, c.invoked, f.invoked)
			for _, p := range f.payloads {
				assert.True(t, dryrun.Is(p), "the deliverer is sent a dry run, never a sweep: %s", p)
			}
		})
	}
}

func TestAnAliasThatStopsRunningTheNewVersionAfterTheShiftFails(t *testing.T) {
	f := &fakeAWS{aliasSeq: []string{"4", "3"}}
	h := newHook(f)
	h.Functions = map[string]string{"stack-OAuthFunction-ABC": "oauth", "stack-ContactsFunction-ABC": "contacts"}
	target := Target{Function: "stack-ContactsFunction-ABC", Alias: "live", Version: "4"}
	err := h.Check(context.Background(), target)
	require.Error(t, err, "the second probe through the alias ran the old version")
	assert.Contains(t, err.Error(), `ran version "3"`)
	assert.Equal(t, []string{"stack-ContactsFunction-ABC:4", "stack-ContactsFunction-ABC:4", "stack-ContactsFunction-ABC:live", "stack-ContactsFunction-ABC:live"}, f.invoked,
		"a request without a token and a read with the canary token, to the version, then through the alias")
}

func TestTheVerdictIsReportedOnTheHooksOwnDeadline(t *testing.T) {
	f := &fakeAWS{revision: revisionOf("stack-WebhookFunction-ABC", "live"), hang: true}
	h := newHook(f)
	h.Reserve = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	require.NoError(t, h.Handle(ctx, []byte(event)))
	assert.Less(t, time.Since(start), 500*time.Millisecond, "the checks end before the invocation's deadline")
	assert.Equal(t, []cdtypes.LifecycleEventStatus{cdtypes.LifecycleEventStatusFailed}, f.statuses, "a check that did not end fails, and the verdict is reported")
	assert.NoError(t, f.reportCtxErr, "on a context the checks' deadline did not cancel")
}

func TestAThrottledInvocationIsTriedAgainUntilItRuns(t *testing.T) {
	firstThrottleWait = 10 * time.Millisecond
	t.Cleanup(func() { firstThrottleWait = time.Second })
	f := &fakeAWS{revision: revisionOf("stack-WebhookFunction-ABC", "live"), throttles: 2}
	require.NoError(t, newHook(f).Handle(context.Background(), []byte(event)))
	assert.Equal(t, []cdtypes.LifecycleEventStatus{cdtypes.LifecycleEventStatusSucceeded}, f.statuses, "the deliverer's own invocations held its concurrency a while")

	stuck := &fakeAWS{revision: revisionOf("stack-WebhookFunction-ABC", "live"), throttles: 1000}
	h := newHook(stuck)
	h.Reserve = 100 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	require.NoError(t, h.Handle(ctx, []byte(event)))
	assert.Equal(t, []cdtypes.LifecycleEventStatus{cdtypes.LifecycleEventStatusFailed}, stuck.statuses, "throttled until the deadline: failed, and said")
}

func TestAVerdictThatCannotBeReportedFailsTheInvocationSoLambdaRetriesIt(t *testing.T) {
	f := &fakeAWS{putErr: errors.New("throttled")}
	assert.Error(t, newHook(f).Handle(context.Background(), []byte(event)))
	assert.Error(t, newHook(f).Handle(context.Background(), []byte(`{"something":"else"}`)), "not a lifecycle event")
}

func TestTheCanaryTokenIsReadOncePerColdStartAndTrimmed(t *testing.T) {
	f := &fakeAWS{}
	token := &canary.Token{SSM: f, Parameter: "/canary-once"}
	for range 3 {
		v, err := token.Value(context.Background())
		require.NoError(t, err)
		assert.Equal(t, "bpt_canary", v)
	}
	assert.Equal(t, 1, f.ssmReads)
}
