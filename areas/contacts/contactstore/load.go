package contactstore

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
)

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
			next.Rev = 1
			if o, ok := old[keys[i]]; ok {
				next.Rev = o.Rev + 1
				gone = append(gone, staleRefKeys(o.LocationID, leftBehind(o, next))...)
			}
			puts = append(puts, next)
			puts = append(puts, indexItems(next, terms, "")...)
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

// recount counts the account's contacts and the index items under each
// key, from the contact items, and stores the total and the counters, in
// batches: Load calls it after writing contacts in bulk. live (Reindex, on
// a table the API serves) writes each changed counter on condition that it
// still holds the value read before the contacts were counted, so that a
// concurrent write's change is never overwritten (that counter is reported
// overtaken instead).
func (s *Contacts) recount(ctx context.Context, accountID string, live bool) (RecountReport, error) {
	var rep RecountReport
	// Read before counting: a change made meanwhile fails the condition.
	kept, err := s.readCounters(ctx, accountID)
	if err != nil {
		return rep, err
	}
	oldTotal, err := storage.Get[totalItem](ctx, s.table, totalKey(accountID))
	if err != nil {
		return rep, err
	}
	counts := map[string]int{}
	rep.Ready = true
	err = s.eachStored(ctx, accountID, func(items []contactItem) error {
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
		// Some counters are not recounted: the account stays as it was
		// (searched through the index or not) until a run recounts them.
		total.SearchIndex = 0
		if oldTotal != nil {
			total.SearchIndex = oldTotal.SearchIndex
		}
		rep.Ready = total.SearchIndex == indexVersion
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

// readCounters reads all the account's counters, by key.
func (s *Contacts) readCounters(ctx context.Context, accountID string) (map[string]int, error) {
	kept := map[string]int{}
	for shard := uint32(0); shard < counterShards; shard++ {
		in, err := s.rangeQuery(storage.AttrPK, storage.AttrSK, counterPK(accountID, shard), "", false)
		if err != nil {
			return nil, err
		}
		in.ConsistentRead, in.Limit = aws.Bool(true), aws.Int32(4*walkPage)
		for {
			out, err := s.table.DB.Query(ctx, in)
			if err != nil {
				return nil, err
			}
			var items []counterItem
			if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
				return nil, fmt.Errorf("decode counters: %w", err)
			}
			for _, it := range items {
				kept[it.SK] = it.Count
			}
			if out.LastEvaluatedKey == nil {
				break
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
	}
	return kept, nil
}
