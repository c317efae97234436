package dynamo

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/storage"
)

// Storage failures are turned into API errors once, at the client: the
// table the API and the portal are built on (apiserver.NewCore) wraps its client
// in Classified, so every error a DynamoDB call returns to a handler, the
// authenticator, the limiter or a portal page is already an
// *apierror.Error, and they return it as it is. The
// SDK's error stays its Cause: storage.IsConditionFailed, errors.Is and
// errors.As see through it.

// Classified returns api with every error it returns classified (Classify).
func Classified(api storage.API) storage.API { return classified{api} }

type classified struct{ api storage.API }

var _ storage.API = classified{}

func classify[T any](out T, err error) (T, error) { return out, Classify(err) }

func (c classified) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return classify(c.api.GetItem(ctx, in, opts...))
}

func (c classified) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return classify(c.api.PutItem(ctx, in, opts...))
}

func (c classified) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return classify(c.api.UpdateItem(ctx, in, opts...))
}

func (c classified) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return classify(c.api.DeleteItem(ctx, in, opts...))
}

func (c classified) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return classify(c.api.Query(ctx, in, opts...))
}

func (c classified) BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return classify(c.api.BatchGetItem(ctx, in, opts...))
}

func (c classified) BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return classify(c.api.BatchWriteItem(ctx, in, opts...))
}

func (c classified) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return classify(c.api.TransactWriteItems(ctx, in, opts...))
}

func (c classified) TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return classify(c.api.TransactGetItems(ctx, in, opts...))
}

// Classify turns a storage failure into the API error the client gets:
// throttling, outages, timeouts and broken connections are retryable 503s
// (with Retry-After), anything else is internal.
func Classify(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := apierror.As(err); ok {
		return err
	}
	if retryable(err) {
		return apierror.Unavailable(err, time.Second)
	}
	return apierror.Internal(err)
}

// unavailableCodes are the service's error codes for "try again later".
var unavailableCodes = map[string]bool{
	"ProvisionedThroughputExceededException": true,
	"ThrottlingException":                    true,
	"RequestLimitExceeded":                   true,
	"InternalServerError":                    true,
	"InternalFailure":                        true,
	"ServiceUnavailable":                     true,
	"LimitExceededException":                 true,
	// A single write met an item a transaction was writing, or a retried
	// transaction met its own first attempt still running.
	"TransactionConflictException":   true,
	"TransactionInProgressException": true,
}

// retryable reports whether err says the engine was unreachable, too slow,
// overloaded or cut off mid-answer, rather than that the request was wrong.
func retryable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && unavailableCodes[apiErr.ErrorCode()] {
		return true
	}
	var respErr *smithyhttp.ResponseError
	if errors.As(err, &respErr) && respErr.HTTPStatusCode() >= 500 {
		return true
	}
	// Sent nowhere (refused, reset, DNS), or the answer broke off.
	var sendErr *smithyhttp.RequestSendError
	var netErr net.Error
	return errors.As(err, &sendErr) || errors.As(err, &netErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}
