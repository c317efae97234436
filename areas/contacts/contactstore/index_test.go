package contactstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/storage"
)

const acct = "acctIndex"

var bg = context.Background()

func person(id, first, last string) Contact {
	return Contact{ID: id, LocationID: acct, FirstName: first, LastName: last, ContactName: first + " " + last,
		Email: strings.ToLower(first) + "@example.com", Phone: "+1 555 010 " + id[len(id)-4:], DateAdded: "2025-01-01T00:00:00Z"}
}

// probe collects every key any version of a test's contacts had, to look
// for left-over items under keys no contact has any more.
type probe map[string]bool

func (p probe) add(cs ...Contact) {
	for _, c := range cs {
		for _, k := range termsOf(c).indexKeys() {
			p[k] = true
		}
	}
}

// checkIndex asserts that the index is exactly what the stored contacts
// give: under every key, the contacts indexed under it (with their current
// terms) and nothing else, a counter equal to their number, and every
// contact item naming its keys with nothing left to delete.
func checkIndex(t *testing.T, s *Contacts, p probe) {
	t.Helper()
	want := map[string][]string{}
	terms := map[string]searchTerms{}
	require.NoError(t, s.eachStored(bg, acct, func(items []contactItem) error {
		for _, it := range items {
			tt := termsOf(it.Contact)
			terms[it.GSI1SK] = tt
			assert.ElementsMatch(t, tt.indexKeys(), it.Keys, "contact %s names its keys", it.ID)
			assert.Empty(t, it.Stale, "contact %s has nothing left to delete", it.ID)
			for _, k := range it.Keys {
				want[k] = append(want[k], it.GSI1SK)
				p[k] = true
			}
		}
		return nil
	}))
	for k := range p {
		items, err := storage.QueryPartition[indexItem](bg, s.table, indexPK(acct, k), "")
		require.NoError(t, err)
		var got []string
		for _, it := range items {
			got = append(got, it.SK)
			assert.Equal(t, terms[it.SK], it.searchTerms, "the item of %s under %q carries its terms", it.SK, k)
		}
		assert.ElementsMatch(t, want[k], got, "the items under %q", k)
		counter, err := storage.Get[counterItem](bg, s.table, counterKey(acct, k))
		require.NoError(t, err)
		n := 0
		if counter != nil {
			n = counter.Count
		}
		assert.Equal(t, len(want[k]), n, "the counter of %q", k)
	}
}

func newStore(t *testing.T) *Contacts {
	t.Helper()
	return NewContacts(testenv.NewTable(t))
}

func TestWritesKeepTheIndexAndItsCounters(t *testing.T) {
	s := newStore(t)
	p := probe{}
	ann, bob := person("c0001", "Ann", "Lee"), person("c0002", "Anna", "Park")
	p.add(ann, bob)

	t.Run("new contacts are indexed under each of their keys and counted once", func(t *testing.T) {
		require.NoError(t, s.Put(bg, ann, 1000))
		require.NoError(t, s.Put(bg, bob, 2000))
		checkIndex(t, s, p)
		n, _, err := s.Total(bg, acct)
		require.NoError(t, err)
		assert.Equal(t, 0, n, "no total is kept before a recount")
	})
	t.Run("writing a contact again unchanged changes nothing", func(t *testing.T) {
		require.NoError(t, s.Put(bg, ann, 1000))
		checkIndex(t, s, p)
	})
	t.Run("a renamed contact leaves the keys of its old name", func(t *testing.T) {
		renamed := person("c0001", "Zoë", "Lee-Smith")
		p.add(renamed)
		require.NoError(t, s.Put(bg, renamed, 1000))
		checkIndex(t, s, p)
	})
	t.Run("a contact moved in the list order is indexed at its new place only", func(t *testing.T) {
		require.NoError(t, s.Put(bg, bob, 3000))
		checkIndex(t, s, p)
	})
	t.Run("a deleted contact leaves the index, the counters and its tasks", func(t *testing.T) {
		require.NoError(t, s.table.Put(bg, taskItem{Key: taskKey(acct, "c0002", "T1"), Task: Task{ID: "T1", ContactID: "c0002", Title: "Call"}}, nil))
		deleted, err := s.Delete(bg, acct, "c0002")
		require.NoError(t, err)
		assert.True(t, deleted)
		checkIndex(t, s, p)
		task, err := s.GetTask(bg, acct, "c0002", "T1")
		require.NoError(t, err)
		assert.Nil(t, task)
		deleted, err = s.Delete(bg, acct, "c0002")
		require.NoError(t, err)
		assert.False(t, deleted, "a second delete finds nothing")
	})
}

