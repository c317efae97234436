package dynamo

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/storage"
)

// failingAPI answers every call with err.
type failingAPI struct{ err error }

func (f failingAPI) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return nil, f.err
}
func (f failingAPI) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return nil, f.err
}
func (f failingAPI) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return nil, f.err
}
func (f failingAPI) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return nil, f.err
}
func (f failingAPI) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, f.err
}
func (f failingAPI) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return nil, f.err
}
func (f failingAPI) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return nil, f.err
}
func (f failingAPI) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return nil, f.err
}
func (f failingAPI) TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return nil, f.err
}

// calls makes each call of the API once.
func calls(api storage.API) map[string]error {
	ctx := context.Background()
	errOf := func(_ any, err error) error { return err }
	return map[string]error{
		"GetItem":            errOf(api.GetItem(ctx, nil)),
		"PutItem":            errOf(api.PutItem(ctx, nil)),
		"UpdateItem":         errOf(api.UpdateItem(ctx, nil)),
		"DeleteItem":         errOf(api.DeleteItem(ctx, nil)),
		"Query":              errOf(api.Query(ctx, nil)),
		"BatchGetItem":       errOf(api.BatchGetItem(ctx, nil)),
		"BatchWriteItem":     errOf(api.BatchWriteItem(ctx, nil)),
		"TransactWriteItems": errOf(api.TransactWriteItems(ctx, nil)),
		"TransactGetItems":   errOf(api.TransactGetItems(ctx, nil)),
	}
}

func TestAClassifiedClientReturnsOnlyAPIErrors(t *testing.T) {
	throttled := fmt.Errorf("operation error: %w", &types.ProvisionedThroughputExceededException{})
	conflict := fmt.Errorf("operation error: %w", &types.ConditionalCheckFailedException{})

	t.Run("an outage is a 503 with Retry-After on every call", func(t *testing.T) {
		for op, err := range calls(Classified(failingAPI{throttled})) {
			e, ok := apierror.As(err)
			require.True(t, ok, op)
			assert.Equal(t, apierror.CodeUnavailable, e.Code, op)
			assert.Equal(t, time.Second, e.RetryAfter, op)
			assert.ErrorIs(t, err, throttled, "%s keeps the SDK's error as its cause", op)
		}
	})
	t.Run("a failed condition is still recognised", func(t *testing.T) {
		for op, err := range calls(Classified(failingAPI{conflict})) {
			assert.True(t, storage.IsConditionFailed(err), op)
			assert.True(t, apierror.HasCode(err, apierror.CodeInternal), "%s: left unhandled, it is a 500", op)
		}
	})
	t.Run("a call that succeeds has no error", func(t *testing.T) {
		for op, err := range calls(Classified(failingAPI{nil})) {
			assert.NoError(t, err, op)
		}
	})
	t.Run("an API error, such as the write gate's 429, passes through unchanged", func(t *testing.T) {
		refused := &apierror.Error{Code: apierror.CodeTooManyRequests, Message: "slow down"}
		for op, err := range calls(Classified(failingAPI{refused})) {
			assert.True(t, errors.Is(err, refused), op)
			assert.Same(t, refused, err, op)
		}
	})
}
