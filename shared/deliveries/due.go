package deliveries

import (
	"context"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
)

// The due index is GSI1 over the pending deliveries: spread over DueShards
// partitions (duePK, from the delivery's key), sorted by the next
// attempt's time, then the delivery's key (dueSK). A delivery leaves it
// when it ends.
const (
	// DueShards is how many partitions the due index has: one partition
	// takes about 1,000 writes a second, and each delivery writes it two
	// or three times (made, each attempt, ended).
	DueShards = 8
	// legacyDuePK is the one partition the index had before it was spread,
	// and every shard's prefix (MoveLegacyDue).
	legacyDuePK = partitionPrefix + "DUE"
)

// duePK is the due index partition of the delivery at key, from its key's
// hash, so that the deliveries of one busy receiver spread too.
func duePK(key storage.Key) string {
	h := fnv.New32a()
	h.Write([]byte(key.PK))
	h.Write([]byte{0})
	h.Write([]byte(key.SK))
	return shardPK(int(h.Sum32() % DueShards))
}

// shardPK is the due index partition of shard n.
func shardPK(n int) string { return fmt.Sprintf("%s#%d", legacyDuePK, n) }

// dueSK is a delivery's place in its due partition: its next attempt,
// then its key, so that the earliest come first.
func dueSK(next time.Time, key storage.Key) string { return clock.Timestamp(next) + "#" + key.SK }

// dueBound is the due index's bound at now: every delivery due by then
// sorts below it.
func dueBound(now time.Time) string { return clock.Timestamp(now) + "$" }

// Due returns up to limit deliveries of due index shard n due at now,
// earliest first (the index is eventually consistent: Claim checks each
// against its item).
func Due(ctx context.Context, table *storage.Table, n int, now time.Time, limit int32) ([]Item, error) {
	due := expression.Key(storage.AttrGSI1PK).Equal(expression.Value(shardPK(n))).
		And(expression.Key(storage.AttrGSI1SK).LessThan(expression.Value(dueBound(now))))
	items, _, err := storage.QueryPage[Item](ctx, table, storage.Query{Index: storage.IndexGSI1, Key: due}, limit, nil)
	return items, err
}

// oldestPendingPages bounds the pages read, per due index shard, to find
// the oldest pending delivery: a backlog longer than that is reported by
// the oldest among its first pages, itself an alarm.
const oldestPendingPages = 10

// OldestPending is the age at now of the oldest delivery still pending (0
// when none): the due index holds exactly those, ordered by next attempt,
// not age, so each shard's pages are read whole, their createdAt alone.
func OldestPending(ctx context.Context, table *storage.Table, now time.Time) (time.Duration, error) {
	created := expression.NamesList(expression.Name(attrCreatedAt))
	var oldest time.Duration
	for n := range DueShards {
		q := storage.Query{Index: storage.IndexGSI1, Key: expression.Key(storage.AttrGSI1PK).Equal(expression.Value(shardPK(n))), Projection: &created}
		var cursor storage.Cursor
		for range oldestPendingPages {
			items, next, err := storage.QueryPage[Item](ctx, table, q, 100, cursor)
			if err != nil {
				return 0, err
			}
			for _, it := range items {
				if created := clock.Parse(it.CreatedAt); !created.IsZero() {
					oldest = max(oldest, now.Sub(created))
				}
			}
			if next == nil {
				break
			}
			cursor = next
		}
	}
	return oldest, nil
}

// MoveLegacyDue moves the deliveries still in the due index's one
// partition from before it was spread (a stack deployed before the
// shards, whose pending deliveries stayed there through their retries)
// to their shards, where every read looks, and returns how many it moved.
// The deliverer runs it until it has run once (Sweep); it reads one empty
// partition once it has.
func MoveLegacyDue(ctx context.Context, table *storage.Table) (int, error) {
	items, err := storage.QueryAll[storage.Key](ctx, table, storage.Query{
		Index: storage.IndexGSI1, Key: expression.Key(storage.AttrGSI1PK).Equal(expression.Value(legacyDuePK)),
	})
	if err != nil {
		return 0, err
	}
	moved := 0
	for _, key := range items {
		// Only while it is there: a delivery that ended meanwhile left it.
		still := expression.Name(storage.AttrGSI1PK).Equal(expression.Value(legacyDuePK))
		err := table.Update(ctx, key, expression.Set(expression.Name(storage.AttrGSI1PK), expression.Value(duePK(key))), &still)
		if storage.IsConditionFailed(err) {
			continue
		}
		if err != nil {
			return moved, err
		}
		moved++
	}
	return moved, nil
}