// failing makes chosen calls of a client fail, as an engine that stops
// answering would.
type failing struct {
	storage.API
	fail func(op string, pk string) bool
}

var errEngineDown = errors.New("engine down")

func (f failing) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if f.fail("UpdateItem", pkOf(in.Key)) {
		return nil, errEngineDown
	}
	return f.API.UpdateItem(ctx, in, opts...)
}

func (f failing) DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	if f.fail("DeleteItem", pkOf(in.Key)) {
		return nil, errEngineDown
	}
	return f.API.DeleteItem(ctx, in, opts...)
}

func pkOf(key map[string]types.AttributeValue) string {
	var k storage.Key
	_ = attributevalue.UnmarshalMap(key, &k)
	return k.PK
}

func TestAWriteStoppedHalfwayIsFinishedByRepeatingItOrByReindex(t *testing.T) {
	table := testenv.NewTable(t)
	s := NewContacts(table)
	p := probe{}
	ann := person("c0001", "Ann", "Lee")
	renamed := person("c0001", "Ann", "Park")
	other := person("c0002", "Bea", "Park")
	p.add(ann, renamed, other)
	require.NoError(t, s.Load(bg, []NewContact{{Contact: ann, AddedMs: 1000}, {Contact: other, AddedMs: 2000}}))
	checkIndex(t, s, p)

	var down atomic.Bool
	broken := NewContacts(&storage.Table{DB: failing{API: table.DB, fail: func(op, pk string) bool {
		return down.Load() && (strings.HasPrefix(pk, "CSEARCHN#") || op == "DeleteItem")
	}}, Name: table.Name})

	t.Run("a write that stops after the contact item never counts twice when repeated", func(t *testing.T) {
		down.Store(true)
		require.ErrorIs(t, broken.Put(bg, renamed, 1000), errEngineDown)
		down.Store(false)
		require.NoError(t, s.Put(bg, renamed, 1000))
		stored, err := storage.Get[contactItem](bg, table, contactKey(acct, "c0001"))
		require.NoError(t, err)
		assert.Empty(t, stored.Stale, "the repeated write deleted what the first left")
		for _, k := range []string{"p", "pa", "park"} {
			c, err := storage.Get[counterItem](bg, table, counterKey(acct, k))
			require.NoError(t, err)
			assert.Equal(t, 1, c.Count, "the counter of %q missed the stopped write's +1 and got no second one", k)
		}
	})
	t.Run("reindex recounts what the stopped write left one off", func(t *testing.T) {
		rep, err := s.Reindex(bg, acct, false)
		require.NoError(t, err)
		assert.Equal(t, 0, rep.Indexed, "every contact was indexed already")
		assert.True(t, rep.Ready)
		assert.Positive(t, rep.Changed)
		checkIndex(t, s, p)
	})
	t.Run("items a stopped write left to delete are deleted by reindex", func(t *testing.T) {
		down.Store(true)
		require.ErrorIs(t, broken.Put(bg, ann, 1000), errEngineDown) // back to Lee; stops before counting
		down.Store(false)
		stored, err := storage.Get[contactItem](bg, table, contactKey(acct, "c0001"))
		require.NoError(t, err)
		require.NotEmpty(t, stored.Stale)
		rep, err := s.Reindex(bg, acct, false)
		require.NoError(t, err)
		assert.Equal(t, 1, rep.Indexed)
		checkIndex(t, s, p)
	})
}

