package storage_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/storage"
)

// counter is a record updated by read-modify-write.
type counter struct {
	storage.Key
	Hits    int      `dynamodbav:"hits"`
	Writers []string `dynamodbav:"writers"`
	Version int64    `dynamodbav:"version"`
}

// unversioned is the same record written before it had a version.
type unversioned struct {
	storage.Key
	Hits int `dynamodbav:"hits"`
}

var counterKey = storage.Key{PK: "ACCOUNT#acct1", SK: "COUNTER#1"}

func newCounterTable(t *testing.T) *storage.Table {
	t.Helper()
	table := testenv.NewTable(t)
	require.NoError(t, table.Put(context.Background(), counter{Key: counterKey}, nil))
	return table
}

func storedCounter(t *testing.T, table *storage.Table) counter {
	t.Helper()
	c, err := storage.Get[counter](context.Background(), table, counterKey)
	require.NoError(t, err)
	require.NotNil(t, c)
	return *c
}

// hit is a change that counts one more hit by writer.
func hit(writer string) func(*counter) error {
	return func(c *counter) error {
		c.Hits++
		c.Writers = append(c.Writers, writer)
		return nil
	}
}

func TestUpdateVersionedAppliesConcurrentChangesOneAfterTheOther(t *testing.T) {
	ctx := context.Background()

	t.Run("a change that lost the race runs again on the newer item", func(t *testing.T) {
		table := newCounterTable(t)
		calls := 0
		got, err := storage.UpdateVersioned(ctx, table, counterKey, func(c *counter) error {
			calls++
			if calls == 1 { // another writer gets in between this read and this write
				_, err := storage.UpdateVersioned(ctx, table, counterKey, hit("other"))
				require.NoError(t, err)
			}
			return hit("mine")(c)
		})
		require.NoError(t, err)
		assert.Equal(t, 2, calls)
		stored := storedCounter(t, table)
		assert.Equal(t, []string{"other", "mine"}, stored.Writers, "the other write survives")
		assert.Equal(t, int64(2), stored.Version)
		assert.Equal(t, stored, *got, "the answer is the item as written, version included")
	})

	t.Run("writers racing on one item are all applied once", func(t *testing.T) {
		table := newCounterTable(t)
		const writers = 8
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for i := range writers {
			wg.Go(func() {
				_, errs[i] = storage.UpdateVersioned(ctx, table, counterKey, hit(string(rune('a'+i))))
			})
		}
		wg.Wait()
		for i, err := range errs {
			require.NoError(t, err, "writer %d", i)
		}
		stored := storedCounter(t, table)
		assert.Equal(t, writers, stored.Hits)
		assert.Len(t, stored.Writers, writers)
		assert.Equal(t, int64(writers), stored.Version)
	})
}

func TestUpdateVersionedGivesUpWithA503(t *testing.T) {
	ctx := context.Background()

	t.Run("an item that changes under every attempt ends in ErrContention as a 503", func(t *testing.T) {
		table := newCounterTable(t)
		calls := 0
		_, err := storage.UpdateVersioned(ctx, table, counterKey, func(c *counter) error {
			calls++
			_, err := storage.UpdateVersioned(ctx, table, counterKey, hit("other"))
			require.NoError(t, err)
			return hit("never")(c)
		})
		require.Error(t, err)
		assert.Equal(t, storage.MaxUpdateAttempts, calls)
		assert.ErrorIs(t, err, storage.ErrContention)
		e, ok := apierror.As(err)
		require.True(t, ok)
		assert.Equal(t, apierror.CodeUnavailable, e.Code)
		assert.Equal(t, time.Second, e.RetryAfter, "the client is told when to retry")
		assert.NotContains(t, storedCounter(t, table).Writers, "never")
	})

	t.Run("a context cancelled during the pause ends the update as a 503", func(t *testing.T) {
		table := newCounterTable(t)
		cctx, cancel := context.WithCancel(ctx)
		// The client goes away just as this update's write loses the race.
		racing := &storage.Table{Name: table.Name, DB: cancelOnConflict{API: table.DB, cancel: cancel}}
		calls := 0
		_, err := storage.UpdateVersioned(cctx, racing, counterKey, func(c *counter) error {
			calls++
			_, err := storage.UpdateVersioned(ctx, table, counterKey, hit("other"))
			require.NoError(t, err)
			return hit("mine")(c)
		})
		assert.ErrorIs(t, err, context.Canceled)
		assert.True(t, apierror.HasCode(err, apierror.CodeUnavailable), "%v", err)
		assert.Equal(t, 1, calls, "no attempt after the cancellation")
		assert.Equal(t, []string{"other"}, storedCounter(t, table).Writers)
	})
}

// cancelOnConflict calls cancel when a conditional put fails.
type cancelOnConflict struct {
	storage.API
	cancel func()
}

