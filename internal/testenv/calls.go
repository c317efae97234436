package testenv

import (
	"context"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// CallCounter counts the DynamoDB API calls made through a table, and
// records when each ran.
type CallCounter struct {
	mu    sync.Mutex
	calls []Call
	hold  time.Duration
}

// Call is one DynamoDB call: its operation, when it ran and, where the
// engine was asked (tools/perf's counting proxy), the read and write
// capacity units it consumed. The tests count calls with CallCounter, the
// measuring tools with the proxy: both record Calls.
type Call struct {
	Op         string // GetItem, UpdateItem, ...
	Start, End time.Time
	RCU, WCU   float64
}

// CountingTable returns a table on the same DynamoDB table whose client
// counts every call it makes.
func CountingTable(t testing.TB, table *storage.Table) (*storage.Table, *CallCounter) {
	t.Helper()
	c := &CallCounter{}
	count := middleware.FinalizeMiddlewareFunc("countCalls", func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
		c.mu.Lock()
		hold := c.hold
		c.mu.Unlock()
		call := Call{Op: awsmiddleware.GetOperationName(ctx), Start: time.Now()}
		time.Sleep(hold)
		out, md, err := next.HandleFinalize(ctx, in)
		call.End = time.Now()
		c.mu.Lock()
		c.calls = append(c.calls, call)
		c.mu.Unlock()
		return out, md, err
	})
	db, err := dynamo.NewClient(context.Background(), Endpoint(t), "us-east-1", nil)
	require.NoError(t, err)
	counted := dynamodb.New(db.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
			return s.Finalize.Add(count, middleware.After)
		})
	})
	return &storage.Table{DB: counted, Name: table.Name}, c
}

// Hold makes every call wait d before it is sent, as a remote table's
// latency would, so that calls made together overlap by far more than a
// busy machine's scheduling jitter and RoundTrips tells them from calls
// made one after another.
func (c *CallCounter) Hold(d time.Duration) {
	c.mu.Lock()
	c.hold = d
	c.mu.Unlock()
}

// Take returns the counts so far, by operation, and starts again from zero.
func (c *CallCounter) Take() map[string]int {
	out := map[string]int{}
	for _, call := range c.TakeCalls() {
		out[call.Op]++
	}
	return out
}

// TakeCalls returns the calls so far, in the order they started, and starts
// again from none.
func (c *CallCounter) TakeCalls() []Call {
	c.mu.Lock()
	out := c.calls
	c.calls = nil
	c.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// RoundTrips is the number of sequential round trips on the critical path
// of calls: the longest chain of calls each starting after the previous one
// ended. Calls that overlap in time count as one round trip.
func RoundTrips(calls []Call) int {
	sorted := append([]Call(nil), calls...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Start.Before(sorted[j].Start) })
	chain := make([]int, len(sorted))
	longest := 0
	for i, c := range sorted {
		chain[i] = 1
		for j := range i {
			if !sorted[j].End.After(c.Start) && chain[j]+1 > chain[i] {
				chain[i] = chain[j] + 1
			}
		}
		longest = max(longest, chain[i])
	}
	return longest
}

// Ops lists the calls' operation names in start order ("UpdateItem GetItem").
func Ops(calls []Call) string {
	sorted := append([]Call(nil), calls...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Start.Before(sorted[j].Start) })
	names := make([]string, len(sorted))
	for i, c := range sorted {
		names[i] = c.Op
	}
	return strings.Join(names, " ")
}

// Capacity sums the read and write units of calls.
func Capacity(calls []Call) (rcu, wcu float64) {
	for _, c := range calls {
		rcu += c.RCU
		wcu += c.WCU
	}
	return rcu, wcu
}

// Total is the sum of a Take result.
func Total(calls map[string]int) int {
	n := 0
	for _, v := range calls {
		n += v
	}
	return n
}
