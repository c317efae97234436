package contactstore

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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

// Search reads a page of matches from the index (index.go).
//
// A query of one word shorter than maxKeyLen reads the word's counter and
// the page of its partition after the cursor at once, then the page's
// contacts: 3 calls in 2 round trips, whatever the account's size and the
// word's frequency (one more call, in the first round trip, when the page
// number must be counted).
//
// Other queries (several words, or a word of maxKeyLen characters or more)
// read the counters of all their words and one whole partition at once:
// that of the longest word (the last of the longest), the likeliest to be
// the rarest. Its items are checked against every word, which gives the
// page and the exact total. When that partition does not fit one read
// (1 MB, about 7,000 contacts), the rarest word's partition (by the
// counters) is read to its end: one more sequential call per further 1 MB
// of that word's contacts.
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
		wg                      sync.WaitGroup
		state                   indexState
		page                    []indexItem
		more                    bool
		before                  int
		stateErr, pageErr, bErr error
	)
	wg.Add(1)
	go func() { defer wg.Done(); state, stateErr = s.readState(ctx, q.AccountID, []string{key}) }()
	wg.Add(1)
	go func() {
		defer wg.Done()
		in, err := s.indexQuery(q.AccountID, key, q.After, false)
		if err != nil {
			pageErr = err
			return
		}
		in.Limit = aws.Int32(int32(q.Limit + 1))
		// Only the order key: the page's contacts are read by their keys.
		in.ExpressionAttributeNames["#orderKey"] = storage.AttrSK
		in.ProjectionExpression = aws.String("#orderKey")
		page, _, pageErr = s.readIndex(ctx, in, false)
		if len(page) > q.Limit {
			page, more = page[:q.Limit], true
		}
	}()
	if q.CountBefore && q.After != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in, err := s.indexQuery(q.AccountID, key, q.After, true)
			if err != nil {
				bErr = err
				return
			}
			in.Select = types.SelectCount
			before, bErr = countAll(ctx, s.table, in)
		}()
	}
	wg.Wait()
	for _, err := range []error{stateErr, pageErr, bErr} {
		if err != nil {
			return Found{}, err
		}
	}
	if !state.ready {
		return s.searchByScan(ctx, q, []string{key})
	}
	orderKeys := make([]string, len(page))
	for i, it := range page {
		orderKeys[i] = it.SK
	}
	entries, err := s.contactsAt(ctx, q.AccountID, orderKeys, []string{key})
	return Found{PageResult: PageResult{Entries: entries, More: more}, Total: state.counts[key], Before: before}, err
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
		rest               map[string]types.AttributeValue
		stateErr, itemsErr error
	)
	wg.Add(1)
	go func() { defer wg.Done(); state, stateErr = s.readState(ctx, q.AccountID, parts) }()
	wg.Add(1)
	go func() {
		defer wg.Done()
		in, err := s.indexQuery(q.AccountID, guess, "", false)
		if err != nil {
			itemsErr = err
			return
		}
		items, rest, itemsErr = s.readIndex(ctx, in, false)
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
		in, err := s.indexQuery(q.AccountID, rarest, "", false)
		if err != nil {
			return Found{}, err
		}
		if rarest == guess {
			in.ExclusiveStartKey = rest
		} else {
			items = nil
		}
		further, _, err := s.readIndex(ctx, in, true)
		if err != nil {
			return Found{}, err
		}
		items = append(items, further...)
	}
	var matches []string
	for _, it := range items {
		if it.matchesAll(keys) {
			matches = append(matches, it.SK)
		}
	}
	f := pageOf(matches, q)
	entries, err := s.contactsAt(ctx, q.AccountID, f.orderKeys, keys)
	f.Entries = entries
	return f.Found, err
}

// searchByScan answers a search by reading every contact of the account:
// what searches do until the account is indexed.
func (s *Contacts) searchByScan(ctx context.Context, q Search, keys []string) (Found, error) {
	var matches []string
	byOrder := map[string]Contact{}
	pages, err := s.listPages(q.AccountID)
	if err != nil {
		return Found{}, err
	}
	for {
		items, ok, err := pages.next(ctx)
		if err != nil {
			return Found{}, err
		}
		if !ok {
			break
		}
		for _, it := range items {
			if termsOf(it.Contact).matchesAll(keys) {
				matches = append(matches, it.GSI1SK)
				byOrder[it.GSI1SK] = it.Contact
			}
		}
	}
	f := pageOf(matches, q)
	for _, ok := range f.orderKeys {
		f.Entries = append(f.Entries, Entry{Contact: byOrder[ok], OrderKey: ok})
	}
	return f.Found, nil
}

