package contactstore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
)

// The search index (docs/search.md) lives in the table beside the contacts.
// For every key of a contact (terms.go: the prefixes of its words, the
// endings of its phone digits) an index item sits in the key's own
// partition, sorted by the contact's list-order key, and carries the
// contact as the list shows it: one Query of a partition is a page of the
// contacts matching a query word, in list order, from the list's cursor,
// with nothing more to read. A counter per key holds the number of items
// under it, and the account's counter the number of its contacts indexed
// (the list's total), so a one-word search's total, and the list's, is one
// read.
//
// What holds at every instant, because every change below is part of a
// transaction:
//   - a key's counter is the number of items under the key: an item is put
//     or deleted in the transaction that changes its counter;
//   - a contact has at most one item under a key: moving it in the list
//     order deletes the item at its old place in the transaction that puts
//     the one at its new place;
//   - the account's counter is the number of contact items counted
//     (indexRecord.Version), changed with them.
//
// And when no write of a contact is under way, its items are exactly those
// of its keys, at its place, carrying its content.
//
// A write reads the contact item, then takes the index from what the
// contact has there to what its new content gives: per key, the items to
// delete, the item to put and the counter's change (keyChange). The first
// transaction writes the contact item on condition that it is still at the
// revision read (of two writers of one contact, the second takes the item
// found from its failed condition and starts again), with as many key
// changes as fit. Most writes fit one transaction: a new contact with a
// name, an e-mail and a phone has 30 to 50 keys, two writes each (its item
// and its counter). But a contact has up to maxIndexKeys keys, and a
// rename may change all of them: more than a transaction holds
// (MaxTxItems). The rest then follows in more transactions, each writing
// the contact item again on condition of the revision the one before left,
// and recording on it the items the contact has at that point
// (indexRecord.Items), until they are those its content gives. So the
// contact item always names the contact's items, and:
//   - a writer that stops in between leaves the record; the next write of
//     the contact (the same one repeated, any other, or Reindex) starts
//     from it. Nothing is counted twice or left unnamed, no counter drifts;
//     until then the contact is found by some of its old keys and some of
//     its new ones, each counted with its item;
//   - a writer overtaken in between (its next condition fails) stops: the
//     write that overtook it started from the record it read.
//
// Why so: the counters, the account's counter and the items must change
// together for a total never to disagree with its pages; no other order of
// single writes keeps that when a writer stops or two write one contact
// (the index used to put items first, then the contact item, then the
// counters, and a writer stopped between the last two left counters wrong
// until a recount). Keeping the keys in the transaction per key, rather
// than the whole write in one, is what lets a write of any size keep the
// counters exact; the contact item in every transaction is what orders
// two writers of one contact. The cost: a transaction's writes cost twice
// the write units (a new contact of 40 keys: 82 writes, some 164 units),
// and the counters of short keys ("a", "j") and the account's counter are
// written by every write of a contact having them; concurrent writes of
// contacts sharing them conflict and are tried again (Tx.Commit).
//
// Load, which writes contacts in bulk while nothing else writes them, is
// the one writer without transactions; it recounts after (load.go).

// indexVersion is the format of the index: terms.go's rules, the items and
// their keys. Each version has partitions of its own (indexPK, counterPK),
// so that a version is built beside the one before it. Contacts indexed
// under another version, and accounts not yet ready under this one, are
// indexed by Reindex; until an account is ready its searches read its
// contacts.
const indexVersion = 2

func indexPK(accountID, key string) string {
	return fmt.Sprintf("CSEARCH%d#%s#%s", indexVersion, accountID, key)
}

func indexItemKey(accountID, key, orderKey string) storage.Key {
	return storage.Key{PK: indexPK(accountID, key), SK: orderKey}
}

// counterShards spreads an account's counters over partitions (writes of
// many contacts at once do not all land on one partition key) that Load's
// recount can still list.
const counterShards = 16

func counterPK(accountID string, shard uint32) string {
	return fmt.Sprintf("CSEARCHN%d#%s#%02d", indexVersion, accountID, shard)
}

func counterKey(accountID, key string) storage.Key {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return storage.Key{PK: counterPK(accountID, h.Sum32()%counterShards), SK: key}
}

// accountCounterKey is the account's counter: its contacts indexed, and
// whether they are all of its contacts (Ready).
func accountCounterKey(accountID string) storage.Key {
	return storage.Key{PK: fmt.Sprintf("CSEARCHN%d#%s", indexVersion, accountID), SK: "CONTACTS"}
}

// indexItem is one contact under one key: the contact as a page shows it,
// at its list-order key (SK).
type indexItem struct {
	storage.Key
	Contact
}

