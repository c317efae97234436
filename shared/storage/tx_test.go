package storage_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/storage"
)

// claim is an item that reserves a name for one owner.
type claim struct {
	storage.Key
	Owner string `dynamodbav:"owner"`
}

func claimKey(name string) storage.Key { return storage.Key{PK: "ACCOUNT#acct1", SK: "CLAIM#" + name} }
func ownerKey(id string) storage.Key   { return storage.Key{PK: "ACCOUNT#acct1", SK: "OWNER#" + id} }

func TestATransactionAppliesEveryWriteOrNone(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	taken := apierror.Conflict("the name is taken")

	t.Run("writes whose conditions hold are all applied", func(t *testing.T) {
		err := table.Tx().
			Put(claim{Key: claimKey("ada"), Owner: "u1"}, storage.ItemAbsent()).Else(taken).
			Put(claim{Key: ownerKey("u1"), Owner: "u1"}, storage.ItemAbsent()).
			Commit(ctx)
		require.NoError(t, err)
		for _, k := range []storage.Key{claimKey("ada"), ownerKey("u1")} {
			got, err := storage.Get[claim](ctx, table, k)
			require.NoError(t, err)
			require.NotNil(t, got, k.SK)
		}
	})
	t.Run("one failed condition applies nothing and answers that write's Else", func(t *testing.T) {
		err := table.Tx().
			Put(claim{Key: ownerKey("u2"), Owner: "u2"}, storage.ItemAbsent()).
			Put(claim{Key: claimKey("ada"), Owner: "u2"}, storage.ItemAbsent()).Else(taken).
			Commit(ctx)
		require.ErrorIs(t, err, taken)
		got, err := storage.Get[claim](ctx, table, ownerKey("u2"))
		require.NoError(t, err)
		assert.Nil(t, got, "the first write was not applied either")
	})
	t.Run("without an Else the failure names the write and carries the item found", func(t *testing.T) {
		err := table.Tx().
			Update(ownerKey("u3"), expression.Set(expression.Name("owner"), expression.Value("u3")), nil).
			Put(claim{Key: claimKey("ada"), Owner: "u3"}, storage.ItemAbsent()).
			Commit(ctx)
		var failed *storage.TxConditionFailed
		require.ErrorAs(t, err, &failed)
		assert.Equal(t, 1, failed.Index)
		assert.True(t, storage.IsConditionFailed(err))
		held, err := storage.FailedConditionItem[claim](err, claimKey("ada"))
		require.NoError(t, err)
		require.NotNil(t, held)
		assert.Equal(t, "u1", held.Owner, "the claim as stored, without a read")
	})
	t.Run("a check holds the transaction to an item it does not write", func(t *testing.T) {
		owned := expression.Name("owner").Equal(expression.Value("someone else"))
		err := table.Tx().
			Check(claimKey("ada"), owned).Else(taken).
			Put(claim{Key: ownerKey("u4"), Owner: "u4"}, nil).
			Commit(ctx)
		require.ErrorIs(t, err, taken)
		got, err := storage.Get[claim](ctx, table, ownerKey("u4"))
		require.NoError(t, err)
		assert.Nil(t, got)
	})
	t.Run("more writes than DynamoDB takes in one transaction are refused before sending", func(t *testing.T) {
		tx := table.Tx()
		for i := range storage.MaxTxItems + 1 {
			tx.Put(claim{Key: ownerKey(fmt.Sprint("many", i))}, nil)
		}
		require.ErrorIs(t, tx.Commit(ctx), storage.ErrTxTooLarge)
	})
}

