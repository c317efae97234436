package storage

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/apierror"
)

func TestFailedConditionItemComesFromTheFailureAlone(t *testing.T) {
	type named struct {
		Name string `dynamodbav:"name"`
	}
	key := Key{PK: "P", SK: "S"}
	withName := key.AV()
	withName["name"] = &types.AttributeValueMemberS{Value: "from failure"}
	for _, tc := range []struct {
		name     string
		condErr  error
		wantName string // "" means no item
	}{
		{name: "the item the failure carries is decoded", condErr: &types.ConditionalCheckFailedException{Item: withName}, wantName: "from failure"},
		{name: "a failure without an item means there was none at the key", condErr: &types.ConditionalCheckFailedException{}},
		{name: "an error that is not a failed condition has no item", condErr: errors.New("engine down")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FailedConditionItem[named](tc.condErr, key)
			require.NoError(t, err)
			if tc.wantName == "" {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tc.wantName, got.Name)
		})
	}
}

func TestARetryWhoseRequestEndsWhileItWaitsIsA503(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the client went away, or the request's deadline passed
	start := time.Now()
	err := Pause(ctx, time.Minute)
	assert.Less(t, time.Since(start), time.Second, "the wait ends with the request")
	e, ok := apierror.As(err)
	require.True(t, ok)
	assert.Equal(t, apierror.CodeUnavailable, e.Code)
	assert.Equal(t, time.Second, e.RetryAfter)
	assert.ErrorIs(t, err, context.Canceled)
}
