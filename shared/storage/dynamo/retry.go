package dynamo

import (
	"context"
	"errors"
	"net"
	"time"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
)

// writeOperations change the table; retrying one whose request may have
// been applied is not safe (see retryWritesOnlyIfUnsent).
var writeOperations = map[string]bool{
	"PutItem": true, "UpdateItem": true, "DeleteItem": true, "BatchWriteItem": true, "TransactWriteItems": true,
}

// retryWritesOnlyIfUnsent lets the SDK retry a write only when the table
// certainly did not apply it: the connection was never made, or the service
// refused it for throughput. After anything else (a reset, an answer cut
// short, a timeout, a 5xx) the write may have been applied; retrying it
// would make a conditional create fail against its own first attempt (a
// false "already exists", or a second record under a fresh id) or apply an
// increment twice. Such a failure goes to the client as a 503 instead.
// Reads are retried as the SDK decides, and so is a transaction carrying a
// ClientRequestToken: DynamoDB applies it once however often it is sent.
func retryWritesOnlyIfUnsent(s *middleware.Stack) error {
	return s.Finalize.Insert(middleware.FinalizeMiddlewareFunc("retryWritesOnlyIfUnsent",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleFinalize(ctx, in)
			idempotent, _ := middleware.GetStackValue(ctx, idempotentWrite{}).(bool)
			if err != nil && writeOperations[awsmiddleware.GetOperationName(ctx)] && !idempotent && !certainlyUnapplied(err) {
				err = notRetryable{err}
			}
			return out, md, err
		}), "Retry", middleware.After)
}

// idempotentWrite marks a call that DynamoDB applies at most once however
// often it is sent.
type idempotentWrite struct{}

// markIdempotentWrites marks transactions that carry a ClientRequestToken.
func markIdempotentWrites(s *middleware.Stack) error {
	return s.Initialize.Add(middleware.InitializeMiddlewareFunc("markIdempotentWrites",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			if tx, ok := in.Parameters.(*dynamodb.TransactWriteItemsInput); ok && tx.ClientRequestToken != nil {
				ctx = middleware.WithStackValue(ctx, idempotentWrite{}, true)
			}
			return next.HandleInitialize(ctx, in)
		}), middleware.After)
}

// certainlyUnapplied reports whether a failed call cannot have changed
// anything: it never reached the table, or the table refused it outright.
func certainlyUnapplied(err error) bool {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return true
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		_, throttled := retry.DefaultThrottleErrorCodes[apiErr.ErrorCode()]
		return throttled || apiErr.ErrorFault() == smithy.FaultClient
	}
	return false
}

// notRetryable marks an error the SDK's retryer must not retry (it honours
// RetryableError before its other rules); the cause stays reachable for
// Classify.
type notRetryable struct{ error }

func (e notRetryable) Unwrap() error        { return e.error }
func (e notRetryable) RetryableError() bool { return false }

// callDeadline puts a deadline on each call's context before the retry loop
// runs, so the deadline covers every attempt and every backoff.
func callDeadline(d time.Duration) func(*middleware.Stack) error {
	return func(s *middleware.Stack) error {
		return s.Initialize.Add(middleware.InitializeMiddlewareFunc("callDeadline",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				ctx, cancel := context.WithTimeout(ctx, d)
				defer cancel()
				return next.HandleInitialize(ctx, in)
			}), middleware.Before)
	}
}
