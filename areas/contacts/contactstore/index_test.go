package contactstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/storage"
)

const acct = "acctIndex"

var bg = context.Background()

// testNow is the time of the tests' writes (their events' time).
var testNow = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func person(id, first, last string) Contact {
	return Contact{ID: id, LocationID: acct, FirstName: first, LastName: last, ContactName: first + " " + last,
		Email: strings.ToLower(first) + "@example.com", Phone: "+1 555 010 " + id[len(id)-4:], DateAdded: "2025-01-01T00:00:00Z"}
}

// manyKeys is a contact with twelve long name words: some 170 keys, so
// that a new one, or a rename to another seed, takes several transactions.
func manyKeys(id, seed string) Contact {
	var words []string
	for i := range maxNameWords {
		words = append(words, fmt.Sprintf("%c%s%011d", 'a'+i, seed, i))
	}
	return Contact{ID: id, LocationID: acct, FirstName: strings.Join(words, " "), Email: seed + "@example.com",
		Phone: "+1 555 010 " + id[len(id)-4:], DateAdded: "2025-01-01T00:00:00Z"}
}

// probe collects every key any version of a test's contacts had, to look
// for left-over items under keys no contact has any more.
type probe map[string]bool

func (p probe) add(cs ...Contact) {
	for _, c := range cs {
		for _, k := range keysOf(Record{Contact: c}) {
			p[k] = true
		}
	}
}

// itemsUnder reads the index items under key k, by order key.
func itemsUnder(t *testing.T, s *Contacts, k string) map[string]Contact {
	t.Helper()
	items, err := storage.QueryPartition[indexItem](bg, s.table, indexPK(acct, k), "")
	require.NoError(t, err)
	out := map[string]Contact{}
	for _, it := range items {
		out[it.SK] = it.Contact
	}
	return out
}

// counter reads a counter (0 when it has none).
func counter(t *testing.T, s *Contacts, key storage.Key) int {
	t.Helper()
	c, err := storage.Get[counterItem](bg, s.table, key)
	require.NoError(t, err)
	if c == nil {
		return 0
	}
	return c.Count
}

// checkCounters asserts what holds at every instant: under every key the
// counter is the number of items, and no contact has two items.
func checkCounters(t *testing.T, s *Contacts, p probe) {
	t.Helper()
	for k := range p {
		items := itemsUnder(t, s, k)
		assert.Equal(t, len(items), counter(t, s, counterKey(acct, k)), "the counter of %q", k)
		ids := map[string]bool{}
		for _, c := range items {
			assert.False(t, ids[c.ID], "contact %s has one item under %q", c.ID, k)
			ids[c.ID] = true
		}
	}
}

// checkIndex asserts that the index is exactly what the stored contacts
// give: under every key, the items of the contacts having it, at their
// place, carrying their content, and nothing else; a counter equal to
// their number; every contact item counted, with nothing under way; and
// the account's counter equal to the number of contacts.
func checkIndex(t *testing.T, s *Contacts, p probe) {
	t.Helper()
	want := map[string]map[string]Contact{}
	contacts := 0
	require.NoError(t, s.eachStored(bg, acct, func(items []contactItem) error {
		for _, it := range items {
			contacts++
			assert.Equal(t, indexRecord{Version: indexVersion}, it.indexRecord, "contact %s is indexed, with nothing under way", it.ID)
			assert.False(t, it.hasFirstIndex(), "contact %s names no item of the first index", it.ID)
			for _, k := range keysOf(it.Record) {
				if want[k] == nil {
					want[k] = map[string]Contact{}
				}
				want[k][it.GSI1SK] = it.Contact
				p[k] = true
			}
		}
		return nil
	}))
	for k := range p {
		got := itemsUnder(t, s, k)
		if len(want[k])+len(got) > 0 {
			assert.Equal(t, want[k], got, "the items under %q", k)
		}
		assert.Equal(t, len(want[k]), counter(t, s, counterKey(acct, k)), "the counter of %q", k)
	}
	assert.Equal(t, contacts, counter(t, s, accountCounterKey(acct)), "the account's counter")
}

func newStore(t *testing.T) *Contacts {
	t.Helper()
	return NewContacts(testenv.NewTable(t))
}

