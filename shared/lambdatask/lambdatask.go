// Package lambdatask starts a function that is not behind the HTTP API (the
// webhook deliverer) as an AWS Lambda function: each invocation's event (a
// stream batch, a schedule's event) goes to its work. It links the Lambda
// runtime and the wiring every binary starts with, and nothing of the
// API's HTTP assembly (shared/lambdaapp runs the areas and sites).
package lambdatask

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/wiring"
)

// Builder builds, once per cold start, the work a task function does on
// each invocation.
type Builder func(ctx context.Context, cfg config.Config, deps wiring.Deps) (Task, error)

// Task is one invocation's work, given the invocation's event as it came
// (an alias, so that the package building it need not link this one, nor
// Lambda's runtime).
type Task = func(ctx context.Context, event json.RawMessage) error

// Run builds the task once per cold start and hands it to the Lambda
// runtime. It exits the process when the configuration is unusable.
func Run(name string, build Builder) {
	work, err := prepare(build)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
	lambda.Start(func(ctx context.Context, event json.RawMessage) error { return Invoke(ctx, work, event) })
}

// prepare connects to the table and builds the task's work, once per cold
// start.
func prepare(build Builder) (Task, error) {
	ctx := context.Background()
	cfg, deps, err := wiring.Connect(ctx, os.Getenv, os.Stdout)
	if err != nil {
		return nil, err
	}
	return build(ctx, cfg, deps.Classified())
}

// Invoke does one invocation's work. The Lambda runtime calls the handler
// by reflection, which no call graph follows: the IAM check
// (tools/iamcheck) takes Invoke as a root of the function's calls.
func Invoke(ctx context.Context, work Task, event json.RawMessage) error {
	return work(WithInvocationTrace(ctx), event)
}

// WithInvocationTrace is ctx naming the invocation's X-Ray trace
// (httpserve.WithTraceID), so that the lines logged with it name it: the
// Lambda runtime puts the invocation's trace header in the context (the
// environment's _X_AMZN_TRACE_ID too).
func WithInvocationTrace(ctx context.Context) context.Context {
	header, _ := ctx.Value(lambdaTraceKey).(string)
	if header == "" {
		header = os.Getenv("_X_AMZN_TRACE_ID")
	}
	if root := httpserve.TraceRoot(header); root != "" {
		return httpserve.WithTraceID(ctx, root)
	}
	return ctx
}

// lambdaTraceKey is the (string) context key under which aws-lambda-go
// puts the invocation's trace header.
const lambdaTraceKey = "x-amzn-trace-id"
