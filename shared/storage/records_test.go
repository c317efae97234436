package storage_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/storage"
)

// note is a record an account owns; it declares no key.
type note struct {
	ID      string `dynamodbav:"id"`
	Account string `dynamodbav:"account"`
	Topic   string `dynamodbav:"topic"`
	Text    string `dynamodbav:"text"`
}

// storedNote is a note's item as the table holds it.
type storedNote struct {
	storage.Key
	note
}

func newNotes(t *testing.T) (*storage.Table, *storage.AccountItems[note]) {
	t.Helper()
	table := testenv.NewTable(t)
	notes := storage.NewAccountItems(table, "NOTE#", func(n note) (string, string) { return n.Account, n.Topic + "#" + n.ID })
	require.NoError(t, notes.Seed(context.Background(), []note{
		{ID: "2", Account: "acctA", Topic: "work", Text: "second"},
		{ID: "1", Account: "acctA", Topic: "work", Text: "first"},
		{ID: "3", Account: "acctA", Topic: "home", Text: "third"},
		{ID: "1", Account: "acctB", Topic: "work", Text: "other account"},
	}, nil))
	return table, notes
}

func TestAccountItemsStayInTheirAccount(t *testing.T) {
	ctx := context.Background()
	table, notes := newNotes(t)

	t.Run("a record is stored at its account's key, with its attributes", func(t *testing.T) {
		item, err := storage.Get[storedNote](ctx, table, storage.Key{PK: storage.AccountPK("acctA"), SK: "NOTE#work#1"})
		require.NoError(t, err)
		require.NotNil(t, item)
		assert.Equal(t, note{ID: "1", Account: "acctA", Topic: "work", Text: "first"}, item.note)
		assert.Equal(t, notes.Key("acctA", "work#1"), item.Key)
	})
	t.Run("Get finds the account's record and not another account's", func(t *testing.T) {
		n, err := notes.Get(ctx, "acctA", "work#1")
		require.NoError(t, err)
		require.NotNil(t, n)
		assert.Equal(t, "first", n.Text)
		n, err = notes.Get(ctx, "acctC", "work#1")
		require.NoError(t, err)
		assert.Nil(t, n)
	})
	t.Run("List reads the account's records in id order", func(t *testing.T) {
		list, err := notes.List(ctx, "acctA")
		require.NoError(t, err)
		assert.Equal(t, []string{"third", "first", "second"}, texts(list))
	})
	t.Run("ListUnder reads the records whose id begins with a part", func(t *testing.T) {
		list, err := notes.ListUnder(ctx, "acctA", "work#")
		require.NoError(t, err)
		assert.Equal(t, []string{"first", "second"}, texts(list))
	})
	t.Run("an account without records lists none, as an empty list", func(t *testing.T) {
		list, err := notes.List(ctx, "acctC")
		require.NoError(t, err)
		assert.NotNil(t, list)
		assert.Empty(t, list)
	})
}

func TestAccountItemsCreateAndDeleteOnce(t *testing.T) {
	ctx := context.Background()
	_, notes := newNotes(t)

	created, err := notes.Create(ctx, note{ID: "9", Account: "acctA", Topic: "home", Text: "new"})
	require.NoError(t, err)
	assert.True(t, created)
	created, err = notes.Create(ctx, note{ID: "9", Account: "acctA", Topic: "home", Text: "again"})
	require.NoError(t, err)
	assert.False(t, created, "the key is taken")
	n, err := notes.Get(ctx, "acctA", "home#9")
	require.NoError(t, err)
	assert.Equal(t, "new", n.Text, "the second create wrote nothing")

	deleted, err := notes.Delete(ctx, "acctA", "home#9")
	require.NoError(t, err)
	assert.True(t, deleted)
	deleted, err = notes.Delete(ctx, "acctA", "home#9")
	require.NoError(t, err)
	assert.False(t, deleted, "nothing left to delete")
	deleted, err = notes.Delete(ctx, "acctC", "work#1")
	require.NoError(t, err)
	assert.False(t, deleted, "another account's record is not found")
}

func TestBatchGetReturnsTheItemsThatExist(t *testing.T) {
	ctx := context.Background()
	table, notes := newNotes(t)
	keys := []storage.Key{notes.Key("acctA", "work#1"), notes.Key("acctA", "nothing#0"), notes.Key("acctA", "home#3")}
	for i := range 150 { // more than one call's worth of keys
		keys = append(keys, notes.Key("acctA", "missing#"+string(rune('a'+i%26))+string(rune('a'+i/26))))
	}
	got, err := storage.BatchGet[note](ctx, table, keys)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"first", "third"}, texts(got))
}