// counterItem is the number of index items under a key, or, for the
// account's counter, of contacts indexed.
type counterItem struct {
	storage.Key
	Count int `dynamodbav:"n"`
	// Ready, on the account's counter: every contact of the account is
	// indexed (Load, Reindex), so searches read the index and the list's
	// total is Count.
	Ready bool `dynamodbav:"ready,omitempty"`
}

// ref names an index item of a contact: its key and the contact's order
// key. It is recorded as orderKey|key ("|" is in no order key).
type ref struct{ key, orderKey string }

func (r ref) String() string { return r.orderKey + "|" + r.key }

func parseRef(s string) ref {
	orderKey, key, _ := strings.Cut(s, "|")
	return ref{key: key, orderKey: orderKey}
}

// indexed is what the index holds of one contact: whether the account's
// counter counts it, and its items.
type indexed struct {
	counted bool
	items   map[ref]bool
}

// indexedOf is what the index holds of the stored contact it (nil: none).
func indexedOf(it *contactItem) indexed {
	switch {
	case it == nil:
		return indexed{}
	case it.Partial:
		ix := indexed{counted: it.Version == indexVersion, items: map[ref]bool{}}
		for _, r := range it.Items {
			ix.items[parseRef(r)] = true
		}
		return ix
	case it.Version == indexVersion:
		return wanted(*it)
	}
	return indexed{} // written before this version of the index
}

// wanted is what the index holds of it when no write is under way: its
// keys at its place, counted.
func wanted(it contactItem) indexed {
	ix := indexed{counted: true, items: map[ref]bool{}}
	for _, k := range termsOf(it.Contact).indexKeys() {
		ix.items[ref{key: k, orderKey: it.GSI1SK}] = true
	}
	return ix
}

// record is the indexRecord a contact item carries with the index holding
// ix of it: the items themselves when more changes follow (partial).
func (ix indexed) record(partial bool) indexRecord {
	rec := indexRecord{Partial: partial}
	if ix.counted {
		rec.Version = indexVersion
	}
	if partial {
		rec.Items = make([]string, 0, len(ix.items))
		for r := range ix.items {
			rec.Items = append(rec.Items, r.String())
		}
		slices.Sort(rec.Items)
	}
	return rec
}

// keyChange is what a write changes under one key, in one transaction: the
// contact's items elsewhere in the list order deleted, its item put, and
// the key's counter.
type keyChange struct {
	key   string
	drop  []string // order keys
	put   bool
	delta int
}

// writes is the number of writes the change adds to a transaction.
func (c keyChange) writes() int {
	n := len(c.drop)
	if c.put {
		n++
	}
	if c.delta != 0 {
		n++
	}
	return n
}

// changes are the key changes that take the index of one contact from have
// to want (all at the order key at). With refresh, the items kept are put
// again (the contact's content changed); without, only those missing are.
func changes(have, want indexed, at string, refresh bool) []keyChange {
	held := map[string][]string{}
	for r := range have.items {
		held[r.key] = append(held[r.key], r.orderKey)
	}
	keys := map[string]bool{}
	for r := range have.items {
		keys[r.key] = true
	}
	for r := range want.items {
		keys[r.key] = true
	}
	var out []keyChange
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		wanted := want.items[ref{key: k, orderKey: at}]
		c := keyChange{key: k, put: wanted && (refresh || !slices.Contains(held[k], at)), delta: -len(held[k])}
		if wanted {
			c.delta++
		}
		for _, ok := range held[k] {
			if !wanted || ok != at {
				c.drop = append(c.drop, ok)
			}
		}
		if c.writes() > 0 {
			out = append(out, c)
		}
	}
	return out
}

// apply records on ix the change c made at the order key at.
func (ix *indexed) apply(c keyChange, at string) {
	for _, ok := range c.drop {
		delete(ix.items, ref{key: c.key, orderKey: ok})
	}
	if c.put {
		if ix.items == nil {
			ix.items = map[ref]bool{}
		}
		ix.items[ref{key: c.key, orderKey: at}] = true
	}
}

// putAttempts bounds the attempts of a write of one contact that other
// writers of the same contact keep overtaking.
const putAttempts = 4

// errOvertaken says other writes of the contact kept coming first.
var errOvertaken = errors.New("the contact was written by other writers meanwhile")

// Put stores a contact and keeps its search index: its index items, the
// counters of its keys and the account's counter. It costs one read and
// one transaction: the contact item, two writes per key gained or lost,
// one per key kept when the contact changed, and the account's counter
// when the contact is new; more transactions when that exceeds
// MaxTxItems (index.go). Writing a contact again unchanged costs the read.
func (s *Contacts) Put(ctx context.Context, c Contact, addedMs int64) error {
	key := contactKey(c.LocationID, c.ID)
	old, err := storage.Get[contactItem](ctx, s.table, key)
	for attempt := 1; err == nil; attempt++ {
		next := newContactItem(c, addedMs)
		if err = s.write(ctx, old, &next, false); !storage.IsConditionFailed(err) {
			return err
		}
		if attempt == putAttempts {
			return errors.Join(errOvertaken, err)
		}
		// Written meanwhile: start again from the item the condition found.
		old, err = storage.FailedConditionItem[contactItem](err, key)
	}
	return err
}