func TestChangesTakeAContactsIndexFromWhatItHasToWhatItShouldHave(t *testing.T) {
	at := func(orderKey string, keys ...string) indexed {
		ix := indexed{counted: true, items: map[ref]bool{}}
		for _, k := range keys {
			ix.items[ref{key: k, orderKey: orderKey}] = true
		}
		return ix
	}
	cases := []struct {
		name       string
		have, want indexed
		at         string
		refresh    bool
		changes    []keyChange
	}{
		{"a new contact gets an item and a count under each key", indexed{}, at("o1", "a", "an"), "o1", true,
			[]keyChange{{key: "a", put: true, delta: 1}, {key: "an", put: true, delta: 1}}},
		{"a renamed contact loses the keys it drops, gains the new ones and refreshes those it keeps", at("o1", "a", "an"), at("o1", "a", "al"), "o1", true,
			[]keyChange{{key: "a", put: true}, {key: "al", put: true, delta: 1}, {key: "an", drop: []string{"o1"}, delta: -1}}},
		{"an unchanged content puts only what is missing", at("o1", "a"), at("o1", "a", "an"), "o1", false,
			[]keyChange{{key: "an", put: true, delta: 1}}},
		{"a contact moved in the list order leaves its old place under the key it moves", at("o1", "a"), at("o2", "a"), "o2", false,
			[]keyChange{{key: "a", drop: []string{"o1"}, put: true}}},
		{"a deleted contact leaves every key", at("o1", "a", "an"), indexed{}, "o1", true,
			[]keyChange{{key: "a", drop: []string{"o1"}, delta: -1}, {key: "an", drop: []string{"o1"}, delta: -1}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.changes, changes(tc.have, tc.want, tc.at, tc.refresh))
		})
	}
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
		n, ready, err := s.Total(bg, acct)
		require.NoError(t, err)
		assert.True(t, ready, "an account whose first contact this version wrote is indexed whole: searches read the index")
		assert.Equal(t, 2, n)
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
	t.Run("a contact whose other fields change is shown changed under every key", func(t *testing.T) {
		tagged := person("c0001", "Zoë", "Lee-Smith")
		tagged.Tags = []string{"vip"}
		require.NoError(t, s.Put(bg, tagged, 1000))
		checkIndex(t, s, p)
	})
	t.Run("a contact moved in the list order is indexed at its new place only", func(t *testing.T) {
		require.NoError(t, s.Put(bg, bob, 3000))
		checkIndex(t, s, p)
	})
	t.Run("a contact with more keys than a transaction holds is indexed under each", func(t *testing.T) {
		big, renamed := manyKeys("c0003", "x"), manyKeys("c0003", "y")
		p.add(big, renamed)
		require.Greater(t, 2*len(termsOf(big).indexKeys()), storage.MaxTxItems)
		require.NoError(t, s.Put(bg, big, 4000))
		checkIndex(t, s, p)
		require.NoError(t, s.Put(bg, renamed, 5000))
		checkIndex(t, s, p)
		deleted, err := s.Delete(bg, acct, "c0003", testNow)
		require.NoError(t, err)
		assert.True(t, deleted)
		checkIndex(t, s, p)
	})
	t.Run("a deleted contact leaves the index, the counters and its tasks", func(t *testing.T) {
		require.NoError(t, s.table.Put(bg, taskItem{Key: taskKey(acct, "c0002", "T1"), Task: Task{ID: "T1", ContactID: "c0002", Title: "Call"}}, nil))
		deleted, err := s.Delete(bg, acct, "c0002", testNow)
		require.NoError(t, err)
		assert.True(t, deleted)
		checkIndex(t, s, p)
		task, err := s.GetTask(bg, acct, "c0002", "T1")
		require.NoError(t, err)
		assert.Nil(t, task)
		deleted, err = s.Delete(bg, acct, "c0002", testNow)
		require.NoError(t, err)
		assert.False(t, deleted, "a second delete finds nothing")
	})
}

// stopping lets a number of transactions through, then fails the rest, as
// a writer that stops (a Lambda that times out) would.
type stopping struct {
	storage.API
	left atomic.Int32
}

var errStopped = errors.New("the writer stopped")

func (s *stopping) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	if s.left.Add(-1) < 0 {
		return nil, errStopped
	}
	return s.API.TransactWriteItems(ctx, in, opts...)
}

