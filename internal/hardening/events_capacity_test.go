package hardening

import (
	"context"
	"fmt"
	"math"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/tools/perf"
)

// TestEachWriteOperationsEventCostsTwoUnitsPerKB measures, through the
// counting proxy (tools/perf), the write units of each write operation's
// sample (warm: its token already read once) and the share of its events:
// a transactional put costs 2 units per KB of the item, so an event of
// under 1 KB adds 2 units. The table it logs is docs/performance.md's
// (with the read units and the calls).
func TestEachWriteOperationsEventCostsTwoUnitsPerKB(t *testing.T) {
	proxy, err := perf.NewCountingProxy(testenv.Endpoint(t))
	require.NoError(t, err)
	proxy.Capacity = true
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	db, err := dynamo.NewClient(context.Background(), front.URL, "us-east-1", nil)
	require.NoError(t, err)
	direct := testenv.NewTable(t)
	d := newDemoEnv(t, testenv.WithTable(&storage.Table{DB: db, Name: direct.Name}))

	var report strings.Builder
	fmt.Fprintln(&report, "| operation | calls | RCU | WCU of the request | events | the events' bytes | the events' WCU |")
	fmt.Fprintln(&report, "|---|---|---|---|---|---|---|")
	for _, op := range operations.All {
		if !op.Changes() || readsSentAsPOST[op.ID()] {
			continue
		}
		s, _ := samples.Of(op)
		warm, _ := samples.Of(operations.ListSurveys) // reads the token and the rate counter once
		wreq := d.sampleRequest(t, warm)
		wreq.Token = d.tokenFor(demo.AccountAlpha, op.MarketplaceOnly)
		d.Do(t, wreq)
		before := d.accountEvents(t)
		proxy.Take()
		resp := d.Do(t, d.sampleRequest(t, s))
		calls := proxy.Take()
		require.Equal(t, s.Status, resp.Status, "%s: %s", op.ID(), resp.Body)
		rcu, wcu := testenv.Capacity(calls)

		fresh := newEvents(before, d.accountEvents(t))
		require.NotEmpty(t, fresh, op.ID())
		var sizes []string
		units := 0.0
		for _, ev := range fresh {
			size := eventItemSize(t, direct, ev)
			sizes = append(sizes, fmt.Sprint(size))
			units += 2 * math.Ceil(float64(size)/1024)
		}
		assert.GreaterOrEqual(t, wcu, units+1, "%s: the request paid for its events and its rate counter", op.ID())
		fmt.Fprintf(&report, "| %s | %d | %g | %g | %d | %s | %g |\n", op.ID(), len(calls), rcu, wcu, len(fresh), strings.Join(sizes, ", "), units)
	}
	t.Log("\n" + report.String())
}

// eventItemSize is the stored event's size as DynamoDB counts it: each
// attribute's name and value (strings by their bytes, numbers by their
// digits).
func eventItemSize(t *testing.T, table *storage.Table, ev events.Recorded) int {
	t.Helper()
	items, err := storage.QueryPartition[map[string]any](context.Background(), table, ev.Owner.PK(), "EVENT#")
	require.NoError(t, err)
	for _, it := range items {
		if it["eventId"] != ev.ID {
			continue
		}
		av, err := attributevalue.MarshalMap(it)
		require.NoError(t, err)
		n := 0
		for name, v := range it {
			n += len(name)
			switch x := v.(type) {
			case string:
				n += len(x)
			case float64:
				n += (len(fmt.Sprint(int64(x)))+1)/2 + 1
			}
		}
		require.NotEmpty(t, av)
		return n
	}
	t.Fatalf("event %s not stored", ev.ID)
	return 0
}
