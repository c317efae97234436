package dynamo

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/bizplatform/api/shared/metrics"
)

// countCalls counts, on the request the call's context belongs to (package
// metrics), each call once (its retries are the same call) and each
// attempt the service refused for throughput. Outside a request it counts
// nothing.
func countCalls(s *middleware.Stack) error {
	if err := s.Initialize.Add(middleware.InitializeMiddlewareFunc("countCalls",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			metrics.RequestFrom(ctx).CountCall()
			return next.HandleInitialize(ctx, in)
		}), middleware.Before); err != nil {
		return err
	}
	// After Retry: once per attempt.
	return s.Finalize.Insert(middleware.FinalizeMiddlewareFunc("countThrottles",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleFinalize(ctx, in)
			if throttled(err) {
				metrics.RequestFrom(ctx).CountThrottle()
			}
			return out, md, err
		}), "Retry", middleware.After)
}

// throttled reports whether the service refused a call for throughput.
func throttled(err error) bool {
	var apiErr smithy.APIError
	if err == nil || !errors.As(err, &apiErr) {
		return false
	}
	_, ok := retry.DefaultThrottleErrorCodes[apiErr.ErrorCode()]
	return ok
}
