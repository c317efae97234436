package perf

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

func TestTheProxyRecordsTheCapacityEachCallConsumes(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	proxy, err := NewCountingProxy(testenv.Endpoint(t))
	require.NoError(t, err)
	proxy.Capacity = true
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	db, err := dynamo.NewClient(ctx, front.URL, "us-east-1", nil)
	require.NoError(t, err)
	through := &storage.Table{DB: db, Name: table.Name}
	type item struct {
		storage.Key
		V string `dynamodbav:"v"`
	}
	a, b := storage.Key{PK: "P", SK: "a"}, storage.Key{PK: "P", SK: "b"}

	for _, tc := range []struct {
		name     string
		do       func() error
		rcu, wcu float64
	}{
		{"a small put is one write unit", func() error { return through.Put(ctx, item{Key: a, V: "x"}, nil) }, 0, 1},
		{"a strongly consistent read is one read unit", func() error { _, err := storage.Get[item](ctx, through, a); return err }, 1, 0},
		{"an eventually consistent read is half", func() error { _, err := storage.Get[item](ctx, through, a, storage.Eventually); return err }, 0.5, 0},
		{"a write whose condition fails is one write unit, as on AWS", func() error {
			err := through.Put(ctx, item{Key: a, V: "z"}, storage.ItemAbsent())
			if storage.IsConditionFailed(err) {
				return nil
			}
			return err
		}, 0, 1},
		{"a transaction of two puts counts double", func() error {
			return through.Tx().Put(item{Key: a, V: "y"}, nil).Put(item{Key: b, V: "y"}, nil).Commit(ctx)
		}, 0, 4},
		{"a transaction of three writes counts two units each", func() error {
			return through.Tx().Put(item{Key: a, V: "z"}, nil).Delete(b, nil).
				Update(storage.Key{PK: "P", SK: "c"}, expression.Set(expression.Name("v"), expression.Value("w")), nil).Commit(ctx)
		}, 0, 6},
		{"a transaction writing an item over 1 KB counts 2 units per KB", func() error {
			return through.Tx().Put(item{Key: a, V: strings.Repeat("x", 1500)}, nil).Commit(ctx)
		}, 0, 4},
		{"a canceled transaction counts nothing", func() error {
			err := through.Tx().Put(item{Key: a, V: "q"}, storage.ItemAbsent()).Commit(ctx)
			if storage.IsConditionFailed(err) {
				return nil
			}
			return err
		}, 0, 0},
		{"a batch read of two small items is one read unit each", func() error {
			_, err := storage.BatchGet[item](ctx, through, []storage.Key{a, storage.Key{PK: "P", SK: "c"}})
			return err
		}, 2, 0},
		{"reading two small items together counts two units each", func() error {
			return through.ReadTogether(ctx, storage.Read{Key: a}, storage.Read{Key: storage.Key{PK: "P", SK: "c"}})
		}, 4, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxy.Take()
			require.NoError(t, tc.do())
			rcu, wcu := testenv.Capacity(proxy.Take())
			assert.InDelta(t, tc.rcu, rcu, 0.001)
			assert.InDelta(t, tc.wcu, wcu, 0.001)
		})
	}
}
