// Package deployhook is CodeDeploy's PreTraffic and PostTraffic hook
// (functions/pretraffic). Before an alias moves any traffic to a new
// version of one of the stack's functions, and again once it moved all of
// it, CodeDeploy invokes the hook; the hook invokes that version with the
// requests API Gateway would send, checks the answers prove it starts and
// answers through the whole pipeline (token lookup in the table included),
// and reports Succeeded or Failed. After the shift it also sends them
// through the alias, which must then run the new version. Failed stops the
// deployment (before the shift, the alias keeps the old version; after it,
// CodeDeploy moves it back).
package deployhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/codedeploy"
	cdtypes "github.com/aws/aws-sdk-go-v2/service/codedeploy/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"go.yaml.in/yaml/v3"

	"github.com/bizplatform/api/shared/canary"
)

// Invoker runs one version of a function (Lambda's Invoke).
type Invoker interface {
	Invoke(ctx context.Context, in *lambda.InvokeInput, opts ...func(*lambda.Options)) (*lambda.InvokeOutput, error)
}

// Deployments reads a deployment and takes the hook's verdict.
type Deployments interface {
	GetDeployment(ctx context.Context, in *codedeploy.GetDeploymentInput, opts ...func(*codedeploy.Options)) (*codedeploy.GetDeploymentOutput, error)
	PutLifecycleEventHookExecutionStatus(ctx context.Context, in *codedeploy.PutLifecycleEventHookExecutionStatusInput, opts ...func(*codedeploy.Options)) (*codedeploy.PutLifecycleEventHookExecutionStatusOutput, error)
}

var (
	_ Invoker     = (*lambda.Client)(nil)
	_ Deployments = (*codedeploy.Client)(nil)
)

// Hook checks new versions before and after they take traffic.
type Hook struct {
	Lambda     Invoker
	CodeDeploy Deployments
	Logger     *slog.Logger
	// Functions maps each function's name (as deployed) to its directory
	// under functions/, which says what to send it.
	Functions map[string]string
	// Canary is the canary token, a read-only token of CanaryAccount.
	Canary        *canary.Token
	CanaryAccount string
	// Reserve is the time the verdict keeps for itself before the
	// invocation's deadline (0: DefaultReserve): checks still running then
	// fail, and the verdict is reported, so that CodeDeploy never waits its
	// hour for one that was lost.
	Reserve time.Duration
}

// DefaultReserve is the time kept for reporting the verdict.
const DefaultReserve = 20 * time.Second

// firstThrottleWait is the pause after a throttled invocation, doubled up
// to 10 s while it stays throttled.
var firstThrottleWait = time.Second

// Event is what CodeDeploy sends a lifecycle hook.
type Event struct {
	DeploymentID                  string `json:"DeploymentId"`
	LifecycleEventHookExecutionID string `json:"LifecycleEventHookExecutionId"`
}

// Target is the version a deployment moves its alias to.
type Target struct {
	Function string // name or ARN, as the AppSpec gives it
	Alias    string
	Current  string
	Version  string
}

// Handle checks the deployment's new version and reports the verdict. The
// checks end Reserve before the invocation's deadline; the verdict is
// reported on a context of its own, which the checks' deadline does not
// cancel. It fails only when the verdict could not be reported, so that
// Lambda's retry of an asynchronous invocation reports it again.
func (h *Hook) Handle(ctx context.Context, raw json.RawMessage) error {
	var ev Event
	if err := json.Unmarshal(raw, &ev); err != nil || ev.DeploymentID == "" || ev.LifecycleEventHookExecutionID == "" {
		return fmt.Errorf("not a CodeDeploy lifecycle event: %s", raw)
	}
	reserve := h.Reserve
	if reserve <= 0 {
		reserve = DefaultReserve
	}
	checks, cancel := ctx, context.CancelFunc(func() {})
	if deadline, ok := ctx.Deadline(); ok {
		checks, cancel = context.WithDeadline(ctx, deadline.Add(-reserve))
	}
	defer cancel()
	log := h.Logger.With("deployment_id", ev.DeploymentID)
	status, reason := cdtypes.LifecycleEventStatusSucceeded, ""
	target, err := h.target(checks, ev.DeploymentID)
	if err == nil {
		log = log.With("function", target.Function, "version", target.Version, "alias", target.Alias)
		err = h.Check(checks, target)
	}
	if err != nil {
		status, reason = cdtypes.LifecycleEventStatusFailed, err.Error()
		if checks.Err() != nil && ctx.Err() == nil {
			reason = "the checks did not end before the hook's deadline: " + reason
		}
	}
	report, done := context.WithTimeout(context.WithoutCancel(ctx), reserve)
	defer done()
	_, perr := h.CodeDeploy.PutLifecycleEventHookExecutionStatus(report, &codedeploy.PutLifecycleEventHookExecutionStatusInput{
		DeploymentId:                  aws.String(ev.DeploymentID),
		LifecycleEventHookExecutionId: aws.String(ev.LifecycleEventHookExecutionID),
		Status:                        status,
	})
	if perr != nil {
		log.Error("deploy hook: the verdict was not reported", "status", string(status), "error", perr.Error())
		return fmt.Errorf("report %s: %w", status, perr)
	}
	if status == cdtypes.LifecycleEventStatusFailed {
		log.Error("deploy hook: the new version failed its checks", "reason", reason)
	} else {
		log.Info("deploy hook: the new version passed its checks")
	}
	return nil
}

