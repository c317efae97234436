package lambdaapp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/config"
)

// TaskBuilder builds, once per cold start, the work a task function does on
// each invocation, whatever its event (a stream batch, a schedule).
type TaskBuilder func(ctx context.Context, cfg config.Config, deps app.Deps) (func(context.Context) error, error)

// RunTask is Run for a function that is not behind the HTTP API (the
// webhook deliverer): it ignores its event and does its work.
func RunTask(name string, build TaskBuilder) {
	work, err := prepareTask(build)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
	lambda.Start(func(ctx context.Context, _ json.RawMessage) error { return Invoke(ctx, work) })
}

// prepareTask connects to the table and builds the task's work, once per
// cold start.
func prepareTask(build TaskBuilder) (func(context.Context) error, error) {
	ctx := context.Background()
	cfg, deps, err := app.Connect(ctx, os.Getenv, os.Stdout)
	if err != nil {
		return nil, err
	}
	deps = app.NewCore(cfg, deps).Deps // the table's errors classified
	return build(ctx, cfg, deps)
}

// Invoke does one invocation's work. The Lambda runtime calls the handler
// by reflection, which no call graph follows: the IAM check
// (tools/iamcheck) takes Invoke as a root of the function's calls.
func Invoke(ctx context.Context, work func(context.Context) error) error { return work(ctx) }