func TestQueryAllReadsAnIndexWithAFilter(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	type indexed struct {
		storage.Key
		GSI1PK string `dynamodbav:"GSI1PK"`
		GSI1SK string `dynamodbav:"GSI1SK"`
		Open   bool   `dynamodbav:"open"`
	}
	for i, open := range []bool{true, false, true} {
		id := string(rune('a' + i))
		require.NoError(t, table.Put(ctx, indexed{Key: storage.Key{PK: "P#" + id, SK: "S"}, GSI1PK: "ALL", GSI1SK: id, Open: open}, nil))
	}
	open := expression.Name("open").Equal(expression.Value(true))
	got, err := storage.QueryAll[indexed](ctx, table, storage.Query{
		Index:  storage.IndexGSI1,
		Key:    expression.Key(storage.AttrGSI1PK).Equal(expression.Value("ALL")),
		Filter: &open,
	})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, []string{"a", "c"}, []string{got[0].GSI1SK, got[1].GSI1SK})
}

func texts(notes []note) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n.Text
	}
	return out
}

func TestALoadWritesNothingWhenARecordIsRefused(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	notes := storage.NewAccountItems(table, "NOTE#", func(n note) (string, string) { return n.Account, n.ID })
	refuseEmpty := func(n *note) error {
		if n.Text == "" {
			return errors.New("text is required")
		}
		return nil
	}
	for _, c := range []struct {
		name  string
		notes []note
		want  string
	}{
		{"a record its check refuses", []note{{ID: "1", Account: "a", Text: "ok"}, {ID: "2", Account: "a"}}, "NOTE#2: text is required"},
		{"two records with one key", []note{{ID: "1", Account: "a", Text: "x"}, {ID: "1", Account: "a", Text: "y"}}, "NOTE#1 appears twice in account a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var l storage.Loading
			storage.Load(&l, notes, []note{{ID: "0", Account: "a", Text: "first kind"}}, refuseEmpty)
			storage.Load(&l, notes, c.notes, refuseEmpty)
			assert.EqualError(t, l.Write(ctx, table), c.want)
			list, err := notes.List(ctx, "a")
			require.NoError(t, err)
			assert.Empty(t, list, "nothing was written")
		})
	}
	t.Run("a check may fill in defaults before the write", func(t *testing.T) {
		require.NoError(t, notes.Seed(ctx, []note{{ID: "1", Account: "a"}}, func(n *note) error {
			n.Text = "default"
			return nil
		}))
		n, err := notes.Get(ctx, "a", "1")
		require.NoError(t, err)
		assert.Equal(t, "default", n.Text)
	})
}

// consistency records whether each read asked for strong consistency.
type consistency struct {
	storage.API
	mu     sync.Mutex
	strong []bool
}

func (c *consistency) note(strong *bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.strong = append(c.strong, strong != nil && *strong)
}

func (c *consistency) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.note(in.ConsistentRead)
	return c.API.GetItem(ctx, in, opts...)
}

func (c *consistency) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.note(in.ConsistentRead)
	return c.API.Query(ctx, in, opts...)
}

func TestRecordsReadEventuallyOnlyWhenAsked(t *testing.T) {
	ctx := context.Background()
	table, _ := newNotes(t)
	spy := &consistency{API: table.DB}
	watched := &storage.Table{DB: spy, Name: table.Name}
	notes := storage.NewAccountItems(watched, "NOTE#", func(n note) (string, string) { return n.Account, n.Topic + "#" + n.ID })
	read := func(items *storage.AccountItems[note]) []bool {
		spy.strong = nil
		got, err := items.Get(ctx, "acctA", "work#1")
		require.NoError(t, err)
		require.NotNil(t, got)
		list, err := items.ListUnder(ctx, "acctA", "work#")
		require.NoError(t, err)
		require.Len(t, list, 2)
		return spy.strong
	}
	assert.Equal(t, []bool{true, true}, read(notes), "by default a get and a listing are strongly consistent")
	assert.Equal(t, []bool{false, false}, read(notes.ReadEventually()), "read eventually, both are not")
}