// appSpec is the part of a Lambda deployment's AppSpec the hook reads.
type appSpec struct {
	Resources []map[string]struct {
		Type       string `yaml:"Type"`
		Properties struct {
			Name           string `yaml:"Name"`
			Alias          string `yaml:"Alias"`
			CurrentVersion string `yaml:"CurrentVersion"`
			TargetVersion  string `yaml:"TargetVersion"`
		} `yaml:"Properties"`
	} `yaml:"Resources"`
}

// target reads the version the deployment moves to from its AppSpec: the
// deployment names it, so the hook checks exactly the version about to
// take traffic, whichever of the stack's functions it belongs to.
func (h *Hook) target(ctx context.Context, deploymentID string) (Target, error) {
	out, err := h.CodeDeploy.GetDeployment(ctx, &codedeploy.GetDeploymentInput{DeploymentId: aws.String(deploymentID)})
	if err != nil {
		return Target{}, fmt.Errorf("get deployment: %w", err)
	}
	var content string
	if info := out.DeploymentInfo; info != nil && info.Revision != nil {
		switch rev := info.Revision; {
		case rev.AppSpecContent != nil:
			content = aws.ToString(rev.AppSpecContent.Content)
		case rev.String_ != nil:
			content = aws.ToString(rev.String_.Content)
		}
	}
	if content == "" {
		return Target{}, errors.New("the deployment carries no AppSpec")
	}
	var spec appSpec
	if err := yaml.Unmarshal([]byte(content), &spec); err != nil {
		return Target{}, fmt.Errorf("the deployment's AppSpec: %w", err)
	}
	for _, r := range spec.Resources {
		for _, fn := range r {
			if fn.Type == "AWS::Lambda::Function" && fn.Properties.Name != "" && fn.Properties.TargetVersion != "" {
				p := fn.Properties
				return Target{Function: p.Name, Alias: p.Alias, Current: p.CurrentVersion, Version: p.TargetVersion}, nil
			}
		}
	}
	return Target{}, errors.New("the deployment's AppSpec names no function version")
}

// functionName is a function's name from its name or ARN.
func functionName(s string) string {
	if _, rest, ok := strings.Cut(s, ":function:"); ok {
		s, _, _ = strings.Cut(rest, ":")
	}
	return s
}

// Check invokes the target version with its function's probes, then, when
// the alias already runs the target version (the PostTraffic hook, after
// the shift), sends the same probes through the alias.
func (h *Hook) Check(ctx context.Context, target Target) error {
	dir, ok := h.Functions[functionName(target.Function)]
	if !ok {
		return fmt.Errorf("%s is not a function this hook knows", target.Function)
	}
	probes, err := h.probes(ctx, dir)
	if err != nil {
		return err
	}
	for _, p := range probes {
		if _, err := h.run(ctx, target, target.Version, p); err != nil {
			return fmt.Errorf("%s version %s, %s: %w", dir, target.Version, p.name, err)
		}
	}
	if target.Alias == "" {
		return nil
	}
	for i, p := range probes {
		executed, err := h.run(ctx, target, target.Alias, p)
		if i == 0 && executed != "" && executed != target.Version {
			// The alias still runs the old version: this is the PreTraffic
			// hook, and the old version's answers are not the verdict.
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s through its alias %s (version %s), %s: %w", dir, target.Alias, target.Version, p.name, err)
		}
		if executed != target.Version {
			return fmt.Errorf("%s: its alias %s ran version %q, not %s", dir, target.Alias, executed, target.Version)
		}
	}
	return nil
}

// run invokes the function's qualifier (a version or the alias) with one
// probe's event, waiting out throttling until ctx's deadline (the webhook
// deliverer's invocations, or the account's, may hold its concurrency for a
// while), and checks its answer. It returns the version that ran.
func (h *Hook) run(ctx context.Context, target Target, qualifier string, p probe) (string, error) {
	in := &lambda.InvokeInput{
		FunctionName: aws.String(functionName(target.Function)),
		Qualifier:    aws.String(qualifier),
		Payload:      p.event,
	}
	var out *lambda.InvokeOutput
	var err error
	for wait := firstThrottleWait; ; wait = min(2*wait, 10*time.Second) {
		out, err = h.Lambda.Invoke(ctx, in)
		var throttled *lambdatypes.TooManyRequestsException
		if !errors.As(err, &throttled) {
			break
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("invoke: throttled until the hook's deadline: %w", err)
		case <-time.After(wait):
		}
	}
	if err != nil {
		return "", fmt.Errorf("invoke: %w", err)
	}
	executed := aws.ToString(out.ExecutedVersion)
	if out.FunctionError != nil {
		return executed, fmt.Errorf("the invocation failed (%s): %.300s", aws.ToString(out.FunctionError), out.Payload)
	}
	return executed, p.check(out.Payload)
}
