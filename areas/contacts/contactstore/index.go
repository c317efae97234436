package contactstore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/storage"
)

// The search index (docs/search.md) lives in the table beside the contacts.
// For every key of a contact (terms.go: the prefixes of its words, the
// endings of its phone digits) an index item sits in the key's own
// partition, sorted by the contact's list-order key, so one Query of a
// partition returns the contacts matching a query word in list order and
// continues from the list's cursor. Each item carries the contact's terms,
// so other query words are checked without reading the contact. A counter
// per key holds the number of items under it, so a search's total is one
// read however many contacts match.
//
// Without transactions, a write of a contact puts its index items (in
// batches), then the contact item, on condition that it is still at the
// revision the write read; then it adjusts the counters of the keys gained
// and lost, then deletes the items of lost keys. The contact item records
// its keys and the items left to delete (contactIndex), so a write stopped
// halfway and repeated, or Reindex, finishes the work, and no index item is
// ever left that no contact item names. A counter changes only after the
// contact item that decides it, so a repeated write never counts twice; a
// write stopped between the two leaves those counters one off until
// Reindex recounts them.
//
// Two writes of one contact at once: one commits, the other reads again
// and repeats (Put, up to putAttempts). Items carry the revision and the
// write attempt (rev, wid) that wrote them, so the loser deletes only its
// own items and restores the winner's it may have overwritten, and an item
// left to delete is deleted only if no later write has put it again.

// indexVersion is the format of the index (terms.go's rules and the keys
// below). Contacts indexed under another version, and accounts counted
// under another, are indexed again by Reindex; until then an account's
// searches read its contacts.
const indexVersion = 1

func indexPK(accountID, key string) string { return "CSEARCH#" + accountID + "#" + key }

func indexItemKey(accountID, key, orderKey string) storage.Key {
	return storage.Key{PK: indexPK(accountID, key), SK: orderKey}
}

// counterShards spreads an account's counters over partitions (writes of
// many contacts at once do not all land on one partition key) that a
// recount can still list.
const counterShards = 16

func counterPK(accountID string, shard uint32) string {
	return fmt.Sprintf("CSEARCHN#%s#%02d", accountID, shard)
}

func counterKey(accountID, key string) storage.Key {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return storage.Key{PK: counterPK(accountID, h.Sum32()%counterShards), SK: key}
}

// indexItem is one contact under one key.
type indexItem struct {
	storage.Key
	searchTerms
	// Rev is the contact revision the item was written for, and Wid the
	// write attempt (empty for bulk loads).
	Rev int    `dynamodbav:"rev,omitempty"`
	Wid string `dynamodbav:"wid,omitempty"`
}

// counterItem is the number of index items under a key.
type counterItem struct {
	storage.Key
	Count int `dynamodbav:"n"`
}

// indexItems are the index items of a contact item, written by attempt wid.
func indexItems(it contactItem, terms searchTerms, wid string) []any {
	items := make([]any, len(it.Keys))
	for i, k := range it.Keys {
		items[i] = indexItem{Key: indexItemKey(it.LocationID, k, it.GSI1SK), searchTerms: terms, Rev: it.Rev, Wid: wid}
	}
	return items
}

// newWriteID names one write attempt.
func newWriteID() string { return ids.Hex24()[:8] }

// indexItemKeys are the keys of the index items under keys at orderKey.
func indexItemKeys(accountID string, keys []string, orderKey string) []storage.Key {
	out := make([]storage.Key, len(keys))
	for i, k := range keys {
		out[i] = indexItemKey(accountID, k, orderKey)
	}
	return out
}

// staleRef names an index item on a contact item: its order key and key
// ("|" is in no order key).
func staleRef(orderKey, key string) string { return orderKey + "|" + key }

func staleRefKeys(accountID string, refs []string) []storage.Key {
	out := make([]storage.Key, len(refs))
	for i, r := range refs {
		orderKey, key, _ := strings.Cut(r, "|")
		out[i] = indexItemKey(accountID, key, orderKey)
	}
	return out
}

