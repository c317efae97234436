package contactstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
)

// NewContact is a contact to load in bulk, with its tasks and notes.
type NewContact struct {
	Contact Contact
	// Details are the contact's fields beyond the list's (none: empty).
	Details Details
	AddedMs int64
	Tasks   []Task
	Notes   []Note
}

// loadChunk is how many contacts Load reads and writes at a time.
const loadChunk = 500

// Load writes contacts with their tasks and notes in bulk (BatchWriteItem),
// with their index items, replacing stored contacts of the same ids and their index
// items, then recounts each account it wrote to. It is for loading data
// (the demo dataset, the benchmark's accounts) while nothing else writes
// those accounts' contacts: its writes are not transactions, the recount
// makes the counters right; loading the same contacts again leaves the
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
			next := newContactItem(Record{Contact: nc.Contact, Details: nc.Details}, nc.AddedMs)
			next.Rev = 1
			want := wanted(next)
			if o, ok := old[keys[i]]; ok {
				next.Rev = o.Rev + 1
				for r := range indexedOf(&o).items {
					if !want.items[r] {
						gone = append(gone, indexItemKey(o.LocationID, r.key, r.orderKey))
					}
				}
				gone = append(gone, firstIndexItems(&o)...)
				gone = append(gone, prevIndexItems(&o)...)
			}
			puts = append(puts, next)
			for r := range want.items {
				puts = append(puts, indexItem{Key: indexItemKey(next.LocationID, r.key, r.orderKey), Record: next.Record})
			}
			for _, t := range nc.Tasks {
				t.ContactID = nc.Contact.ID
				puts = append(puts, taskItem{Key: taskKey(nc.Contact.LocationID, nc.Contact.ID, t.ID), Task: t})
			}
			for _, n := range nc.Notes {
				n.ContactID = nc.Contact.ID
				puts = append(puts, storage.Keyed{Key: noteKey(nc.Contact.LocationID, nc.Contact.ID, n.ID), Record: n})
			}
			if !slices.Contains(accounts, nc.Contact.LocationID) {
				accounts = append(accounts, nc.Contact.LocationID)
			}
		}
		// Deletes first: until the contact items are replaced they name the
		// items deleted, so loading again after a failure deletes the rest.
		// An item of a key the contact keeps at its place is overwritten.
		if err := s.table.BatchWrite(ctx, nil, gone); err != nil {
			return err
		}
		if err := s.table.BatchWrite(ctx, puts, nil); err != nil {
			return err
		}
	}
	for _, a := range accounts {
		if err := s.recount(ctx, a); err != nil {
			return fmt.Errorf("recount %s: %w", a, err)
		}
	}
	return nil
}

// recount counts the index items under each key of the account, and its
// contacts indexed, from the contact items, and writes the counters that
// differ (25 to a BatchWriteItem) and the account's counter, ready when
// every contact is indexed. Only Load calls it: nothing else writes the
// account's contacts meanwhile.
func (s *Contacts) recount(ctx context.Context, accountID string) error {
	kept := map[storage.Key]int{}
	for shard := range uint32(counterShards) {
		counters, err := storage.QueryPartition[counterItem](ctx, s.table, counterPK(accountID, shard), "")
		if err != nil {
			return err
		}
		for _, c := range counters {
			kept[c.Key] = c.Count
		}
	}
	claimsKept, err := storage.QueryPartition[claimItem](ctx, s.table, storage.AccountPK(accountID), claimPrefix)
	if err != nil {
		return err
	}
	counts := map[storage.Key]int{}
	claims := map[storage.Key][]string{}
	account := counterItem{Key: accountCounterKey(accountID), Ready: true}
	err = s.eachStored(ctx, accountID, func(items []contactItem) error {
		for _, it := range items {
			ix := indexedOf(&it)
			if ix.counted {
				account.Count++
			}
			account.Ready = account.Ready && ix.counted && !it.Partial && !it.hasFirstIndex()
			for r := range ix.items {
				counts[counterKey(accountID, r.key)]++
			}
			for f, v := range claimsHeld(&it) {
				k := claimKey(accountID, f, v)
				claims[k] = append(claims[k], it.ID)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	puts := []any{account}
	var deletes []storage.Key
	for k, n := range counts {
		if kept[k] != n {
			puts = append(puts, counterItem{Key: k, Count: n})
		}
	}
	for k := range kept {
		if counts[k] == 0 {
			deletes = append(deletes, k)
		}
	}
	// The claims are what the contacts hold.
	for _, c := range claimsKept {
		slices.Sort(c.IDs)
		if want, ok := claims[c.Key]; !ok {
			deletes = append(deletes, c.Key)
		} else if slices.Sort(want); slices.Equal(want, c.IDs) {
			delete(claims, c.Key)
		}
	}
	for k, ids := range claims {
		puts = append(puts, claimItem{Key: k, IDs: ids})
	}
	return s.table.BatchWrite(ctx, puts, deletes)
}

// ReindexReport tells what Reindex did.
type ReindexReport struct {
	// Contacts is the number of the account's contacts.
	Contacts int
	// Indexed contacts had their index written by this run; Overtaken ones
	// were written by another writer meanwhile, which indexed them.
	Indexed, Overtaken int
	// Ready reports that every contact is indexed with this version, so
	// searches read the index.
	Ready bool
}

// Reindex indexes the account's contacts written before this version of
// the index (or, with rewrite, every contact again), on a table the API
// may be serving: each as Put writes it, in transactions that keep the
// counters exact, on condition that the contact was not written meanwhile
// (a concurrent write indexes the contact itself). It then reads the
// contacts again, and when every one is indexed marks the account ready,
// so that its searches read the index, and drops the first index's
// counters. Running it again costs one read of the contacts and does what
// is left.
func (s *Contacts) Reindex(ctx context.Context, accountID string, rewrite bool) (ReindexReport, error) {
	var rep ReindexReport
	var mu sync.Mutex
	err := s.eachStored(ctx, accountID, func(items []contactItem) error {
		return inParallel(len(items), reindexWriters, func(i int) error {
			it := items[i]
			if !rewrite && it.Version == indexVersion && !it.Partial && !it.hasFirstIndex() {
				return nil
			}
			err := s.write(ctx, &it, &it, writeOptions{rewrite: rewrite})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case storage.IsConditionFailed(err):
				rep.Overtaken++
				return nil
			case err == nil:
				rep.Indexed++
			}
			return err
		})
	})
	if err != nil {
		return rep, err
	}
	rep.Ready = true
	err = s.eachStored(ctx, accountID, func(items []contactItem) error {
		for _, it := range items {
			rep.Contacts++
			rep.Ready = rep.Ready && it.Version == indexVersion && !it.Partial && !it.hasFirstIndex()
		}
		return nil
	})
	if err != nil || !rep.Ready {
		return rep, err
	}
	ready := expression.Set(expression.Name("ready"), expression.Value(true))
	if err := s.table.Update(ctx, accountCounterKey(accountID), ready, nil); err != nil {
		return rep, err
	}
	if err := s.dropPrevCounters(ctx, accountID); err != nil {
		return rep, err
	}
	return rep, s.dropFirstCounters(ctx, accountID)
}

// reindexWriters bounds the contacts Reindex writes at a time.
const reindexWriters = 8

// inParallel calls fn(0..n-1), at most width at a time, and returns the
// errors.
func inParallel(n, width int, fn func(i int) error) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		next = make(chan int)
	)
	for range min(width, n) {
		wg.Add(1)
		go func() { // not wg.Go: see searchWord
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}