func TestConcurrentWritersOfOneContactLeaveTheIndexOfTheLastCommitted(t *testing.T) {
	s := newStore(t)
	p := probe{}
	names := []string{"Ann Lee", "Bea Park", "Cy Lee", "Dee Moss", "Eve Park", "Flo Lee"}
	var versions []Contact
	for _, n := range names {
		first, last, _ := strings.Cut(n, " ")
		versions = append(versions, person("c0001", first, last))
	}
	p.add(versions...)
	require.NoError(t, s.Put(bg, person("c0002", "Ann", "Moss"), 500))
	for round := range 3 {
		var wg sync.WaitGroup
		for _, v := range versions {
			wg.Go(func() {
				err := s.Put(bg, v, 1000)
				if err != nil {
					assert.ErrorIs(t, err, errOvertaken, "round %d", round)
				}
			})
		}
		wg.Wait()
		checkIndex(t, s, p)
	}
}

func TestLoadReplacesContactsAndRecounts(t *testing.T) {
	s := newStore(t)
	p := probe{}
	var first, second []NewContact
	for i := range 60 {
		c := person(fmt.Sprintf("c%04d", i), "Ann", fmt.Sprintf("Lee%d", i))
		first = append(first, NewContact{Contact: c, AddedMs: int64(1000 + i)})
		c2 := person(c.ID, "Bea", fmt.Sprintf("Park%d", i%7))
		second = append(second, NewContact{Contact: c2, AddedMs: int64(1000 + i)})
		p.add(c, c2)
	}
	require.NoError(t, s.Load(bg, first))
	checkIndex(t, s, p)
	require.NoError(t, s.Load(bg, second[:30]))
	checkIndex(t, s, p)
	require.NoError(t, s.Load(bg, second[:30]))
	checkIndex(t, s, p)
	n, kept, err := s.Total(bg, acct)
	require.NoError(t, err)
	assert.True(t, kept)
	assert.Equal(t, 60, n)
}

// legacyContact is a contact item as the code before the index wrote it.
type legacyContact struct {
	storage.Key
	GSI1PK string `dynamodbav:"GSI1PK"`
	GSI1SK string `dynamodbav:"GSI1SK"`
	Search string `dynamodbav:"search"`
	Contact
}

func TestReindexBuildsTheIndexOfExistingContactsWhileTheyAreWritten(t *testing.T) {
	s := newStore(t)
	p := probe{}
	var legacy []any
	for i := range 80 {
		c := person(fmt.Sprintf("c%04d", i), []string{"Ann", "Bea", "Cy"}[i%3], fmt.Sprintf("Lee%d", i%9))
		p.add(c)
		legacy = append(legacy, legacyContact{Key: contactKey(acct, c.ID), GSI1PK: listPK(acct), GSI1SK: OrderKey(int64(1000+i), c.ID), Search: "ann lee", Contact: c})
	}
	require.NoError(t, s.table.BatchPut(bg, legacy))
	require.NoError(t, s.table.Put(bg, totalItem{Key: totalKey(acct), Total: 80}, nil))

	t.Run("until reindexed, a search reads the contacts and answers right", func(t *testing.T) {
		found, err := s.Search(bg, Search{AccountID: acct, Query: "bea lee3", Limit: 100})
		require.NoError(t, err)
		var want int
		for i := range 80 {
			if i%3 == 1 && i%9 == 3 {
				want++
			}
		}
		assert.Equal(t, want, found.Total)
		assert.Len(t, found.Entries, want)
	})

	t.Run("reindex while contacts are written leaves every index item right", func(t *testing.T) {
		var wg sync.WaitGroup
		var rep ReindexReport
		wg.Go(func() {
			var err error
			rep, err = s.Reindex(bg, acct, false)
			assert.NoError(t, err)
		})
		for i := range 20 {
			c := person(fmt.Sprintf("c%04d", i*4), "Dee", fmt.Sprintf("Moss%d", i))
			n := person(fmt.Sprintf("n%04d", i), "Eve", "New")
			p.add(c, n)
			wg.Go(func() {
				assert.NoError(t, s.Put(bg, c, int64(1000+i*4)))
				assert.NoError(t, s.Put(bg, n, int64(5000+i)))
			})
		}
		wg.Wait()
		assert.Equal(t, 80, rep.Indexed+rep.Overtaken, "each old contact indexed by reindex or by its writer")
		rep, err := s.Reindex(bg, acct, false)
		require.NoError(t, err)
		assert.Zero(t, rep.Overtaken)
		assert.True(t, rep.Ready)
		checkIndex(t, s, p)
		stored, err := storage.Get[legacyContact](bg, s.table, contactKey(acct, "c0001"))
		require.NoError(t, err)
		assert.Empty(t, stored.Search, "the former search attribute is gone")
	})

	t.Run("reindex again changes nothing", func(t *testing.T) {
		rep, err := s.Reindex(bg, acct, false)
		require.NoError(t, err)
		assert.Zero(t, rep.Indexed)
		assert.Zero(t, rep.Changed)
		assert.Equal(t, 100, rep.Contacts)
	})

	t.Run("reindex repairs a wrong counter and deletes one no contact has", func(t *testing.T) {
		require.NoError(t, s.table.Put(bg, counterItem{Key: counterKey(acct, "ann"), Count: 999}, nil))
		require.NoError(t, s.table.Put(bg, counterItem{Key: counterKey(acct, "zzz"), Count: 3}, nil))
		p["zzz"] = true
		rep, err := s.Reindex(bg, acct, false)
		require.NoError(t, err)
		assert.Equal(t, 2, rep.Changed)
		checkIndex(t, s, p)
	})

	t.Run("reindex with rewrite writes every contact's items again", func(t *testing.T) {
		require.NoError(t, s.table.Delete(bg, indexItemKey(acct, "ann", OrderKey(1003, "c0003")), nil))
		rep, err := s.Reindex(bg, acct, true)
		require.NoError(t, err)
		assert.Equal(t, 100, rep.Indexed)
		checkIndex(t, s, p)
	})
}