// Delete deletes the account's contact, its tasks and its index items, and
// takes it out of the counters. It reports false when there is no such
// contact.
func (s *Contacts) Delete(ctx context.Context, accountID, id string) (bool, error) {
	key := contactKey(accountID, id)
	old, err := storage.Get[contactItem](ctx, s.table, key)
	if err != nil || old == nil {
		return false, err
	}
	// Tasks first: a delete stopped before the contact goes leaves a
	// contact without tasks, which repeating the delete finishes.
	tasks, err := storage.QueryPartition[taskItem](ctx, s.table, storage.AccountPK(accountID), "TASK#"+id+"#")
	if err != nil {
		return false, err
	}
	gone := make([]storage.Key, len(tasks))
	for i, t := range tasks {
		gone[i] = t.Key
	}
	if err := s.table.BatchWrite(ctx, nil, gone); err != nil {
		return false, err
	}
	for attempt := 1; ; attempt++ {
		err := s.write(ctx, old, nil, false)
		if !storage.IsConditionFailed(err) {
			return err == nil, err
		}
		if attempt == putAttempts {
			return false, errors.Join(errOvertaken, err)
		}
		if old, err = storage.FailedConditionItem[contactItem](err, key); err != nil || old == nil {
			return false, err // deleted meanwhile
		}
	}
}

// write takes the contact stored as old (nil: none) to next (nil: deleted),
// with its index, in as few transactions as hold it (index.go). rewrite
// puts every index item again even when the content is unchanged. A failed
// condition of the first transaction (the contact was written meanwhile)
// is returned as it is, carrying the item found.
func (s *Contacts) write(ctx context.Context, old, next *contactItem, rewrite bool) error {
	base := next // the content the contact item keeps until the last transaction
	if base == nil {
		base = old
	}
	have := indexedOf(old)
	var want indexed
	if next != nil {
		want = wanted(*next)
	}
	refresh := rewrite || old == nil || next == nil || !reflect.DeepEqual(old.Contact, next.Contact)
	todo := changes(have, want, base.GSI1SK, refresh)
	countDelta := boolInt(want.counted) - boolInt(have.counted)
	if !refresh && len(todo) == 0 && countDelta == 0 && !old.Partial && !old.hasFirstIndex() && old.GSI1SK == next.GSI1SK {
		return nil // nothing to change
	}
	if err := s.dropFirstIndex(ctx, old); err != nil {
		return err
	}
	cond, rev := storage.ItemAbsent(), 0
	if old != nil {
		cond, rev = revisionIs(old.Rev), old.Rev
	}
	for first := true; ; first = false {
		tx := s.table.Tx()
		room := storage.MaxTxItems - 1 // the contact item's write
		if countDelta != 0 {
			tx.Update(accountCounterKey(base.LocationID), addTo("n", countDelta), nil)
			have.counted, countDelta, room = want.counted, 0, room-1
		}
		for len(todo) > 0 && todo[0].writes() <= room {
			c := todo[0]
			todo, room = todo[1:], room-c.writes()
			s.addChange(tx, *base, c)
			have.apply(c, base.GSI1SK)
		}
		if next == nil && len(todo) == 0 {
			tx.Delete(base.Key, cond)
		} else {
			item := *base
			item.Rev, item.indexRecord, item.firstIndex = rev+1, have.record(len(todo) > 0), firstIndex{}
			tx.Put(item, cond)
		}
		err := tx.Commit(ctx)
		switch {
		case storage.IsConditionFailed(err) && !first:
			return nil // overtaken: the write that came first started from this one's record
		case err != nil || len(todo) == 0:
			return err
		}
		rev++
		cond = revisionIs(rev)
	}
}

// addChange adds the writes of c to tx, for the contact it.
func (s *Contacts) addChange(tx *storage.Tx, it contactItem, c keyChange) {
	for _, ok := range c.drop {
		tx.Delete(indexItemKey(it.LocationID, c.key, ok), nil)
	}
	if c.put {
		tx.Put(indexItem{Key: indexItemKey(it.LocationID, c.key, it.GSI1SK), Contact: it.Contact}, nil)
	}
	if c.delta != 0 {
		tx.Update(counterKey(it.LocationID, c.key), addTo("n", c.delta), nil)
	}
}

func addTo(attr string, delta int) expression.UpdateBuilder {
	return expression.Add(expression.Name(attr), expression.Value(delta))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
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
