package dynamo

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/storage"
)

// throttlingServer refuses the first n attempts for throughput, as
// DynamoDB does, then answers every GetItem with no item.
func throttlingServer(t *testing.T, n int32) string {
	t.Helper()
	var seen atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if seen.Add(1) <= n {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"slow down"}`)
			return
		}
		_, _ = io.WriteString(w, `{}`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestEachCallAndEachThrottledAttemptIsCountedOnItsRequest(t *testing.T) {
	for _, tc := range []struct {
		name          string
		throttles     int32
		wantCalls     int64
		wantThrottled int
		wantErr       bool
	}{
		{"a call answered at once is one call and no throttle", 0, 1, 0, false},
		{"a call retried after two throttles is still one call, with two throttles", 2, 1, 2, false},
		{"a call throttled on every attempt fails with three throttles", 5, 1, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := NewClient(context.Background(), throttlingServer(t, tc.throttles), "us-east-1", nil, WithMaxAttempts(3))
			require.NoError(t, err)
			ctx, figures := metrics.Begin(context.Background())
			_, err = db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("t"), Key: storage.Key{PK: "a", SK: "b"}.AV()})
			if tc.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.wantCalls, figures.Calls())
			line := metrics.NewMeter("", "").RequestLines(metrics.Named("f")).Attrs(figuresTime, "GET /x", 200, 0, figures)
			assert.Equal(t, int64(tc.wantThrottled), attrValue(line, metrics.DynamoDBThrottles))
		})
	}
	t.Run("a call outside any request counts nowhere and still works", func(t *testing.T) {
		db, err := NewClient(context.Background(), throttlingServer(t, 0), "us-east-1", nil)
		require.NoError(t, err)
		_, err = db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("t"), Key: storage.Key{PK: "a", SK: "b"}.AV()})
		require.NoError(t, err)
	})
}

var figuresTime = time.Unix(0, 0)

// attrValue is the integer value of the attribute named name.
func attrValue(attrs []slog.Attr, name string) int64 {
	for _, a := range attrs {
		if a.Key == name {
			return a.Value.Int64()
		}
	}
	return 0 // a line leaves a rare metric out when it is 0
}