func TestAWriteStoppedBetweenItsTransactionsIsFinishedByTheNextWrite(t *testing.T) {
	table := testenv.NewTable(t)
	s := NewContacts(table)
	client := &stopping{API: table.DB}
	stops := NewContacts(&storage.Table{DB: client, Name: table.Name})
	x, y, z := manyKeys("c0001", "x"), manyKeys("c0001", "y"), manyKeys("c0001", "z")
	p := probe{}
	p.add(x, y, z)
	stopAfter := func(n int32) { client.left.Store(n) }

	for _, tc := range []struct {
		name   string
		stop   func() error
		finish func() error
	}{
		{"a new contact, finished by the same write repeated",
			func() error { return stops.Put(bg, x, 1000) }, func() error { return s.Put(bg, x, 1000) }},
		{"a rename, finished by another rename",
			func() error { return stops.Put(bg, y, 2000) }, func() error { return s.Put(bg, z, 3000) }},
		{"a rename, finished by reindex",
			func() error { return stops.Put(bg, x, 1000) }, func() error { _, err := s.Reindex(bg, acct, false); return err }},
		{"a delete, finished by the same delete repeated",
			func() error { _, err := stops.Delete(bg, acct, "c0001", testNow); return err }, func() error { _, err := s.Delete(bg, acct, "c0001", testNow); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stopAfter(1)
			require.ErrorIs(t, tc.stop(), errStopped)
			stored, err := storage.Get[contactItem](bg, table, contactKey(acct, "c0001"))
			require.NoError(t, err)
			require.NotNil(t, stored)
			assert.True(t, stored.Partial, "the contact item records the items it has")
			checkCounters(t, s, p)
			require.NoError(t, tc.finish())
			checkIndex(t, s, p)
		})
	}
}

func TestConcurrentWritersOfOneContactLeaveTheIndexOfTheLastCommitted(t *testing.T) {
	for _, tc := range []struct {
		name     string
		versions func() []Contact
	}{
		{"contacts written in one transaction each", func() []Contact {
			var vs []Contact
			for _, n := range []string{"Ann Lee", "Bea Park", "Cy Lee", "Dee Moss", "Eve Park", "Flo Lee"} {
				first, last, _ := strings.Cut(n, " ")
				vs = append(vs, person("c0001", first, last))
			}
			return vs
		}},
		{"contacts written in several transactions each", func() []Contact {
			var vs []Contact
			for _, seed := range []string{"p", "q", "r", "s"} {
				vs = append(vs, manyKeys("c0001", seed))
			}
			return vs
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			p := probe{}
			versions := tc.versions()
			p.add(versions...)
			require.NoError(t, s.Put(bg, person("c0002", "Ann", "Moss"), 500))
			for round := range 3 {
				var wg sync.WaitGroup
				for i, v := range versions {
					wg.Go(func() {
						err := s.Put(bg, v, int64(1000+i%2)) // some move in the list order
						if err != nil {
							assert.ErrorIs(t, err, errOvertaken, "round %d", round)
						}
					})
				}
				wg.Wait()
				checkIndex(t, s, p)
			}
		})
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
	n, ready, err := s.Total(bg, acct)
	require.NoError(t, err)
	assert.True(t, ready)
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

// firstIndexContact is a contact item as the first version of the index
// wrote it, and its items and counters.
func firstIndexContact(c Contact, addedMs int64) []any {
	it := legacyContact{Key: contactKey(acct, c.ID), GSI1PK: listPK(acct), GSI1SK: OrderKey(addedMs, c.ID), Contact: c}
	keys := termsOf(c).indexKeys()
	out := []any{struct {
		legacyContact
		Rev     int      `dynamodbav:"rev"`
		Version int      `dynamodbav:"ixv"`
		Keys    []string `dynamodbav:"ixKeys"`
		Stale   []string `dynamodbav:"ixStale"`
	}{it, 3, 1, keys, []string{"0000000000001#" + c.ID + "|zz"}}}
	for _, k := range keys {
		out = append(out, storage.Key{PK: "CSEARCH#" + acct + "#" + k, SK: it.GSI1SK})
	}
	return append(out, storage.Key{PK: "CSEARCH#" + acct + "#zz", SK: "0000000000001#" + c.ID})
}

func TestReindexBuildsTheIndexOfExistingContactsWhileTheyAreWritten(t *testing.T) {
	s := newStore(t)
	p := probe{}
	var old []any
	for i := range 80 {
		c := person(fmt.Sprintf("c%04d", i), []string{"Ann", "Bea", "Cy"}[i%3], fmt.Sprintf("Lee%d", i%9))
		p.add(c)
		if i%2 == 0 {
			old = append(old, legacyContact{Key: contactKey(acct, c.ID), GSI1PK: listPK(acct), GSI1SK: OrderKey(int64(1000+i), c.ID), Search: "ann lee", Contact: c})
		} else {
			old = append(old, firstIndexContact(c, int64(1000+i))...)
		}
	}
	firstCounter := storage.Key{PK: "CSEARCHN#" + acct + "#03", SK: "ann"}
	firstTotal := storage.Key{PK: storage.AccountPK(acct), SK: "CONTACTS_TOTAL"}
	old = append(old, firstCounter, firstTotal)
	require.NoError(t, s.table.BatchPut(bg, old))

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
		// A contact its writer indexed before reindex read it is neither.
		assert.LessOrEqual(t, rep.Indexed+rep.Overtaken, 80, "each old contact indexed at most once, by reindex or by its writer")
		assert.GreaterOrEqual(t, rep.Indexed+rep.Overtaken, 60, "those no writer wrote, by reindex")
		rep, err := s.Reindex(bg, acct, false)
		require.NoError(t, err)
		assert.Equal(t, ReindexReport{Contacts: 100, Ready: true}, rep, "nothing left to index")
		checkIndex(t, s, p)
		stored, err := storage.Get[legacyContact](bg, s.table, contactKey(acct, "c0002"))
		require.NoError(t, err)
		assert.Empty(t, stored.Search, "the former search attribute is gone")
		for _, it := range old {
			if k, ok := it.(storage.Key); ok {
				gone, err := storage.Get[storage.Key](bg, s.table, k)
				require.NoError(t, err)
				assert.Nil(t, gone, "the first index's %s is gone", k)
			}
		}
		n, ready, err := s.Total(bg, acct)
		require.NoError(t, err)
		assert.True(t, ready)
		assert.Equal(t, 100, n)
	})

	t.Run("reindex with rewrite puts back an item lost", func(t *testing.T) {
		require.NoError(t, s.table.Delete(bg, indexItemKey(acct, "ann", OrderKey(1003, "c0003")), nil))
		rep, err := s.Reindex(bg, acct, true)
		require.NoError(t, err)
		assert.Equal(t, 100, rep.Indexed)
		checkIndex(t, s, p)
	})
}

