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

func TestTheProxyCountsIndexWritesAndMeasuresAChangeWithoutItsEvent(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	proxy, err := NewCountingProxy(testenv.Endpoint(t))
	require.NoError(t, err)
	proxy.Capacity, proxy.Indexes = true, true
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	db, err := dynamo.NewClient(ctx, front.URL, "us-east-1", nil)
	require.NoError(t, err)
	through := &storage.Table{DB: db, Name: table.Name}
	type item struct {
		storage.Key
		GSI1PK string `dynamodbav:"GSI1PK,omitempty"`
		GSI1SK string `dynamodbav:"GSI1SK,omitempty"`
		V      string `dynamodbav:"v"`
	}
	a := storage.Key{PK: "P", SK: "a"}
	event := storage.Key{PK: "EVENTS#ACCOUNT#acct1", SK: "EVENT#2026-11-27T10:00:00.000Z#0123456789abcdef01234567"}
	unindex := expression.Remove(expression.Name(storage.AttrGSI1PK)).Remove(expression.Name(storage.AttrGSI1SK))

	for _, tc := range []struct {
		name          string
		withoutEvents bool
		do            func() error
		wcu           float64
	}{
		{"an item put into the index costs its index entry too", false, func() error {
			return through.Tx().Put(item{Key: a, GSI1PK: "G", GSI1SK: "1", V: "x"}, nil).Commit(ctx)
		}, 2 + 1},
		{"an index entry's key changed is a delete and a put", false, func() error {
			return through.Tx().Put(item{Key: a, GSI1PK: "G", GSI1SK: "2", V: strings.Repeat("x", 1500)}, nil).Commit(ctx)
		}, 4 + 1 + 2},
		{"taking an item out of the index deletes its entry, at its size", false, func() error {
			return through.Tx().Update(a, unindex, nil).Commit(ctx)
		}, 4 + 2},
		{"an item the index never holds costs the table alone", false, func() error {
			return through.Tx().Put(item{Key: a, V: "y"}, nil).Commit(ctx)
		}, 4},
		{"without its event, a change of one write is that write alone", true, func() error {
			return through.Tx().Put(item{Key: a, V: "z"}, nil).Put(item{Key: event, GSI1PK: "EVENTS#FANOUT#0", GSI1SK: event.SK, V: "e"}, storage.ItemAbsent()).Commit(ctx)
		}, 1},
		{"with it, the event and its fan-out entry", false, func() error {
			return through.Tx().Put(item{Key: a, V: "z"}, nil).Put(item{Key: event, GSI1PK: "EVENTS#FANOUT#0", GSI1SK: event.SK, V: "e"}, storage.ItemAbsent()).Commit(ctx)
		}, 2 + 2 + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxy.WithoutEvents = tc.withoutEvents
			proxy.Take()
			require.NoError(t, tc.do())
			_, wcu := testenv.Capacity(proxy.Take())
			assert.InDelta(t, tc.wcu, wcu, 0.001)
		})
		if tc.withoutEvents {
			got, err := storage.Get[item](ctx, table, event)
			require.NoError(t, err)
			assert.Nil(t, got, "the event was not written")
		}
	}
}
