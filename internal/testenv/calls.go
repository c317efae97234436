package testenv

import (
	"context"
	"sort"
	"sync"
	"testing"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/storage"
)

// CallCounter counts the DynamoDB API calls made through a table.
type CallCounter struct {
	mu    sync.Mutex
	calls map[string]int
}

// CountingTable returns a table on the same DynamoDB table whose client
// counts every call it makes.
func CountingTable(t testing.TB, table *storage.Table) (*storage.Table, *CallCounter) {
	t.Helper()
	c := &CallCounter{calls: map[string]int{}}
	count := middleware.FinalizeMiddlewareFunc("countCalls", func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
		c.mu.Lock()
		c.calls[awsmiddleware.GetOperationName(ctx)]++
		c.mu.Unlock()
		return next.HandleFinalize(ctx, in)
	})
	db, err := storage.NewClient(context.Background(), Endpoint(t), "us-east-1", nil)
	require.NoError(t, err)
	counted := dynamodb.New(db.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
			return s.Finalize.Add(count, middleware.After)
		})
	})
	return &storage.Table{DB: counted, Name: table.Name}, c
}

// Take returns the counts so far, by operation, and starts again from zero.
func (c *CallCounter) Take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.calls
	c.calls = map[string]int{}
	return out
}

// Total is the sum of a Take result.
func Total(calls map[string]int) int {
	n := 0
	for _, v := range calls {
		n += v
	}
	return n
}

// Names lists a Take result's operations, sorted.
func Names(calls map[string]int) []string {
	var out []string
	for k := range calls {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