func TestAContactWriteCostsOneReadAndOneTransaction(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	s := NewContacts(counted)
	ann := person("c0001", "Ann", "Lee")
	k := len(keysOf(Record{Contact: ann}))
	require.Less(t, 2*k+4, storage.MaxTxItems, "the contact's writes fit one transaction")

	require.NoError(t, s.Put(bg, ann, 1000))
	assert.Equal(t, map[string]int{"BatchGetItem": 1, "Query": 1, "TransactWriteItems": 1}, calls.Take(),
		"the account's first contact, with %d keys (the Query finds the account has no contact: it is indexed whole)", k)

	require.NoError(t, s.Put(bg, person("c0004", "Bea", "Lee"), 1000))
	assert.Equal(t, map[string]int{"BatchGetItem": 1, "TransactWriteItems": 1}, calls.Take(), "a new contact in an account indexed whole")

	require.NoError(t, s.Put(bg, person("c0001", "Ann", "Park"), 1000))
	assert.Equal(t, map[string]int{"BatchGetItem": 1, "TransactWriteItems": 1}, calls.Take(), "a renamed contact")

	require.NoError(t, s.Put(bg, person("c0001", "Ann", "Park"), 1000))
	assert.Equal(t, map[string]int{"BatchGetItem": 1}, calls.Take(), "a contact written again unchanged")

	big := manyKeys("c0002", "x")
	k = len(keysOf(Record{Contact: big}))
	perTx := (storage.MaxTxItems - 1 - 2) / 2 // keys: an item and a counter each, beside the contact item, its two claims (and the account's counter)
	require.NoError(t, s.Put(bg, big, 2000))
	assert.Equal(t, map[string]int{"BatchGetItem": 1, "TransactWriteItems": (k + perTx - 1) / perTx}, calls.Take(), "a new contact with %d keys", k)
}