func (c cancelOnConflict) PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	out, err := c.API.PutItem(ctx, in, opts...)
	if storage.IsConditionFailed(err) {
		c.cancel()
	}
	return out, err
}

func TestUpdateVersionedEndsWithoutWriting(t *testing.T) {
	ctx := context.Background()

	t.Run("a missing item is nil and change never runs", func(t *testing.T) {
		table := testenv.NewTable(t)
		got, err := storage.UpdateVersioned(ctx, table, counterKey, func(*counter) error {
			t.Fatal("change ran on a missing item")
			return nil
		})
		require.NoError(t, err)
		assert.Nil(t, got)
		missing, err := storage.Get[counter](ctx, table, counterKey)
		require.NoError(t, err)
		assert.Nil(t, missing, "no item was created")
	})

	t.Run("an error from change is returned and nothing is written", func(t *testing.T) {
		table := newCounterTable(t)
		refused := apierror.Invalid("hits must stay below 1")
		_, err := storage.UpdateVersioned(ctx, table, counterKey, func(c *counter) error {
			c.Hits = 5
			return refused
		})
		assert.Same(t, refused, err)
		assert.Equal(t, counter{Key: counterKey}, storedCounter(t, table))
	})

	t.Run("ErrNoChange returns the item as read and writes nothing", func(t *testing.T) {
		table := newCounterTable(t)
		got, err := storage.UpdateVersioned(ctx, table, counterKey, func(c *counter) error {
			c.Hits = 99 // a candidate the change then decides against
			return storage.ErrNoChange
		})
		require.NoError(t, err)
		assert.Equal(t, counter{Key: counterKey}, *got)
		assert.Equal(t, int64(0), storedCounter(t, table).Version, "no write")
	})
}

func TestUpdateVersionedCountsAnItemWithoutVersionAsVersionZero(t *testing.T) {
	ctx := context.Background()

	t.Run("the first update gives the item version 1", func(t *testing.T) {
		table := testenv.NewTable(t)
		require.NoError(t, table.Put(ctx, unversioned{Key: counterKey, Hits: 3}, nil))
		got, err := storage.UpdateVersioned(ctx, table, counterKey, hit("mine"))
		require.NoError(t, err)
		assert.Equal(t, 4, got.Hits)
		assert.Equal(t, int64(1), storedCounter(t, table).Version)
	})

	t.Run("a versioned write in between is a conflict, not overwritten", func(t *testing.T) {
		table := testenv.NewTable(t)
		require.NoError(t, table.Put(ctx, unversioned{Key: counterKey, Hits: 3}, nil))
		calls := 0
		_, err := storage.UpdateVersioned(ctx, table, counterKey, func(c *counter) error {
			calls++
			if calls == 1 {
				_, err := storage.UpdateVersioned(ctx, table, counterKey, hit("other"))
				require.NoError(t, err)
			}
			return hit("mine")(c)
		})
		require.NoError(t, err)
		assert.Equal(t, 2, calls)
		stored := storedCounter(t, table)
		assert.Equal(t, []string{"other", "mine"}, stored.Writers)
		assert.Equal(t, int64(2), stored.Version)
	})

	t.Run("an item deleted in between is reported missing", func(t *testing.T) {
		table := testenv.NewTable(t)
		require.NoError(t, table.Put(ctx, unversioned{Key: counterKey}, nil))
		got, err := storage.UpdateVersioned(ctx, table, counterKey, func(c *counter) error {
			require.NoError(t, table.Delete(ctx, counterKey, nil))
			return hit("mine")(c)
		})
		require.NoError(t, err)
		assert.Nil(t, got)
		gone, err := storage.Get[counter](ctx, table, counterKey)
		require.NoError(t, err)
		assert.Nil(t, gone, "the deleted item is not brought back")
	})
}

func TestUpdateVersionedReadsWithTheCallersRead(t *testing.T) {
	ctx := context.Background()
	table := newCounterTable(t)
	reads := 0
	got, err := storage.UpdateVersioned(ctx, table, counterKey, hit("mine"),
		storage.ReadWith(func(ctx context.Context) (map[string]types.AttributeValue, error) {
			reads++
			items, err := storage.QueryRange(ctx, table, counterKey.PK, counterKey.SK, counterKey.SK)
			if err != nil || len(items) == 0 {
				return nil, err
			}
			return items[0], nil
		}))
	require.NoError(t, err)
	assert.Equal(t, 1, reads)
	assert.Equal(t, 1, got.Hits)

	failed := errors.New("read failed")
	_, err = storage.UpdateVersioned(ctx, table, counterKey, hit("never"),
		storage.ReadWith(func(context.Context) (map[string]types.AttributeValue, error) { return nil, failed }))
	assert.ErrorIs(t, err, failed)
}
