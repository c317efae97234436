package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
)

// Zones and rates are updated by read-modify-write: read the item and its
// version, compute the new item (validating rules that depend on the stored
// values, such as minCondition <= maxCondition), and put it on condition
// that the version is still the one read. If another update got in between,
// the condition fails and the whole cycle runs again on the newer item, so
// concurrent updates are applied one after the other and none is lost.

// maxAttempts bounds the cycles of one update; beyond it the request is
// answered 503 and the client retries later.
const maxAttempts = 10

// errConflict is a conditional write that lost to a concurrent update.
var errConflict = errors.New("the item changed since it was read")

// ErrContention is returned when an update lost maxAttempts times in a row.
var ErrContention = errors.New("concurrent updates kept conflicting")

// readModifyWrite runs attempt until it does not report errConflict, at
// most maxAttempts times, pausing a little (with jitter) between attempts.
func readModifyWrite(ctx context.Context, attempt func() error) error {
	for n := 1; ; n++ {
		err := attempt()
		if !errors.Is(err, errConflict) {
			return err
		}
		if n == maxAttempts {
			return ErrContention
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Duration(n) * 5 * time.Millisecond)):
		}
	}
}

// putIfVersion writes item (whose version is read+1) if the stored item
// still has version read; otherwise it reports errConflict.
func putIfVersion(ctx context.Context, table *storage.Table, item any, read int64) error {
	cond := expression.Name("version").Equal(expression.Value(read))
	err := table.Put(ctx, item, &cond)
	if storage.IsConditionFailed(err) {
		return errConflict
	}
	return err
}

// equal compares normalized zones or rates.
func equal[T any](a, b T) bool { return reflect.DeepEqual(a, b) }
