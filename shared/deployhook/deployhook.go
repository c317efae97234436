// Package deployhook is CodeDeploy's PreTraffic hook (functions/pretraffic).
// Before an alias moves any traffic to a new version of one of the stack's
// functions, CodeDeploy invokes the hook; the hook invokes that version
// with the requests API Gateway would send, checks the answers prove it
// starts and answers through the whole pipeline (token lookup in the
// table included), and reports Succeeded or Failed. Failed stops the
// deployment and the alias keeps the old version.
package deployhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/codedeploy"
	cdtypes "github.com/aws/aws-sdk-go-v2/service/codedeploy/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	"go.yaml.in/yaml/v3"
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

// Parameters reads the canary token (SSM's GetParameter).
type Parameters interface {
	GetParameter(ctx context.Context, in *ssm.GetParameterInput, opts ...func(*ssm.Options)) (*ssm.GetParameterOutput, error)
}

var (
	_ Invoker     = (*lambda.Client)(nil)
	_ Deployments = (*codedeploy.Client)(nil)
	_ Parameters  = (*ssm.Client)(nil)
)

// Hook checks new versions before they take traffic.
type Hook struct {
	Lambda     Invoker
	CodeDeploy Deployments
	SSM        Parameters
	Logger     *slog.Logger
	// Functions maps each function's name (as deployed) to its directory
	// under functions/, which says what to send it.
	Functions map[string]string
	// CanaryParameter is the SSM SecureString holding the canary token, a
	// read-only token of CanaryAccount.
	CanaryParameter string
	CanaryAccount   string
}

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

// Handle checks the deployment's new version and reports the verdict. It
// fails only when the verdict could not be reported, so that Lambda's
// retry of an asynchronous invocation reports it again.
func (h *Hook) Handle(ctx context.Context, raw json.RawMessage) error {
	var ev Event
	if err := json.Unmarshal(raw, &ev); err != nil || ev.DeploymentID == "" || ev.LifecycleEventHookExecutionID == "" {
		return fmt.Errorf("not a CodeDeploy lifecycle event: %s", raw)
	}
	log := h.Logger.With("deployment_id", ev.DeploymentID)
	status, reason := cdtypes.LifecycleEventStatusSucceeded, ""
	target, err := h.target(ctx, ev.DeploymentID)
	if err == nil {
		log = log.With("function", target.Function, "version", target.Version, "alias", target.Alias)
		err = h.Check(ctx, target)
	}
	if err != nil {
		status, reason = cdtypes.LifecycleEventStatusFailed, err.Error()
	}
	_, perr := h.CodeDeploy.PutLifecycleEventHookExecutionStatus(ctx, &codedeploy.PutLifecycleEventHookExecutionStatusInput{
		DeploymentId:                  aws.String(ev.DeploymentID),
		LifecycleEventHookExecutionId: aws.String(ev.LifecycleEventHookExecutionID),
		Status:                        status,
	})
	if perr != nil {
		log.Error("pretraffic: the verdict was not reported", "status", string(status), "error", perr.Error())
		return fmt.Errorf("report %s: %w", status, perr)
	}
	if status == cdtypes.LifecycleEventStatusFailed {
		log.Error("pretraffic: the new version failed its checks; the alias stays on the old one", "reason", reason)
	} else {
		log.Info("pretraffic: the new version passed its checks")
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

// Check invokes the target version with its function's probes.
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
		if err := h.run(ctx, target, p); err != nil {
			return fmt.Errorf("%s version %s, %s: %w", dir, target.Version, p.name, err)
		}
	}
	return nil
}

// run invokes the version with one probe's event and checks its answer.
func (h *Hook) run(ctx context.Context, target Target, p probe) error {
	out, err := h.Lambda.Invoke(ctx, &lambda.InvokeInput{
		FunctionName: aws.String(functionName(target.Function)),
		Qualifier:    aws.String(target.Version),
		Payload:      p.event,
	})
	if err != nil {
		return fmt.Errorf("invoke: %w", err)
	}
	if out.FunctionError != nil {
		return fmt.Errorf("the invocation failed (%s): %.300s", aws.ToString(out.FunctionError), out.Payload)
	}
	return p.check(out.Payload)
}
