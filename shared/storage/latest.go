package storage

import "context"

// QueryLatest returns at most limit items of partition pk whose sort key
// begins with prefix, the highest sort keys first (for sort keys that begin
// with a timestamp: the newest first), with one strongly consistent read.
func QueryLatest[T any](ctx context.Context, t *Table, pk, prefix string, limit int32) ([]T, error) {
	items, _, err := QueryPage[T](ctx, t, Query{Key: PartitionPrefix(pk, prefix), Descending: true}, limit, nil)
	return items, err
}
