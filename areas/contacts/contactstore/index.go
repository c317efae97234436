package contactstore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/apierror"
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

// The write of an API operation carries more in its first transaction
// (writeOptions): the change's events, the contact's claims on its e-mail
// and phone (claims.go; one may require that no other contact holds the
// value), and, for the first contact of an account, the mark that the
// account is indexed whole. A delete carries them in its last
// transaction, which deletes the contact item, and deletes the contact's
// tasks and notes on the way, each transaction conditional on the
// contact's ChildRev as read with them, so that a child created meanwhile
// makes the delete start again.

// indexVersion is the format of the index: terms.go's rules, the items and
// their keys. Each version has partitions of its own (indexPK, counterPK),
// so that a version is built beside the one before it. Contacts indexed
// under another version, and accounts not yet ready under this one, are
// indexed by Reindex; until an account is ready its searches read its
// contacts. Version 3 added the field keys (tags, do-not-disturb) and the
// contact's claims, and its items carry the whole record (previndex.go
// deletes version 2's items as each contact is written again).
const indexVersion = 3

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

// indexItem is one contact under one key: the contact's record, at its
// list-order key (SK).
type indexItem struct {
	storage.Key
	Record
}

// counterItem is the number of index items under a key, or, for the
// account's counter, of contacts indexed.
type counterItem struct {
	storage.Key
	Count int `dynamodbav:"n"`
	// Ready, on the account's counter: every contact of the account is
	// indexed (Load, Reindex, or the account's first contact written by
	// this version), so searches read the index and the list's total is
	// Count.
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

// indexedOf is what this version's index holds of the stored contact it
// (nil: none).
func indexedOf(it *contactItem) indexed {
	switch {
	case it == nil:
		return indexed{}
	case it.Partial && it.ItemsVersion == indexVersion:
		ix := indexed{counted: it.Version == indexVersion, items: map[ref]bool{}}
		for _, r := range it.Items {
			ix.items[parseRef(r)] = true
		}
		return ix
	case !it.Partial && it.Version == indexVersion:
		return wanted(*it)
	}
	return indexed{} // written before this version of the index
}

// wanted is what the index holds of it when no write is under way: its
// keys at its place, counted.
func wanted(it contactItem) indexed {
	ix := indexed{counted: true, items: map[ref]bool{}}
	for _, k := range keysOf(it.Record) {
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
		rec.ItemsVersion = indexVersion
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
const putAttempts = 10

// errOvertaken says other writes of the contact kept coming first.
var errOvertaken = errors.New("the contact was written by other writers meanwhile")

// overtaken is the answer of a write that other writers kept overtaking:
// 503, to try again.
func overtaken(err error) error {
	return apierror.Unavailable(errors.Join(errOvertaken, err), time.Second)
}

// retryPause waits before attempt n+1 of a write that lost a race: a
// random time below n × 5 ms, so that writers who lost together spread
// out; it ends early with the context's error.
func retryPause(ctx context.Context, n int) error {
	t := time.NewTimer(rand.N(time.Duration(n) * 5 * time.Millisecond))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Put stores a contact (its list fields; its other fields are kept) and
// keeps its search index: its index items, the counters of its keys and
// the account's counter, and its claims. It costs one read (the contact
// with the account's settings and counter) and one transaction: the
// contact item, two writes per key gained or lost, one per key kept when
// the contact changed, and the account's counter when the contact is new;
// more transactions when that exceeds MaxTxItems (index.go), and one more
// read for an account's first contact. Writing a contact again unchanged
// costs the read. It writes no event and refuses no duplicate: it is the
// tools' and the tests' way to write one contact, not an operation's.
func (s *Contacts) Put(ctx context.Context, c Contact, addedMs int64) error {
	key := contactKey(c.LocationID, c.ID)
	st, old, err := s.readAccount(ctx, c.LocationID, true, nil, &key)
	for attempt := 1; err == nil; attempt++ {
		rec := Record{Contact: c}
		if old != nil {
			rec.Details = old.Details
		}
		next := newContactItem(rec, addedMs)
		fresh := false
		if old == nil && !st.ready {
			if fresh, err = s.freshAccount(ctx, c.LocationID); err != nil {
				return err
			}
		}
		if err = s.write(ctx, old, &next, writeOptions{fresh: fresh}); !storage.IsConditionFailed(err) {
			return err
		}
		if attempt == putAttempts {
			return overtaken(err)
		}
		// Written meanwhile: start again from the item the condition found.
		if old, err = storage.FailedConditionItem[contactItem](err, key); err == nil {
			err = retryPause(ctx, attempt)
		}
	}
	return err
}

// writeOptions are what a write adds to the index's own work.
type writeOptions struct {
	// rewrite puts every index item again even when the content is
	// unchanged (Reindex --rewrite).
	rewrite bool
	// events adds the change's events to the transaction that commits the
	// change (the first; a delete's last), n of them.
	events  func(tx *storage.Tx)
	nEvents int
	// unique names the claims (claimEmail, claimPhone) that must hold no
	// other contact when this one takes them: the account refuses
	// duplicates, or an upsert's create must make one contact of a value.
	unique []string
	// fresh marks the account's counter ready: the contact is the first
	// of an account that has no contact item, so every contact it will
	// have is written by this version.
	fresh bool
	// children are the contact's tasks and notes, deleted with it.
	children []storage.Key
}

// errChildrenChanged says a child of the contact being deleted was created
// while the delete ran: the delete starts again from the item found.
var errChildrenChanged = errors.New("a child of the contact was created meanwhile")

// write takes the contact stored as old (nil: none) to next (nil: deleted),
// with its index and claims, in as few transactions as hold it (index.go).
// A failed condition of the first transaction (the contact was written
// meanwhile) is returned as it is, carrying the item found; a claim another
// contact holds, as a *DuplicateError.
func (s *Contacts) write(ctx context.Context, old, next *contactItem, o writeOptions) error {
	base := next // the content the contact item keeps until the last transaction
	deleting := next == nil
	if deleting {
		base = old
	}
	have := indexedOf(old)
	var want indexed
	if next != nil {
		want = wanted(*next)
	}
	refresh := o.rewrite || old == nil || next == nil || !reflect.DeepEqual(old.Record, next.Record)
	todo := changes(have, want, base.GSI1SK, refresh)
	countDelta := boolInt(want.counted) - boolInt(have.counted)
	claims := claimChanges(old, next, o.unique)
	if !refresh && len(todo) == 0 && countDelta == 0 && len(claims) == 0 && !o.fresh &&
		!old.Partial && !old.hasFirstIndex() && !old.hasPrevIndex() && old.GSI1SK == next.GSI1SK {
		return nil // nothing to change
	}
	if err := s.dropFirstIndex(ctx, old); err != nil {
		return err
	}
	if err := s.dropPrevIndex(ctx, old); err != nil {
		return err
	}
	rev, childRev := 0, 0
	cond := storage.ItemAbsent()
	if old != nil {
		rev, childRev = old.Rev, old.ChildRev
		cond = revisionIs(rev, childRev)
	}
	// What commits the change itself (events, claims) goes with the first
	// transaction of a create or an update, which writes the new content,
	// and with the last of a delete, which deletes the contact item.
	changeWrites := len(claims) + o.nEvents
	children := o.children
	for first := true; ; first = false {
		room := storage.MaxTxItems - 1 // the contact item's write
		if first && countDelta != 0 {
			room--
		}
		if !deleting && first || deleting {
			room -= changeWrites // a delete keeps room for them in every transaction
		}
		nChildren := min(len(children), room)
		room -= nChildren
		nChanges, counted := 0, indexed{counted: have.counted, items: maps.Clone(have.items)}
		for nChanges < len(todo) && todo[nChanges].writes() <= room {
			room -= todo[nChanges].writes()
			counted.apply(todo[nChanges], base.GSI1SK)
			nChanges++
		}
		last := nChildren == len(children) && nChanges == len(todo)

		tx := s.table.Tx()
		key := base.Key
		if deleting && last {
			tx.Delete(key, cond)
		} else {
			item := *base
			if first && countDelta != 0 {
				counted.counted = want.counted
			}
			item.Rev, item.ChildRev, item.indexRecord, item.firstIndex = rev+1, childRev, counted.record(!last), firstIndex{}
			tx.Put(item, cond)
		}
		var claimAt []claimChange
		if !deleting && first || deleting && last {
			claimAt = s.addClaims(tx, base.LocationID, base.ID, claims)
			if o.events != nil {
				o.events(tx)
			}
		}
		if first && countDelta != 0 {
			upd := addTo("n", countDelta)
			if o.fresh {
				upd = upd.Set(expression.Name("ready"), expression.Value(true))
			}
			tx.Update(accountCounterKey(base.LocationID), upd, nil)
		} else if first && o.fresh {
			tx.Update(accountCounterKey(base.LocationID), expression.Set(expression.Name("ready"), expression.Value(true)), nil)
		}
		for _, k := range children[:nChildren] {
			tx.Delete(k, nil)
		}
		for _, c := range todo[:nChanges] {
			s.addChange(tx, *base, c)
		}
		err := tx.Commit(ctx)
		var txf *storage.TxConditionFailed
		switch {
		case err == nil:
		case !errors.As(err, &txf):
			return err
		case txf.Index > 0 && txf.Index <= len(claimAt):
			return duplicateOf(claimAt[txf.Index-1], txf.Item)
		case first:
			return err // written meanwhile: the caller starts again from the item found
		default:
			found, ferr := storage.FailedConditionItem[contactItem](err, key)
			switch {
			case ferr != nil:
				return ferr
			case deleting:
				return errors.Join(errChildrenChanged, err) // start again from the item found
			case found != nil && found.Rev == rev:
				// Only ChildRev moved (a task or note was created): the
				// contact is as this write left it; go on at the new one.
				childRev, cond = found.ChildRev, revisionIs(rev, found.ChildRev)
				continue
			}
			return nil // overtaken: the write that came first started from this one's record
		}
		if last {
			return nil
		}
		have, children, todo = counted, children[nChildren:], todo[nChanges:]
		if first {
			countDelta = 0
		}
		rev++
		cond = revisionIs(rev, childRev)
	}
}

// addChange adds the writes of c to tx, for the contact it.
func (s *Contacts) addChange(tx *storage.Tx, it contactItem, c keyChange) {
	for _, ok := range c.drop {
		tx.Delete(indexItemKey(it.LocationID, c.key, ok), nil)
	}
	if c.put {
		tx.Put(indexItem{Key: indexItemKey(it.LocationID, c.key, it.GSI1SK), Record: it.Record}, nil)
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

// revisionIs is the condition "the contact item is still at revision rev,
// with childRev children created" (items written before revisions have
// none: revision 0; a contact without children has no childRev).
func revisionIs(rev, childRev int) *expression.ConditionBuilder {
	c := expression.Name("rev").Equal(expression.Value(rev))
	if rev == 0 {
		c = expression.AttributeExists(expression.Name(storage.AttrPK)).And(c.Or(expression.AttributeNotExists(expression.Name("rev"))))
	}
	children := expression.Name("childRev").Equal(expression.Value(childRev))
	if childRev == 0 {
		children = children.Or(expression.AttributeNotExists(expression.Name("childRev")))
	}
	c = c.And(children)
	return &c
}