func TestConcurrentTransactionsOnOneItemAllApplyOnceEach(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	total := storage.Key{PK: "ACCOUNT#acct1", SK: "TOTAL"}
	const writers = 16
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = table.Tx().
				Update(total, expression.Add(expression.Name("n"), expression.Value(1)), nil).
				Put(claim{Key: ownerKey(fmt.Sprint("w", i)), Owner: fmt.Sprint(i)}, storage.ItemAbsent()).
				Commit(ctx)
		}()
	}
	wg.Wait()
	conflicts := 0
	for _, err := range errs {
		if apierror.HasCode(err, apierror.CodeUnavailable) && errors.Is(err, storage.ErrTxConflict) {
			conflicts++ // contention beyond the retries is a 503, never a half write
			continue
		}
		require.NoError(t, err)
	}
	type counted struct {
		N int `dynamodbav:"n"`
	}
	got, err := storage.Get[counted](ctx, table, total)
	require.NoError(t, err)
	owners, err := storage.QueryPartition[claim](ctx, table, "ACCOUNT#acct1", "OWNER#")
	require.NoError(t, err)
	assert.Equal(t, writers-conflicts, got.N, "the total counts exactly the transactions applied")
	assert.Len(t, owners, writers-conflicts, "and each applied transaction wrote its item")
	assert.Less(t, conflicts, writers/2, "retries absorb ordinary contention")
}

func TestReadTogetherSeesItemsAsOfOneInstant(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	require.NoError(t, table.Put(ctx, claim{Key: claimKey("bo"), Owner: "u9"}, nil))
	var c claim
	var foundClaim, foundOwner bool
	err := table.ReadTogether(ctx,
		storage.Read{Key: claimKey("bo"), Into: &c, Found: &foundClaim},
		storage.Read{Key: ownerKey("u9"), Found: &foundOwner})
	require.NoError(t, err)
	assert.True(t, foundClaim)
	assert.Equal(t, "u9", c.Owner)
	assert.False(t, foundOwner)
}

func TestQueryPagesAndCounts(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	var items []any
	for i := range 7 {
		items = append(items, claim{Key: ownerKey(fmt.Sprintf("p%02d", i)), Owner: fmt.Sprint(i)})
	}
	require.NoError(t, table.BatchPut(ctx, items))
	q := storage.Query{Key: storage.PartitionPrefix("ACCOUNT#acct1", "OWNER#p")}

	t.Run("a page stops at its limit and its cursor continues after it", func(t *testing.T) {
		first, next, err := storage.QueryPage[claim](ctx, table, q, 3, nil)
		require.NoError(t, err)
		require.Len(t, first, 3)
		require.NotNil(t, next)
		second, _, err := storage.QueryPage[claim](ctx, table, q, 3, next)
		require.NoError(t, err)
		require.Len(t, second, 3)
		assert.Equal(t, "3", second[0].Owner)
	})
	t.Run("descending reads the highest sort keys first", func(t *testing.T) {
		q := q
		q.Descending = true
		page, _, err := storage.QueryPage[claim](ctx, table, q, 2, nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"6", "5"}, []string{page[0].Owner, page[1].Owner})
	})
	t.Run("a count reads every page", func(t *testing.T) {
		n, err := storage.QueryCount(ctx, table, q)
		require.NoError(t, err)
		assert.Equal(t, 7, n)
	})
	t.Run("pages walk every item once", func(t *testing.T) {
		pages, err := storage.NewPages[claim](table, q, 2)
		require.NoError(t, err)
		var seen []string
		for {
			page, ok, err := pages.Next(ctx)
			require.NoError(t, err)
			if !ok {
				break
			}
			for _, c := range page {
				seen = append(seen, c.Owner)
			}
		}
		assert.Equal(t, []string{"0", "1", "2", "3", "4", "5", "6"}, seen)
	})
}

func TestUpdateReturningAnswersTheItemAsWritten(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	type counted struct {
		N int `dynamodbav:"n"`
	}
	key := storage.Key{PK: "ACCOUNT#acct1", SK: "COUNT"}
	for want := 1; want <= 3; want++ {
		got, err := storage.UpdateReturning[counted](ctx, table, key, expression.Add(expression.Name("n"), expression.Value(1)), nil)
		require.NoError(t, err)
		assert.Equal(t, want, got.N)
	}
	_, err := storage.UpdateReturning[counted](ctx, table, storage.Key{PK: "ACCOUNT#acct1", SK: "NONE"},
		expression.Add(expression.Name("n"), expression.Value(1)), storage.ItemExists())
	assert.True(t, storage.IsConditionFailed(err))
}