// foundPage is a search's answer but for its contacts: the order keys of
// the page's matches.
type foundPage struct {
	Found
	orderKeys []string
}

// pageOf is the page of q among all matches (order keys, in list order).
func pageOf(matches []string, q Search) foundPage {
	f := foundPage{Found: Found{Total: len(matches)}}
	if q.After != "" {
		f.Before = sort.SearchStrings(matches, q.After+"\x00") // matches <= After
	}
	after := matches[f.Before:]
	f.orderKeys = after[:min(q.Limit, len(after))]
	f.More = len(after) > q.Limit
	return f
}

// contactsAt reads the contacts at orderKeys and returns them in that
// order. A contact that is gone, has moved, or no longer matches keys (an
// index item a concurrent write is about to delete) is skipped.
func (s *Contacts) contactsAt(ctx context.Context, accountID string, orderKeys []string, keys []string) ([]Entry, error) {
	ks := make([]storage.Key, len(orderKeys))
	for i, ok := range orderKeys {
		ks[i] = contactKey(accountID, idOf(ok))
	}
	items, err := storage.BatchGet[listedContact](ctx, s.table, ks)
	if err != nil {
		return nil, err
	}
	byOrder := make(map[string]Contact, len(items))
	for _, it := range items {
		byOrder[it.GSI1SK] = it.Contact
	}
	entries := make([]Entry, 0, len(orderKeys))
	for _, ok := range orderKeys {
		if c, found := byOrder[ok]; found && termsOf(c).matchesAll(keys) {
			entries = append(entries, Entry{Contact: c, OrderKey: ok})
		}
	}
	return entries, nil
}

// indexState is what a search reads besides the index items: whether the
// account is indexed, and the counters of some keys.
type indexState struct {
	ready  bool
	counts map[string]int
}

// stateItem decodes a counter or the account's total item.
type stateItem struct {
	storage.Key
	Count       int `dynamodbav:"n"`
	SearchIndex int `dynamodbav:"searchIndex"`
}

func (s *Contacts) readState(ctx context.Context, accountID string, keys []string) (indexState, error) {
	total := totalKey(accountID)
	ks := []storage.Key{total}
	for _, k := range keys {
		ks = append(ks, counterKey(accountID, k))
	}
	items, err := storage.BatchGet[stateItem](ctx, s.table, ks)
	if err != nil {
		return indexState{}, err
	}
	st := indexState{counts: make(map[string]int, len(keys))}
	for _, it := range items {
		if it.Key == total {
			st.ready = it.SearchIndex == indexVersion
		} else {
			st.counts[it.SK] = it.Count
		}
	}
	return st, nil
}

// indexQuery builds a query of a key's partition, in list order, after the
// cursor bound (upTo false) or up to and including it (upTo true).
func (s *Contacts) indexQuery(accountID, key, bound string, upTo bool) (*dynamodb.QueryInput, error) {
	in, err := s.rangeQuery(storage.AttrPK, storage.AttrSK, indexPK(accountID, key), bound, upTo)
	if err != nil {
		return nil, err
	}
	in.ConsistentRead = aws.Bool(true)
	return in, nil
}

// readIndex runs a query of the index: one call, or (all) to its end. It
// returns where the read stopped (nil: at the end).
func (s *Contacts) readIndex(ctx context.Context, in *dynamodb.QueryInput, all bool) ([]indexItem, map[string]types.AttributeValue, error) {
	var items []indexItem
	for {
		out, err := s.table.DB.Query(ctx, in)
		if err != nil {
			return nil, nil, err
		}
		var page []indexItem
		if err := attributevalue.UnmarshalListOfMaps(out.Items, &page); err != nil {
			return nil, nil, fmt.Errorf("decode search index: %w", err)
		}
		items = append(items, page...)
		if out.LastEvaluatedKey == nil || !all {
			return items, out.LastEvaluatedKey, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}