func TestAWriterOvertakenPutsBackTheItemsItOverwroteAndDeletesItsOwn(t *testing.T) {
	s := newStore(t)
	winner := person("c0001", "Ann", "Lee")
	require.NoError(t, s.Put(bg, winner, 1000))
	stored, err := storage.Get[contactItem](bg, s.table, contactKey(acct, "c0001"))
	require.NoError(t, err)

	// A writer that read the contact before the winner committed put its
	// items after the winner's: under "ann" (which the winner has too) and
	// under "zed" (which it alone has).
	loser := person("c0001", "Ann", "Zed")
	lost := newContactItem(loser, 1000, termsOf(loser))
	lost.Rev = stored.Rev
	require.NoError(t, s.table.BatchWrite(bg, indexItems(lost, termsOf(loser), "loser"), nil))

	require.NoError(t, s.undoOvertaken(bg, lost, "loser"))
	p := probe{}
	p.add(winner, loser)
	checkIndex(t, s, p)
}

func TestAContactWriteCostsABoundedNumberOfCalls(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	s := NewContacts(counted)
	ann := person("c0001", "Ann", "Lee")
	k := len(termsOf(ann).indexKeys())
	require.Greater(t, k, 25, "the contact's items take two batches")

	require.NoError(t, s.Put(bg, ann, 1000))
	assert.Equal(t, map[string]int{
		"GetItem":        1,
		"BatchWriteItem": 2,     // its k items, 25 a batch
		"PutItem":        1,     // the contact item
		"UpdateItem":     k + 1, // a counter per key, and the total
	}, calls.Take(), "a new contact with %d keys", k)

	renamed := person("c0001", "Ann", "Park")
	gained := len(without(termsOf(renamed).indexKeys(), termsOf(ann).indexKeys()))
	lost := len(without(termsOf(ann).indexKeys(), termsOf(renamed).indexKeys()))
	require.NoError(t, s.Put(bg, renamed, 1000))
	assert.Equal(t, map[string]int{
		"GetItem":        1,
		"BatchWriteItem": 2,
		"PutItem":        1,
		"UpdateItem":     gained + lost + 1, // the counters changed, then the contact item's record of what it left
		"DeleteItem":     lost,              // the items of the keys lost, each on condition
	}, calls.Take(), "a renamed contact gaining %d keys and losing %d", gained, lost)
}
