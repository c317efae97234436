package lambdaapp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/httpserve"
)

// TaskBuilder builds, once per cold start, the work a task function does on
// each invocation, given the invocation's event (a stream batch, a
// schedule's event) as it came.
type TaskBuilder func(ctx context.Context, cfg config.Config, deps app.Deps) (Task, error)

// Task is one invocation's work (an alias, so that the package building it
// need not link this one, nor Lambda's runtime).
type Task = func(ctx context.Context, event json.RawMessage) error

// RunTask is Run for a function that is not behind the HTTP API (the
// webhook deliverer): each invocation's event goes to its work.
func RunTask(name string, build TaskBuilder) {
	work, err := prepareTask(build)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
	lambda.Start(func(ctx context.Context, event json.RawMessage) error { return Invoke(ctx, work, event) })
}

// prepareTask connects to the table and builds the task's work, once per
// cold start.
func prepareTask(build TaskBuilder) (Task, error) {
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
func Invoke(ctx context.Context, work Task, event json.RawMessage) error {
	if root := httpserve.TraceRoot(invocationTrace(ctx)); root != "" {
		ctx = httpserve.WithTraceID(ctx, root) // the invocation's lines name its trace
	}
	return work(ctx, event)
}
