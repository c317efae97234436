package contactstore

import (
	"context"
	"math"
	"slices"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/bizplatform/api/shared/storage"
)

// Search asks for up to Limit of an account's contacts matching Query
// (terms.go), in list order, after the cursor After (an order key; "" starts
// at the beginning).
type Search struct {
	AccountID string
	Query     string
	After     string
	Limit     int
	// CountBefore asks for the number of matches up to the cursor, which
	// numbers the page when the client did not send its number.
	CountBefore bool
}

// Found is a page of a search.
type Found struct {
	PageResult
	// Total is the number of matches in the whole list; Before, the number
	// up to and including the cursor (when asked).
	Total, Before int
}

// Search reads a page of matches from the index (index.go), whose items
// carry the contacts: nothing else is read.
//
// A query of one word shorter than maxKeyLen reads the word's counter (and
// the account's) and the page of the word's partition after the cursor at
// once: 2 calls in 1 round trip, whatever the account's size and the
// word's frequency (one more call, in the same round trip, when the page
// number must be counted).
//
// Other queries (several words, or a word of maxKeyLen characters or more)
// read the counters of all their words and one whole partition at once:
// that of the longest word (the last of the longest), the likeliest to be
// the rarest. Its items are checked against every word, which gives the
// page and the exact total. When that partition does not fit one read
// (1 MB), the rarest word's partition (by the counters) is read to its
// end: one more sequential call per further 1 MB of that word's contacts.
//
// The index and the counters are read eventually consistent (half the read
// units): a search may be a moment behind a write, as the list is, whose
// index (GSI1) DynamoDB only reads so.
//
// Until the account is indexed (Reindex), searches read its contacts.
func (s *Contacts) Search(ctx context.Context, q Search) (Found, error) {
	keys := queryKeys(q.Query)
	if len(keys) == 0 {
		return Found{}, nil
	}
	if len(keys) == 1 && exactKey(keys[0]) {
		return s.searchWord(ctx, q, keys[0])
	}
	return s.searchWords(ctx, q, keys)
}

// searchWord answers a query of one exact key.
func (s *Contacts) searchWord(ctx context.Context, q Search, key string) (Found, error) {
	var (
		wg                           sync.WaitGroup
		state                        indexState
		page                         []indexItem
		before                       int
		stateErr, pageErr, beforeErr error
	)
	// The reads go out together. (Goroutines of their own, not
	// WaitGroup.Go or a slice of functions: the least-privilege check,
	// internal/deploytest, takes a function handed to either as called
	// wherever any other is, and would give other areas this one's calls.)
	wg.Add(2)
	go func() {
		defer wg.Done()
		state, stateErr = s.readState(ctx, q.AccountID, []string{key})
	}()
	go func() {
		defer wg.Done()
		// One more than the page, to learn whether another page follows.
		page, _, pageErr = storage.QueryPage[indexItem](ctx, s.table, indexQuery(q.AccountID, key, q.After, false), int32(q.Limit+1), nil)
	}()
	if q.CountBefore && q.After != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			before, beforeErr = storage.QueryCount(ctx, s.table, indexQuery(q.AccountID, key, q.After, true))
		}()
	}
	wg.Wait()
	for _, err := range []error{stateErr, pageErr, beforeErr} {
		if err != nil {
			return Found{}, err
		}
	}
	if !state.ready {
		return s.searchByScan(ctx, q, []string{key})
	}
	f := Found{Total: state.counts[key], Before: before}
	for _, it := range page {
		if len(f.Entries) == q.Limit {
			f.More = true
			break
		}
		f.Entries = append(f.Entries, it.entry())
	}
	return f, nil
}

