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
// Without transactions, a write changes the items, the contact and the
// counters in that order, and the contact item records what is indexed
// (contactIndex): a write interrupted and repeated, or the Reindex command,
// finishes what the first left, and no index item is ever left that no
// contact item names. A counter is changed after the contact item that
// decides it, so a repeated write never counts twice; a write interrupted
// between the two leaves the counters of its changed keys one off until
// Reindex recounts them.

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
}

// counterItem is the number of index items under a key.
type counterItem struct {
	storage.Key
	Count int `dynamodbav:"n"`
}

// indexItems are the index items of a contact item.
func indexItems(it contactItem, terms searchTerms) []any {
	items := make([]any, len(it.Keys))
	for i, k := range it.Keys {
		items[i] = indexItem{Key: indexItemKey(it.LocationID, k, it.GSI1SK), searchTerms: terms}
	}
	return items
}

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

func staleRefKey(accountID, ref string) storage.Key {
	orderKey, key, _ := strings.Cut(ref, "|")
	return indexItemKey(accountID, key, orderKey)
}

func staleRefKeys(accountID string, refs []string) []storage.Key {
	out := make([]storage.Key, len(refs))
	for i, r := range refs {
		out[i] = staleRefKey(accountID, r)
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
// gained or lost (16 at a time), and when keys are lost one BatchWriteItem
// and one UpdateItem more.
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
	if err := s.table.BatchWrite(ctx, indexItems(next, terms), nil); err != nil {
		return err
	}
	if err := s.table.Put(ctx, next, cond); err != nil {
		if storage.IsConditionFailed(err) {
			return errors.Join(errOvertaken, s.discardIndexItems(ctx, next))
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

// deleteLeftBehind deletes the index items a write of next left behind,
// then clears the contact item's record of them.
func (s *Contacts) deleteLeftBehind(ctx context.Context, next contactItem) error {
	if len(next.Stale) == 0 {
		return nil
	}
	if err := s.table.BatchWrite(ctx, nil, staleRefKeys(next.LocationID, next.Stale)); err != nil {
		return err
	}
	err := s.table.Update(ctx, next.Key, expression.Remove(expression.Name("ixStale")), revisionIs(next.Rev))
	if storage.IsConditionFailed(err) {
		return nil // written again since: that write deletes what is left
	}
	return err
}

// discardIndexItems deletes the index items a write of lost wrote before
// another write of the contact overtook it, unless the contact item now
// names them.
func (s *Contacts) discardIndexItems(ctx context.Context, lost contactItem) error {
	cur, err := storage.Get[contactItem](ctx, s.table, lost.Key)
	if err != nil {
		return err
	}
	extra := lost.Keys
	if cur != nil && cur.GSI1SK == lost.GSI1SK {
		extra = without(lost.Keys, cur.Keys)
	}
	return s.table.BatchWrite(ctx, nil, indexItemKeys(lost.LocationID, extra, lost.GSI1SK))
}

// counterWriters bounds the counter updates one write sends at a time.
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
					first = cmp(first, err)
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

// cmp keeps the first error.
func cmp(first, err error) error {
	if first != nil {
		return first
	}
	return err
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
	// Items first: the contact item names them until it goes.
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

// NewContact is a contact to load in bulk, with its tasks.
type NewContact struct {
	Contact Contact
	AddedMs int64
	Tasks   []Task
}

// loadChunk is how many contacts Load reads and writes at a time.
const loadChunk = 500

// Load writes contacts and their tasks in bulk (BatchWriteItem), with their
// index items, replacing stored contacts of the same ids and their index
// items, then recounts each account it wrote to (Recount). It is for
// loading data (the demo dataset, the benchmark's accounts) while nothing
// else writes those contacts; loading the same contacts again leaves the
// same items.
func (s *Contacts) Load(ctx context.Context, contacts []NewContact) error {
	var accounts []string
	for start := 0; start < len(contacts); start += loadChunk {
		chunk := contacts[start:min(start+loadChunk, len(contacts))]
		keys := make([]storage.Key, len(chunk))
		for i, nc := range chunk {
			keys[i] = contactKey(nc.Contact.LocationID, nc.Contact.ID)
		}
		stored, err := storage.BatchGet[contactItem](ctx, s.table, keys)
		if err != nil {
			return err
		}
		old := make(map[storage.Key]contactItem, len(stored))
		for _, it := range stored {
			old[it.Key] = it
		}
		var puts []any
		var gone []storage.Key
		written := map[storage.Key]bool{}
		for i := len(chunk) - 1; i >= 0; i-- { // the last of repeated ids wins
			nc := chunk[i]
			if written[keys[i]] {
				continue
			}
			written[keys[i]] = true
			terms := termsOf(nc.Contact)
			next := newContactItem(nc.Contact, nc.AddedMs, terms)
			if o, ok := old[keys[i]]; ok {
				next.Rev = o.Rev + 1
				gone = append(gone, staleRefKeys(o.LocationID, leftBehind(o, next))...)
			}
			puts = append(puts, next)
			puts = append(puts, indexItems(next, terms)...)
			for _, t := range nc.Tasks {
				t.ContactID = nc.Contact.ID
				puts = append(puts, taskItem{Key: taskKey(nc.Contact.LocationID, nc.Contact.ID, t.ID), Task: t})
			}
			if !slices.Contains(accounts, nc.Contact.LocationID) {
				accounts = append(accounts, nc.Contact.LocationID)
			}
		}
		// Deletes first: until the contact items are replaced they name the
		// items deleted, so loading again after a failure deletes the rest.
		if err := s.table.BatchWrite(ctx, nil, gone); err != nil {
			return err
		}
		if err := s.table.BatchWrite(ctx, puts, nil); err != nil {
			return err
		}
	}
	for _, a := range accounts {
		if _, err := s.recount(ctx, a, false); err != nil {
			return fmt.Errorf("recount %s: %w", a, err)
		}
	}
	return nil
}

// Recount counts the account's contacts and the index items under each
// key, from the contact items, and stores the total and the counters, in
// batches. Loaders call it after writing contacts in bulk; on a table the
// API serves, Reindex recounts with conditional writes instead.
func (s *Contacts) Recount(ctx context.Context, accountID string) error {
	_, err := s.recount(ctx, accountID, false)
	return err
}

// RecountReport tells what a recount found and changed.
type RecountReport struct {
	Contacts int
	// Counters is the number of keys with index items; Changed, the
	// counters written (or deleted) because they differed.
	Counters, Changed int
	// Overtaken counters (and the total) changed while they were counted:
	// they were left as the concurrent write made them.
	Overtaken int
	// Ready reports that every contact is indexed with this version, so
	// searches use the index.
	Ready bool
}

// recount stores the account's total and counters. live writes each
// changed counter on condition that it still holds the value read before
// the contacts were counted, so that a concurrent write's change is never
// overwritten (that counter is reported overtaken instead).
func (s *Contacts) recount(ctx context.Context, accountID string, live bool) (RecountReport, error) {
	var rep RecountReport
	// Read before counting: a change made meanwhile fails the condition.
	kept := map[string]int{}
	for shard := uint32(0); shard < counterShards; shard++ {
		items, err := storage.QueryPartition[counterItem](ctx, s.table, counterPK(accountID, shard), "")
		if err != nil {
			return rep, err
		}
		for _, it := range items {
			kept[it.SK] = it.Count
		}
	}
	oldTotal, err := storage.Get[totalItem](ctx, s.table, totalKey(accountID))
	if err != nil {
		return rep, err
	}
	counts := map[string]int{}
	rep.Ready = true
	err = s.eachContact(ctx, accountID, func(items []contactItem) error {
		for _, it := range items {
			rep.Contacts++
			if it.Version != indexVersion {
				rep.Ready = false
				continue
			}
			for _, k := range it.Keys {
				counts[k]++
			}
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	rep.Counters = len(counts)
	var changed []counterItem
	for k, n := range counts {
		if kept[k] != n {
			changed = append(changed, counterItem{Key: counterKey(accountID, k), Count: n})
		}
	}
	for k, n := range kept {
		if _, ok := counts[k]; !ok && n != 0 {
			changed = append(changed, counterItem{Key: counterKey(accountID, k)})
		}
	}
	rep.Changed = len(changed)
	total := totalItem{Key: totalKey(accountID), Total: rep.Contacts}
	if rep.Ready {
		total.SearchIndex = indexVersion
	}
	if !live {
		puts := make([]any, 0, len(changed)+1)
		var deletes []storage.Key
		for _, c := range changed {
			if c.Count == 0 {
				deletes = append(deletes, c.Key)
			} else {
				puts = append(puts, c)
			}
		}
		return rep, s.table.BatchWrite(ctx, append(puts, total), deletes)
	}
	var mu sync.Mutex
	err = inParallel(len(changed), counterWriters, func(i int) error {
		c := changed[i]
		err := s.setCounter(ctx, c, kept[c.SK])
		if storage.IsConditionFailed(err) {
			mu.Lock()
			rep.Overtaken++
			mu.Unlock()
			return nil
		}
		return err
	})
	if err != nil {
		return rep, err
	}
	cond := storage.ItemAbsent()
	if oldTotal != nil {
		c := expression.Name("total").Equal(expression.Value(oldTotal.Total))
		cond = &c
	}
	if rep.Overtaken > 0 {
		total.SearchIndex = 0 // counted again by the next run
	}
	err = s.table.Put(ctx, total, cond)
	if storage.IsConditionFailed(err) {
		rep.Overtaken++
		return rep, nil
	}
	return rep, err
}

// setCounter writes c if its counter still holds was (0: absent or 0); a
// count of 0 deletes it.
func (s *Contacts) setCounter(ctx context.Context, c counterItem, was int) error {
	n := expression.Name("n")
	cond := n.Equal(expression.Value(was))
	if was == 0 {
		cond = expression.AttributeNotExists(n).Or(cond)
	}
	if c.Count == 0 {
		return s.table.Delete(ctx, c.Key, &cond)
	}
	return s.table.Put(ctx, c, &cond)
}

// ReindexReport tells what Reindex did.
type ReindexReport struct {
	// Indexed contacts had their index items written (again); Overtaken
	// ones were written by another writer meanwhile, which indexed them.
	Indexed, Overtaken int
	RecountReport
}

// Reindex builds the account's search index from its contacts and recounts
// its counters, on a table the API may be serving. Contacts already
// indexed with this version are skipped unless rewrite is set, so running
// it again (after an interruption, or to repair) costs one read of the
// contacts and does what is left. Like Put, it writes a contact's items,
// then records them on the contact item on condition that the contact was
// not written meanwhile (a concurrent write indexes the contact itself),
// then deletes what the contact no longer has.
func (s *Contacts) Reindex(ctx context.Context, accountID string, rewrite bool) (ReindexReport, error) {
	var rep ReindexReport
	var mu sync.Mutex
	err := s.eachContact(ctx, accountID, func(items []contactItem) error {
		var todo []contactItem
		var puts []any
		for _, old := range items {
			if !rewrite && old.Version == indexVersion && len(old.Stale) == 0 {
				continue
			}
			terms := termsOf(old.Contact)
			next := old
			next.contactIndex = contactIndex{Version: indexVersion, Keys: terms.indexKeys()}
			next.Stale = leftBehind(old, next)
			puts = append(puts, indexItems(next, terms)...)
			todo = append(todo, next)
		}
		if err := s.table.BatchWrite(ctx, puts, nil); err != nil {
			return err
		}
		return inParallel(len(todo), counterWriters, func(i int) error {
			next := todo[i]
			err := s.markIndexed(ctx, next)
			switch {
			case storage.IsConditionFailed(err):
				mu.Lock()
				rep.Overtaken++
				mu.Unlock()
				return s.discardIndexItems(ctx, next)
			case err != nil:
				return err
			}
			mu.Lock()
			rep.Indexed++
			mu.Unlock()
			next.Rev++
			return s.deleteLeftBehind(ctx, next)
		})
	})
	if err != nil {
		return rep, err
	}
	rep.RecountReport, err = s.recount(ctx, accountID, true)
	return rep, err
}

// markIndexed records on the contact item that it is indexed under
// next.Keys, with next.Stale left to delete, if it is still at next.Rev
// (read as it was indexed), and drops the attribute the former substring
// search read.
func (s *Contacts) markIndexed(ctx context.Context, next contactItem) error {
	update := expression.Set(expression.Name("ixv"), expression.Value(indexVersion)).
		Set(expression.Name("rev"), expression.Value(next.Rev+1)).
		Remove(expression.Name("search"))
	for name, list := range map[string][]string{"ixKeys": next.Keys, "ixStale": next.Stale} {
		if len(list) == 0 {
			update = update.Remove(expression.Name(name))
		} else {
			update = update.Set(expression.Name(name), expression.Value(list))
		}
	}
	return s.table.Update(ctx, next.Key, update, revisionIs(next.Rev))
}