// prevVersionContact is a contact as version 2 of the index wrote it: the
// contact item (counted under version 2, or half-written: partial, its
// items named), its index items under CSEARCH2# and its counters.
func prevVersionContact(c Contact, addedMs int64, partial bool) (items []any, old []storage.Key) {
	it := newContactItem(Record{Contact: c}, addedMs)
	it.Rev = 2
	it.indexRecord = indexRecord{Version: prevIndexVersion}
	keys := termsOf(c).indexKeys()
	if partial {
		it.indexRecord = indexRecord{Version: prevIndexVersion, Partial: true}
		for _, k := range keys[:len(keys)/2] {
			it.Items = append(it.Items, ref{key: k, orderKey: it.GSI1SK}.String())
		}
		keys = keys[:len(keys)/2]
	}
	items = append(items, it)
	for _, k := range keys {
		old = append(old, prevIndexItemKey(acct, k, it.GSI1SK))
		items = append(items, struct {
			storage.Key
			Contact
		}{prevIndexItemKey(acct, k, it.GSI1SK), c})
	}
	return items, old
}

func TestContactsOfTheVersionBeforeAreIndexedAgainAndTheirOldItemsGo(t *testing.T) {
	s := newStore(t)
	p := probe{}
	var items []any
	var oldItems []storage.Key
	for i := range 12 {
		c := person(fmt.Sprintf("c%04d", i), []string{"Ann", "Bea"}[i%2], fmt.Sprintf("Lee%d", i))
		c.Tags = []string{"vip"}
		p.add(c)
		its, old := prevVersionContact(c, int64(1000+i), i%3 == 0)
		items, oldItems = append(items, its...), append(oldItems, old...)
	}
	prevCounter := storage.Key{PK: fmt.Sprintf("CSEARCHN%d#%s#03", prevIndexVersion, acct), SK: "ann"}
	prevTotal := storage.Key{PK: fmt.Sprintf("CSEARCHN%d#%s", prevIndexVersion, acct), SK: "CONTACTS"}
	items = append(items, struct {
		storage.Key
		N int `dynamodbav:"n"`
	}{prevCounter, 6}, struct {
		storage.Key
		N     int  `dynamodbav:"n"`
		Ready bool `dynamodbav:"ready"`
	}{prevTotal, 12, true})
	require.NoError(t, s.table.BatchPut(bg, items))

	t.Run("until reindexed, the account is not ready under this version and searches read its contacts", func(t *testing.T) {
		_, ready, err := s.Total(bg, acct)
		require.NoError(t, err)
		assert.False(t, ready)
		found, err := s.Search(bg, Search{AccountID: acct, Query: "ann", Limit: 100})
		require.NoError(t, err)
		assert.Equal(t, 6, found.Total)
	})
	t.Run("a write of one deletes its previous items", func(t *testing.T) {
		c := person("c0001", "Bea", "Lee1")
		c.Tags = []string{"vip"}
		require.NoError(t, s.Put(bg, c, 1001))
		gone, err := storage.Get[storage.Key](bg, s.table, prevIndexItemKey(acct, "bea", OrderKey(1001, "c0001")))
		require.NoError(t, err)
		assert.Nil(t, gone)
	})
	t.Run("reindex indexes every contact, with its claims, and drops the previous version's items and counters", func(t *testing.T) {
		rep, err := s.Reindex(bg, acct, false)
		require.NoError(t, err)
		assert.True(t, rep.Ready)
		assert.Equal(t, 12, rep.Contacts)
		checkIndex(t, s, p)
		for _, k := range append(oldItems, prevCounter, prevTotal) {
			left, err := storage.Get[storage.Key](bg, s.table, k)
			require.NoError(t, err)
			assert.Nil(t, left, "%s is gone", k)
		}
		rec, err := s.FindDuplicate(bg, acct, "ANN@example.com", "")
		require.NoError(t, err)
		require.NotNil(t, rec, "the e-mail's claim was made")
		n, ready, err := s.Total(bg, acct)
		require.NoError(t, err)
		assert.True(t, ready)
		assert.Equal(t, 12, n)
		found, err := s.SearchAdvanced(bg, AdvancedSearch{AccountID: acct, Limit: 100,
			Conditions: []Condition{{Field: searchFields["tags"], Operator: OpEq, Text: "vip"}}})
		require.NoError(t, err)
		assert.Equal(t, 12, found.Total, "found by their tag through the index")
	})
}
