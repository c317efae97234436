package events_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// rawItems are the owner's stored event items as DynamoDB holds them,
// oldest first.
func rawItems(t *testing.T, table *storage.Table) []map[string]types.AttributeValue {
	t.Helper()
	items, err := storage.QueryPartition[map[string]any](context.Background(), table, owner.PK(), "EVENT#")
	require.NoError(t, err)
	out := make([]map[string]types.AttributeValue, len(items))
	for i, it := range items {
		out[i], err = attributevalue.MarshalMap(it)
		require.NoError(t, err)
	}
	return out
}

// TestABodyThatWouldMakeItsItemOverOneKBIsStoredGzippedAndReadAsSent: a
// small body stays text; a large one (a brand board's lists) is stored
// gzipped, the item within one write unit, and every reader (the listing,
// the fan-out index, the stream's read) gets the exact bytes signed.
func TestABodyThatWouldMakeItsItemOverOneKBIsStoredGzippedAndReadAsSent(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	var colors []string
	for i := range 20 {
		colors = append(colors, fmt.Sprintf(`{"hex":"#1a2b%02x","rgb":"rgb(26, 43, %d)","label":"Brand color %d \u2028 <&>"}`, i, i, i))
	}
	large := "[" + strings.Join(colors, ",") + "]"
	for _, text := range []string{"short", large} {
		tx := table.Tx()
		noteCreated.Add(tx, owner, note{ID: "n-" + fmt.Sprint(len(text)), LocationID: "acct1", Text: text}, at)
		require.NoError(t, tx.Commit(ctx))
		at = at.Add(time.Millisecond)
	}

	raw := rawItems(t, table)
	require.Len(t, raw, 2)
	assert.IsType(t, &types.AttributeValueMemberS{}, raw[0][events.BodyAttr], "a small body stays text, readable in the console")
	packed, ok := raw[1][events.BodyAttr].(*types.AttributeValueMemberB)
	require.True(t, ok, "a large body is binary")
	assert.Equal(t, []byte{0x1f, 0x8b}, packed.Value[:2], "gzip")
	assert.LessOrEqual(t, storage.ItemSize(raw[1]), 1024, "its item within one write unit")

	listed := testenv.Events(t, table, owner)
	require.Len(t, listed, 2)
	want, err := events.Body(noteCreated, owner, note{ID: fmt.Sprint("n-", len(large)), LocationID: "acct1", Text: large}, listed[1].ID, at.Add(-time.Millisecond))
	require.NoError(t, err)
	assert.Greater(t, len(want), 1024, "as text it would not fit")
	assert.Equal(t, string(want), listed[1].Body, "the listing reads the exact bytes")
	waiting, err := events.WaitingFanOut(ctx, table, events.FanOutShards, 10)
	require.NoError(t, err)
	assert.Empty(t, waiting, "(no shard of that number)")
	var fromIndex []events.Recorded
	for n := range events.FanOutShards {
		page, err := events.WaitingFanOut(ctx, table, n, 10)
		require.NoError(t, err)
		fromIndex = append(fromIndex, page...)
	}
	require.Len(t, fromIndex, 2)
	stream, err := events.StillWaiting(ctx, table, []storage.Key{listed[1].Key()})
	require.NoError(t, err)
	require.Len(t, stream, 1)
	assert.Equal(t, string(want), stream[0].Body, "so does the stream's read")
	for _, ev := range fromIndex {
		if ev.ID == listed[1].ID {
			assert.Equal(t, string(want), ev.Body, "and the fan-out index's")
		}
	}

	t.Run("an item stored as text before reads as it did", func(t *testing.T) {
		key := listed[1].Key()
		require.NoError(t, table.Update(ctx, key, expression.Set(expression.Name(events.BodyAttr), expression.Value(string(want))), nil))
		raw := rawItems(t, table)
		assert.IsType(t, &types.AttributeValueMemberS{}, raw[1][events.BodyAttr])
		assert.Equal(t, string(want), testenv.Events(t, table, owner)[1].Body)
	})
	t.Run("a body that does not unpack is an error, never an empty body", func(t *testing.T) {
		key := listed[1].Key()
		require.NoError(t, table.Update(ctx, key, expression.Set(expression.Name(events.BodyAttr), expression.Value([]byte{0x1f, 0x8b, 1, 2})), nil))
		_, err := events.StillWaiting(ctx, table, []storage.Key{key})
		assert.ErrorContains(t, err, "a stored body")
	})
}

func TestPackBodyLeavesABodyThatGzipDoesNotShrink(t *testing.T) {
	// 1,200 bytes of random-looking hex: gzip saves a little; a body that
	// gzip would lengthen (already compressed data) stays text.
	item, err := attributevalue.MarshalMap(map[string]string{events.BodyAttr: noise(1200)})
	require.NoError(t, err)
	require.NoError(t, events.PackBody(item))
	if b, ok := item[events.BodyAttr].(*types.AttributeValueMemberB); ok {
		assert.Less(t, len(b.Value), 1200, "packed only when shorter")
	}
	small, err := attributevalue.MarshalMap(map[string]string{events.BodyAttr: strings.Repeat("a", 900)})
	require.NoError(t, err)
	require.NoError(t, events.PackBody(small))
	assert.IsType(t, &types.AttributeValueMemberS{}, small[events.BodyAttr], "an item within one KB is left as it is")
}

// noise is n bytes of text gzip can hardly shrink.
func noise(n int) string {
	var b strings.Builder
	x := uint32(2463534242)
	for b.Len() < n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		fmt.Fprintf(&b, "%08x", x)
	}
	return b.String()[:n]
}