// without returns the elements of a not in b.
func without(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// leftBehind names the index items old has that next does not: those of
// the keys it drops (all of them when its order key changes), and those an
// earlier write left behind.
func leftBehind(old, next contactItem) []string {
	var live []string
	for _, k := range next.Keys {
		live = append(live, staleRef(next.GSI1SK, k))
	}
	refs := slices.Clone(old.Stale)
	for _, k := range old.Keys {
		refs = append(refs, staleRef(old.GSI1SK, k))
	}
	slices.Sort(refs)
	return without(slices.Compact(refs), live)
}

// putAttempts bounds the attempts of a write of one contact that other
// writers of the same contact keep overtaking.
const putAttempts = 4

// errOvertaken says another write of the contact came first.
var errOvertaken = errors.New("the contact was written by another writer meanwhile")

// Put stores a contact and keeps its search index: the index items of its
// keys, the counters of the keys it gains or loses, and the account's total
// when the contact is new. It costs one read, ceil(k/25) BatchWriteItem
// calls for the contact's k keys (k <= maxIndexKeys; 30 to 50 for a contact
// with a name, an e-mail and a phone), one PutItem, one UpdateItem per key
// gained or lost (16 at a time), and when keys are lost one DeleteItem per
// lost key (16 at a time) and one UpdateItem.
func (s *Contacts) Put(ctx context.Context, c Contact, addedMs int64) error {
	for attempt := 1; ; attempt++ {
		err := s.put(ctx, c, addedMs)
		if !errors.Is(err, errOvertaken) || attempt == putAttempts {
			return err
		}
	}
}

func (s *Contacts) put(ctx context.Context, c Contact, addedMs int64) error {
	old, err := storage.Get[contactItem](ctx, s.table, contactKey(c.LocationID, c.ID))
	if err != nil {
		return err
	}
	terms := termsOf(c)
	next := newContactItem(c, addedMs, terms)
	next.Rev = 1
	var had []string
	cond := storage.ItemAbsent()
	if old != nil {
		next.Rev = old.Rev + 1
		cond = revisionIs(old.Rev)
		if old.Version == indexVersion {
			had = old.Keys
		}
		next.Stale = leftBehind(*old, next)
	}
	// The new items first: until the contact item names them, a search may
	// find the contact by a word it is about to have; the page checks every
	// contact it shows against the query (search.go).
	wid := newWriteID()
	if err := s.table.BatchWrite(ctx, indexItems(next, terms, wid), nil); err != nil {
		return err
	}
	if err := s.table.Put(ctx, next, cond); err != nil {
		if storage.IsConditionFailed(err) {
			return errors.Join(errOvertaken, s.undoOvertaken(ctx, next, wid))
		}
		return err
	}
	if err := s.addToCounters(ctx, c.LocationID, without(next.Keys, had), 1); err != nil {
		return err
	}
	if err := s.addToCounters(ctx, c.LocationID, without(had, next.Keys), -1); err != nil {
		return err
	}
	if old == nil {
		if err := s.addToTotal(ctx, c.LocationID, 1); err != nil {
			return err
		}
	}
	return s.deleteLeftBehind(ctx, next)
}

// revisionIs is the condition "the contact item is still at revision rev"
// (items written before revisions have none: revision 0).
func revisionIs(rev int) *expression.ConditionBuilder {
	c := expression.Name("rev").Equal(expression.Value(rev))
	if rev == 0 {
		c = expression.AttributeExists(expression.Name(storage.AttrPK)).And(c.Or(expression.AttributeNotExists(expression.Name("rev"))))
	}
	return &c
}

// notNewerThan is the condition "no write later than revision rev put the
// index item".
func notNewerThan(rev int) *expression.ConditionBuilder {
	c := expression.AttributeNotExists(expression.Name(storage.AttrPK)).Or(expression.Name("rev").LessThanEqual(expression.Value(rev)))
	return &c
}

// deleteLeftBehind deletes the index items the write of next left behind,
// each unless a later write put it again, then clears the contact item's
// record of them.
func (s *Contacts) deleteLeftBehind(ctx context.Context, next contactItem) error {
	if len(next.Stale) == 0 {
		return nil
	}
	keys := staleRefKeys(next.LocationID, next.Stale)
	err := inParallel(len(keys), counterWriters, func(i int) error {
		err := s.table.Delete(ctx, keys[i], notNewerThan(next.Rev))
		if storage.IsConditionFailed(err) {
			return nil // a later write of the contact has it again
		}
		return err
	})
	if err != nil {
		return err
	}
	err = s.table.Update(ctx, next.Key, expression.Remove(expression.Name("ixStale")), revisionIs(next.Rev))
	if storage.IsConditionFailed(err) {
		return nil // written again since: that write deletes what is left
	}
	return err
}

// undoOvertaken takes back the index items attempt wid wrote for lost
// before another write of the contact committed first: it deletes those it
// still owns that the contact item does not name, and puts back the
// current contact's items it may have overwritten (unless a still later
// write put them).
func (s *Contacts) undoOvertaken(ctx context.Context, lost contactItem, wid string) error {
	cur, err := storage.Get[contactItem](ctx, s.table, lost.Key)
	if err != nil {
		return err
	}
	var named []string
	var curTerms searchTerms
	if cur != nil && cur.GSI1SK == lost.GSI1SK && cur.Version == indexVersion {
		named, curTerms = cur.Keys, termsOf(cur.Contact)
	}
	ownedByWid := expression.Name("wid").Equal(expression.Value(wid))
	err = inParallel(len(lost.Keys), counterWriters, func(i int) error {
		key := indexItemKey(lost.LocationID, lost.Keys[i], lost.GSI1SK)
		var err error
		if slices.Contains(named, lost.Keys[i]) {
			err = s.table.Put(ctx, indexItem{Key: key, searchTerms: curTerms, Rev: cur.Rev}, notNewerThan(cur.Rev))
		} else {
			err = s.table.Delete(ctx, key, &ownedByWid)
		}
		if storage.IsConditionFailed(err) {
			return nil
		}
		return err
	})
	return err
}

// counterWriters bounds the single-item writes one operation sends at a
// time.
const counterWriters = 16

// addToCounters adds delta to the counter of each key, several at a time.
func (s *Contacts) addToCounters(ctx context.Context, accountID string, keys []string, delta int) error {
	return inParallel(len(keys), counterWriters, func(i int) error {
		return s.table.Update(ctx, counterKey(accountID, keys[i]), expression.Add(expression.Name("n"), expression.Value(delta)), nil)
	})
}

// inParallel calls fn(0..n-1), at most width at a time, and returns the
// first error.
func inParallel(n, width int, fn func(i int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for w := 0; w < min(width, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	return first
}

// Delete deletes the account's contact, its tasks and its index items, and
// takes it out of the counters and the total. It reports false when there
// is no such contact.
func (s *Contacts) Delete(ctx context.Context, accountID, id string) (bool, error) {
	for attempt := 1; ; attempt++ {
		deleted, err := s.delete(ctx, accountID, id)
		if !errors.Is(err, errOvertaken) || attempt == putAttempts {
			return deleted, err
		}
	}
}

func (s *Contacts) delete(ctx context.Context, accountID, id string) (bool, error) {
	old, err := storage.Get[contactItem](ctx, s.table, contactKey(accountID, id))
	if err != nil || old == nil {
		return false, err
	}
	tasks, err := storage.QueryPartition[taskItem](ctx, s.table, storage.AccountPK(accountID), "TASK#"+id+"#")
	if err != nil {
		return false, err
	}
	// Items first: the contact item names them until it goes. A write of
	// the contact meanwhile fails the condition below, and the delete reads
	// again.
	gone := append(indexItemKeys(accountID, old.Keys, old.GSI1SK), staleRefKeys(accountID, old.Stale)...)
	for _, t := range tasks {
		gone = append(gone, t.Key)
	}
	if err := s.table.BatchWrite(ctx, nil, gone); err != nil {
		return false, err
	}
	if err := s.table.Delete(ctx, old.Key, revisionIs(old.Rev)); err != nil {
		if storage.IsConditionFailed(err) {
			return false, errOvertaken
		}
		return false, err
	}
	if old.Version == indexVersion {
		if err := s.addToCounters(ctx, accountID, old.Keys, -1); err != nil {
			return true, err
		}
	}
	return true, s.addToTotal(ctx, accountID, -1)
}

// Reindex builds the account's search index from its contacts and recounts
// its counters, on a table the API may be serving. Contacts already
// indexed with this version are skipped unless rewrite is set, so running
// it again (after an interruption, or to repair) costs one read of the
// contacts and does what is left. Each contact is written as Put writes
// it: its items, then its contact item on condition that the contact was
// not written meanwhile (a concurrent write indexes the contact itself),
// then the deletion of what it no longer has. The recount that follows
// writes each counter on condition that no write changed it meanwhile.
func (s *Contacts) Reindex(ctx context.Context, accountID string, rewrite bool) (ReindexReport, error) {
	var rep ReindexReport
	err := s.eachStored(ctx, accountID, func(items []contactItem) error {
		return s.reindexPage(ctx, items, rewrite, &rep)
	})
	if err != nil {
		return rep, err
	}
	rep.RecountReport, err = s.recount(ctx, accountID, true)
	return rep, err
}

// reindexPage indexes the contacts of one page that need it.
func (s *Contacts) reindexPage(ctx context.Context, items []contactItem, rewrite bool, rep *ReindexReport) error {
	var todo []contactItem
	var puts []any
	wid := newWriteID()
	for _, old := range items {
		if !rewrite && old.Version == indexVersion && len(old.Stale) == 0 {
			continue
		}
		terms := termsOf(old.Contact)
		next := old
		next.Rev = old.Rev + 1
		next.contactIndex = contactIndex{Version: indexVersion, Keys: terms.indexKeys()}
		next.Stale = leftBehind(old, next)
		puts = append(puts, indexItems(next, terms, wid)...)
		todo = append(todo, next)
	}
	if err := s.table.BatchWrite(ctx, puts, nil); err != nil {
		return err
	}
	var mu sync.Mutex
	return inParallel(len(todo), counterWriters, func(i int) error {
		next := todo[i]
		err := s.markIndexed(ctx, next)
		if storage.IsConditionFailed(err) {
			mu.Lock()
			rep.Overtaken++
			mu.Unlock()
			return s.undoOvertaken(ctx, next, wid)
		}
		if err != nil {
			return err
		}
		mu.Lock()
		rep.Indexed++
		mu.Unlock()
		return s.deleteLeftBehind(ctx, next)
	})
}

// ReindexReport tells what Reindex did.
type ReindexReport struct {
	// Indexed contacts had their index items written (again); Overtaken
	// ones were written by another writer meanwhile, which indexed them.
	Indexed, Overtaken int
	RecountReport
}

// markIndexed records on the contact item that it is indexed under
// next.Keys, with next.Stale left to delete, if it is still at the
// revision before next.Rev, and drops the attribute the former substring
// search read.
func (s *Contacts) markIndexed(ctx context.Context, next contactItem) error {
	update := expression.Set(expression.Name("ixv"), expression.Value(indexVersion)).
		Set(expression.Name("rev"), expression.Value(next.Rev)).
		Remove(expression.Name("search"))
	for _, attr := range []struct {
		name string
		list []string
	}{{"ixKeys", next.Keys}, {"ixStale", next.Stale}} {
		if len(attr.list) == 0 {
			update = update.Remove(expression.Name(attr.name))
		} else {
			update = update.Set(expression.Name(attr.name), expression.Value(attr.list))
		}
	}
	return s.table.Update(ctx, next.Key, update, revisionIs(next.Rev-1))
}