// searchWords answers a query of several keys, or of a long one.
func (s *Contacts) searchWords(ctx context.Context, q Search, keys []string) (Found, error) {
	var parts []string
	longest := keys[0]
	for _, k := range keys {
		if p := indexKey(k); !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
		if utf8.RuneCountInString(k) >= utf8.RuneCountInString(longest) {
			longest = k
		}
	}
	guess := indexKey(longest)
	var (
		wg                 sync.WaitGroup
		state              indexState
		items              []indexItem
		rest               storage.Cursor
		stateErr, itemsErr error
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		state, stateErr = s.readState(ctx, q.AccountID, parts)
	}()
	go func() {
		defer wg.Done()
		items, rest, itemsErr = storage.QueryPage[indexItem](ctx, s.table, indexQuery(q.AccountID, guess, "", false), wholePartition, nil)
	}()
	wg.Wait()
	if stateErr != nil {
		return Found{}, stateErr
	}
	if itemsErr != nil {
		return Found{}, itemsErr
	}
	if !state.ready {
		return s.searchByScan(ctx, q, keys)
	}
	rarest := guess
	for _, p := range parts {
		if state.counts[p] < state.counts[rarest] {
			rarest = p
		}
	}
	if state.counts[rarest] == 0 {
		return Found{}, nil // a word no contact has
	}
	if rest != nil {
		start := rest
		if rarest != guess {
			items, start = nil, nil // the rarest word's partition instead, from its start
		}
		for read := true; read; read = start != nil {
			more, next, err := storage.QueryPage[indexItem](ctx, s.table, indexQuery(q.AccountID, rarest, "", false), wholePartition, start)
			if err != nil {
				return Found{}, err
			}
			items, start = append(items, more...), next
		}
	}
	var matches []Entry
	seen := map[string]bool{} // one item per contact, even read from a replica a transaction has half reached
	for _, it := range items {
		if !seen[it.ID] && termsOf(it.Contact).matchesAll(keys) {
			seen[it.ID] = true
			matches = append(matches, it.entry())
		}
	}
	return pageOf(matches, q), nil
}

// wholePartition bounds a read of an index partition by nothing but
// DynamoDB's 1 MB.
const wholePartition = math.MaxInt32

// searchByScan answers a search by reading every contact of the account:
// what searches do until the account is indexed.
func (s *Contacts) searchByScan(ctx context.Context, q Search, keys []string) (Found, error) {
	var matches []Entry
	pages, err := s.listPages(q.AccountID)
	if err != nil {
		return Found{}, err
	}
	for {
		items, ok, err := pages.Next(ctx)
		if err != nil {
			return Found{}, err
		}
		if !ok {
			return pageOf(matches, q), nil
		}
		for _, it := range items {
			if termsOf(it.Contact).matchesAll(keys) {
				matches = append(matches, Entry{Contact: it.Contact, OrderKey: it.GSI1SK})
			}
		}
	}
}

// pageOf is the page of q among all matches (in list order).
func pageOf(matches []Entry, q Search) Found {
	f := Found{Total: len(matches)}
	if q.After != "" {
		f.Before = sort.Search(len(matches), func(i int) bool { return matches[i].OrderKey > q.After })
	}
	after := matches[f.Before:]
	f.Entries = after[:min(q.Limit, len(after))]
	f.More = len(after) > q.Limit
	return f
}

func (it indexItem) entry() Entry { return Entry{Contact: it.Contact, OrderKey: it.SK} }

// indexState is what a search reads besides the index items: whether the
// account is indexed, and the counters of some keys.
type indexState struct {
	ready  bool
	counts map[string]int
}

// readState reads the account's counter and those of keys.
func (s *Contacts) readState(ctx context.Context, accountID string, keys []string) (indexState, error) {
	account := accountCounterKey(accountID)
	ks := []storage.Key{account}
	for _, k := range keys {
		ks = append(ks, counterKey(accountID, k))
	}
	items, err := storage.BatchGet[counterItem](ctx, s.table, ks, storage.Eventually)
	if err != nil {
		return indexState{}, err
	}
	st := indexState{counts: make(map[string]int, len(keys))}
	for _, it := range items {
		if it.Key == account {
			st.ready = it.Ready
		} else {
			st.counts[it.SK] = it.Count
		}
	}
	return st, nil
}

// indexQuery is the query of a key's partition, in list order, past the
// cursor bound (upTo false) or up to and including it (upTo true).
func indexQuery(accountID, key, bound string, upTo bool) storage.Query {
	return storage.Query{Key: rangeKey(storage.AttrPK, storage.AttrSK, indexPK(accountID, key), bound, upTo), Eventual: true}
}
