package deliveries_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

type board struct {
	ID     string   `json:"id"`
	Colors []string `json:"colors"`
}

// TestADeliveryOfALargeBodyIsStoredPackedAndSentWhole: the delivery of an
// event whose body would make its item over one KB keeps it gzipped, as
// its event does, and every reader of it (the due index, the listing, a
// claim's record) has the exact body, which is what is signed and sent.
func TestADeliveryOfALargeBodyIsStoredPackedAndSentWhole(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	typ := events.Type{Name: "BrandBoardCreate", Scope: "brand-boards/design-kit.write", Version: 1, Summary: "A board.", Fields: board{}}
	var colors []string
	for i := range 40 {
		colors = append(colors, fmt.Sprintf("rgba(26, 43, %d, 1)", i))
	}
	tx := table.Tx()
	typ.Add(tx, account, board{ID: "b1", Colors: colors}, testenv.Start)
	require.NoError(t, tx.Commit(ctx))
	var ev events.Recorded
	for n := range events.FanOutShards {
		waiting, err := events.WaitingFanOut(ctx, table, n, 10)
		require.NoError(t, err)
		if len(waiting) > 0 {
			ev = waiting[0]
		}
	}
	require.Greater(t, len(ev.Body), 1024)
	receiver := deliveries.Receiver{ID: "appBoards", URL: "https://a.example/in", Types: []string{typ.Name}, App: true, Scopes: []string{typ.Scope}}
	added, err := deliveries.FanOut(ctx, table, []deliveries.Receiver{receiver}, ev, testenv.Start, time.Time{})
	require.NoError(t, err)
	require.Len(t, added, 1)
	want := strings.TrimSuffix(ev.Body, "}") + `,"appId":"appBoards"}`

	raw := testenv.Items[map[string]any](t, table)
	packed := 0
	for _, it := range raw {
		if it[storage.AttrPK] == deliveries.PK("appBoards") {
			assert.IsType(t, []byte{}, it[events.BodyAttr], "stored gzipped")
			packed++
		}
	}
	require.Equal(t, 1, packed)

	due, err := deliveries.Due(ctx, table, shardOf(t, table, added[0].Key), testenv.Start.Add(time.Second), 10)
	require.NoError(t, err)
	require.Len(t, due, 1)
	assert.Equal(t, want, due[0].Body, "the due index's copy reads whole")
	lease, ok, err := deliveries.Claim(ctx, table, due[0], testenv.Start.Add(time.Second))
	require.NoError(t, err)
	require.True(t, ok)
	state, recorded, err := deliveries.Record(ctx, table, deliveries.Default, due[0], deliveries.Attempt{At: "x", Status: 200}, lease, testenv.Start.Add(2*time.Second), false)
	require.NoError(t, err)
	require.True(t, recorded)
	assert.Equal(t, deliveries.Delivered, state)
	page, _, err := deliveries.Page(ctx, table, "appBoards", "", 10, "")
	require.NoError(t, err)
	require.Len(t, page, 1)
	assert.Equal(t, want, page[0].Body, "and so does the listing, once delivered")
}

// shardOf finds the due shard holding key's delivery.
func shardOf(t *testing.T, table *storage.Table, key storage.Key) int {
	t.Helper()
	for n := range deliveries.DueShards {
		due, err := deliveries.Due(context.Background(), table, n, testenv.Start.Add(time.Hour), 10)
		require.NoError(t, err)
		for _, it := range due {
			if it.Key == key {
				return n
			}
		}
	}
	t.Fatalf("delivery %v is in no due shard", key)
	return 0
}
