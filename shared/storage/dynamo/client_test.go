package dynamo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/storage"
)

func TestClassifyTellsRetryableFailuresFromBugs(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, c := range []struct {
		name string
		err  error
		want apierror.Code
	}{
		{"a refused connection is unavailable", fmt.Errorf("op: %w", refused), apierror.CodeUnavailable},
		{"a deadline is unavailable", fmt.Errorf("op: %w", context.DeadlineExceeded), apierror.CodeUnavailable},
		{"a request that could not be sent is unavailable", &smithyhttp.RequestSendError{Err: errors.New("boom")}, apierror.CodeUnavailable},
		{"an answer cut short is unavailable", &smithy.DeserializationError{Err: io.ErrUnexpectedEOF}, apierror.CodeUnavailable},
		{"throttling is unavailable", &types.ProvisionedThroughputExceededException{}, apierror.CodeUnavailable},
		{"a ThrottlingException is unavailable", &smithy.GenericAPIError{Code: "ThrottlingException"}, apierror.CodeUnavailable},
		{"an HTTP 5xx from the engine is unavailable", &smithyhttp.ResponseError{Response: &smithyhttp.Response{Response: &http.Response{StatusCode: 500}}, Err: errors.New("x")}, apierror.CodeUnavailable},
		{"a validation error of the engine is internal", &smithy.GenericAPIError{Code: "ValidationException"}, apierror.CodeInternal},
		{"anything else is internal", errors.New("unexpected"), apierror.CodeInternal},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, ok := apierror.As(Classify(c.err))
			require.True(t, ok)
			assert.Equal(t, c.want, e.Code)
			if c.want == apierror.CodeUnavailable {
				assert.Equal(t, time.Second, e.RetryAfter, "a 503 tells the client when to retry")
			}
		})
	}
	t.Run("an API error passes through unchanged", func(t *testing.T) {
		nf := apierror.NotFound("x")
		assert.Same(t, nf, Classify(nf))
	})
}

// getItem makes one call through a client bounded by timeout and attempts.
func getItem(t *testing.T, endpoint string, opts ...ClientOption) (time.Duration, error) {
	t.Helper()
	db, err := NewClient(context.Background(), endpoint, "us-east-1", nil, opts...)
	require.NoError(t, err)
	start := time.Now()
	_, err = db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("t"), Key: storage.Key{PK: "a", SK: "b"}.AV()})
	return time.Since(start), err
}

func TestAnEngineThatNeverAnswersCostsOneCallTimeoutAndA503(t *testing.T) {
	// A listener that accepts connections and never answers: a hung engine.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	took, err := getItem(t, "http://"+ln.Addr().String(), WithCallTimeout(400*time.Millisecond), WithMaxAttempts(5))
	require.Error(t, err)
	assert.Less(t, took, 1500*time.Millisecond, "the deadline covers every attempt")
	assert.GreaterOrEqual(t, took, 390*time.Millisecond)
	assert.True(t, apierror.HasCode(Classify(err), apierror.CodeUnavailable), "%v", err)
}

func TestAStoppedEngineFailsFastAfterBoundedRetries(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now: connections are refused

	took, err := getItem(t, "http://"+addr, WithCallTimeout(5*time.Second), WithMaxAttempts(3))
	require.Error(t, err)
	assert.Less(t, took, 2*time.Second, "three refused attempts with short backoff, far below the deadline")
	assert.True(t, apierror.HasCode(Classify(err), apierror.CodeUnavailable), "%v", err)
	assert.Contains(t, err.Error(), "attempts", "the SDK gave up after its bounded attempts")
}

// hangUpServer reads each request and closes the connection without an
// answer, as an engine dying mid-request does, counting attempts by
// operation.
func hangUpServer(t *testing.T) (string, func(op string) int) {
	t.Helper()
	var mu sync.Mutex
	attempts := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		mu.Lock()
		attempts[strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")]++
		mu.Unlock()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func(op string) int {
		mu.Lock()
		defer mu.Unlock()
		return attempts[op]
	}
}

func TestAWriteThatMayHaveBeenAppliedIsNotRetriedButAReadIs(t *testing.T) {
	endpoint, attempts := hangUpServer(t)
	db, err := NewClient(context.Background(), endpoint, "us-east-1", nil, WithCallTimeout(5*time.Second), WithMaxAttempts(3))
	require.NoError(t, err)
	ctx := context.Background()

	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("t"), Item: storage.Key{PK: "a", SK: "b"}.AV()})
	require.Error(t, err)
	assert.Equal(t, 1, attempts("PutItem"), "a retry could apply the write twice or fail against its own first attempt")
	assert.True(t, apierror.HasCode(Classify(err), apierror.CodeUnavailable), "%v", err)

	_, err = db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("t"), Key: storage.Key{PK: "a", SK: "b"}.AV()})
	require.Error(t, err)
	assert.Equal(t, 3, attempts("GetItem"), "a read is safe to retry")
}

func TestAWriteThatNeverConnectedIsRetried(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	db, err := NewClient(context.Background(), "http://"+addr, "us-east-1", nil, WithMaxAttempts(3))
	require.NoError(t, err)
	_, err = db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("t"), Item: storage.Key{PK: "a", SK: "b"}.AV()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exceeded maximum number of attempts, 3", "a refused connection cannot have applied anything")
}
