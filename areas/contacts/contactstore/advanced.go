package contactstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bizplatform/api/shared/storage"
)

// The advanced search (POST /contacts/search): conditions on a contact's
// stored fields, grouped under AND and OR, with the list's free-text query,
// sorted and paged. It reads the index where one of its conditions is
// served by one (a query word, a tag, do-not-disturb, an exact e-mail,
// phone or name): the partition of the condition that the counters show
// the rarest, whose items carry the records, which are then judged against
// every condition. A search with no such condition reads the account's
// contacts, up to MaxScanned of them.

// Kinds of searchable field, which decide the operators they take.
const (
	KindText = "text"
	KindTags = "tags"
	KindBool = "boolean"
	KindDate = "date"
)

// Operators, as the public API names them.
const (
	OpEq          = "eq"
	OpNotEq       = "not_eq"
	OpContains    = "contains"
	OpNotContains = "not_contains"
	OpExists      = "exists"
	OpNotExists   = "not_exists"
	OpRange       = "range"
)

// OperatorsOf are the operators a kind of field takes.
var OperatorsOf = map[string][]string{
	KindText: {OpEq, OpNotEq, OpContains, OpNotContains, OpExists, OpNotExists},
	KindTags: {OpEq, OpNotEq, OpContains, OpNotContains, OpExists, OpNotExists},
	KindBool: {OpEq, OpNotEq},
	KindDate: {OpRange, OpExists, OpNotExists},
}

// SearchField is a field a search may filter and sort on.
type SearchField struct {
	Name string
	Kind string
	// Sortable: a search may sort by it (text and dates).
	Sortable bool
	// text is the field's value for text, and date fields (a timestamp or
	// a date); tags and dnd have their own.
	text func(r Record) string
}

// searchFields are the searchable fields by name, the public API's names
// and their lower-cased twins (firstNameLowerCase); customFields.<id> are
// the custom fields' values, text.
var searchFields = func() map[string]SearchField {
	text := func(name string, sortable bool, get func(Record) string) SearchField {
		return SearchField{Name: name, Kind: KindText, Sortable: sortable, text: get}
	}
	fs := []SearchField{
		text("id", false, func(r Record) string { return r.ID }),
		text("firstName", true, func(r Record) string { return r.FirstName }),
		text("lastName", true, func(r Record) string { return r.LastName }),
		text("name", true, func(r Record) string { return r.ContactName }),
		text("email", true, func(r Record) string { return r.Email }),
		text("phone", false, func(r Record) string { return r.Phone }),
		text("companyName", true, func(r Record) string { return r.CompanyName }),
		text("address1", false, func(r Record) string { return r.Address1 }),
		text("city", true, func(r Record) string { return r.City }),
		text("state", true, func(r Record) string { return r.State }),
		text("postalCode", true, func(r Record) string { return r.PostalCode }),
		text("country", true, func(r Record) string { return r.Country }),
		text("timezone", false, func(r Record) string { return r.Timezone }),
		text("source", true, func(r Record) string { return r.Source }),
		text("website", false, func(r Record) string { return r.Website }),
		text("gender", false, func(r Record) string { return r.Gender }),
		text("assignedTo", false, func(r Record) string { return r.AssignedTo }),
		text("businessId", false, func(r Record) string { return r.BusinessID }),
		{Name: "tags", Kind: KindTags},
		{Name: "dnd", Kind: KindBool},
		{Name: "dateAdded", Kind: KindDate, Sortable: true, text: func(r Record) string { return r.DateAdded }},
		{Name: "dateUpdated", Kind: KindDate, Sortable: true, text: func(r Record) string { return r.DateUpdated }},
		{Name: "dateOfBirth", Kind: KindDate, Sortable: true, text: func(r Record) string { return r.DateOfBirth }},
	}
	m := map[string]SearchField{}
	for _, f := range fs {
		m[f.Name] = f
	}
	for twin, of := range map[string]string{
		"firstNameLowerCase": "firstName", "lastNameLowerCase": "lastName", "fullNameLowerCase": "name",
		"contactName": "name", "emailLowerCase": "email", "address": "address1",
	} {
		f := m[of]
		f.Name = twin
		m[twin] = f
	}
	return m
}()

// customFieldPrefix names a custom field's value: customFields.<field id>.
const customFieldPrefix = "customFields."

// FieldNamed returns the searchable field of that name.
func FieldNamed(name string) (SearchField, bool) {
	if id, ok := strings.CutPrefix(name, customFieldPrefix); ok && id != "" && len(id) <= 64 {
		return SearchField{Name: name, Kind: KindText, text: func(r Record) string {
			for _, cv := range r.CustomFields {
				if cv.ID == id {
					return cv.Value
				}
			}
			return ""
		}}, true
	}
	f, ok := searchFields[name]
	return f, ok
}

// SearchFieldNames are the searchable fields' names, sorted (and the
// custom fields' form), for messages that list them.
func SearchFieldNames(sortable bool) []string {
	var names []string
	for n, f := range searchFields {
		if !sortable || f.Sortable {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	if !sortable {
		names = append(names, customFieldPrefix+"<field id>")
	}
	return names
}

// Condition is one filter, or a group of them (Group "AND" or "OR").
type Condition struct {
	Field    SearchField
	Operator string
	// Text is the value of eq, not_eq, contains and not_contains on text
	// and tags; Bool of eq and not_eq on booleans; From/To the bounds of a
	// range (zero: unbounded), with FromIncl/ToIncl.
	Text             string
	Bool             bool
	From, To         time.Time
	FromIncl, ToIncl bool

	Group      string
	Conditions []Condition
}

// SortKey orders the results by a field.
type SortKey struct {
	Field SearchField
	Desc  bool
}

// AdvancedSearch is a search's request, checked.
type AdvancedSearch struct {
	AccountID  string
	Query      string
	Conditions []Condition // all must hold
	Sort       []SortKey   // then the list's order
	// Offset and Limit page the results; After, when set, starts after the
	// result whose sort values it holds (the last of the previous page's
	// SortValues).
	Offset, Limit int
	After         []any
}

// Hit is one result and its sort values (what After takes back).
type Hit struct {
	Record     Record
	SortValues []any
}

// AdvancedResult is a page of results and their total.
type AdvancedResult struct {
	Hits  []Hit
	Total int
}

// MaxScanned bounds the contacts a search judges one by one: those of the
// partition of its rarest indexed condition, or, with none, the account's.
const MaxScanned = 10_000

// ErrTooManyToScan says a search would judge more than MaxScanned
// contacts: it needs a narrower condition the index serves.
type ErrTooManyToScan struct{ Contacts int }

func (e *ErrTooManyToScan) Error() string {
	return fmt.Sprintf("more than %d contacts to read", MaxScanned)
}

// SearchAdvanced answers a search.
func (s *Contacts) SearchAdvanced(ctx context.Context, q AdvancedSearch) (AdvancedResult, error) {
	return s.searchAdvanced(ctx, q, true)
}

// searchAdvanced answers a search, a page of one key's partition when it
// is one and paging allows it.
func (s *Contacts) searchAdvanced(ctx context.Context, q AdvancedSearch, paging bool) (AdvancedResult, error) {
	keys := queryKeys(q.Query)
	served := indexedKeys(q.Conditions)
	for _, k := range keys {
		if ik := indexKey(k); !slices.Contains(served, ik) {
			served = append(served, ik)
		}
	}
	if key, ok := pageableKey(q, keys, served); ok && paging {
		return s.searchPage(ctx, q, key)
	}
	var (
		candidates []entry
		err        error
	)
	if len(served) > 0 {
		candidates, err = s.readRarest(ctx, q.AccountID, served)
	}
	if len(served) == 0 || err == errNotReady {
		candidates, err = s.readAll(ctx, q.AccountID)
	}
	if err != nil {
		return AdvancedResult{}, err
	}
	var hits []Hit
	seen := map[string]bool{} // one item per contact, even read from a replica a transaction has half reached
	for _, e := range candidates {
		r := e.record
		if seen[r.ID] || len(keys) > 0 && !termsOf(r.Contact).matchesAll(keys) || !allHold(q.Conditions, r) {
			continue
		}
		seen[r.ID] = true
		hits = append(hits, Hit{Record: r, SortValues: sortValues(q.Sort, r, e.OrderKey)})
	}
	slices.SortFunc(hits, func(a, b Hit) int { return compareValues(q.Sort, a.SortValues, b.SortValues) })
	res := AdvancedResult{Total: len(hits)}
	start := min(q.Offset, len(hits))
	if q.After != nil {
		start = sort.Search(len(hits), func(i int) bool { return compareValues(q.Sort, hits[i].SortValues, q.After) > 0 })
	}
	res.Hits = hits[start:min(start+q.Limit, len(hits))]
	return res, nil
}

// pageableKey reports whether the search is one exact key of the index in
// the list's order (a tag, do-not-disturb, or one query word shorter than
// maxKeyLen, with no other condition and no sort): its page is then a page
// of the key's partition, and its total the key's counter.
func pageableKey(q AdvancedSearch, keys, served []string) (string, bool) {
	if len(q.Sort) > 0 || len(served) != 1 {
		return "", false
	}
	switch {
	case len(keys) == 1 && len(q.Conditions) == 0 && exactKey(keys[0]):
		return keys[0], true
	case len(keys) == 0 && len(q.Conditions) == 1 && strings.HasPrefix(served[0], " "):
		return served[0], true // a field key: exactly the contacts having it
	}
	return "", false
}

// searchPage answers a search of one exact key: the key's counter and the
// account's, and the page of the key's partition, read at once.
func (s *Contacts) searchPage(ctx context.Context, q AdvancedSearch, key string) (AdvancedResult, error) {
	after := ""
	if q.After != nil {
		after, _ = q.After[1].(string) // the default sort's values: dateAdded, id
		ms, _ := q.After[0].(int64)
		after = OrderKey(ms, after)
	}
	var (
		wg                sync.WaitGroup
		state             indexState
		page              []indexItem
		stateErr, pageErr error
	)
	wg.Add(2)
	go func() { // not wg.Go: see searchWord
		defer wg.Done()
		state, stateErr = s.readState(ctx, q.AccountID, []string{key})
	}()
	go func() {
		defer wg.Done()
		skip := q.Offset
		if after != "" {
			skip = 0
		}
		// The items before the page and the page itself, read on past a
		// Query's 1 MB when a far page needs it.
		want := skip + q.Limit
		var start storage.Cursor
		for len(page) < want {
			var items []indexItem
			items, start, pageErr = storage.QueryPage[indexItem](ctx, s.table, indexQuery(q.AccountID, key, after, false), int32(want-len(page)), start)
			page = append(page, items...)
			if pageErr != nil || start == nil {
				break
			}
		}
		page = page[min(skip, len(page)):]
	}()
	wg.Wait()
	if stateErr != nil {
		return AdvancedResult{}, stateErr
	}
	if pageErr != nil {
		return AdvancedResult{}, pageErr
	}
	if !state.ready {
		return s.searchAdvanced(ctx, q, false)
	}
	res := AdvancedResult{Total: state.counts[key]}
	for _, it := range page {
		res.Hits = append(res.Hits, Hit{Record: it.Record, SortValues: sortValues(nil, it.Record, it.SK)})
	}
	return res, nil
}

// entry is a candidate: a record and its list-order key.
type entry struct {
	record   Record
	OrderKey string
}

var errNotReady = fmt.Errorf("the account is not indexed yet")

// readRarest reads the whole partition of the rarest of keys, by their
// counters (eventually consistent, as the list's search reads them).
func (s *Contacts) readRarest(ctx context.Context, accountID string, keys []string) ([]entry, error) {
	state, err := s.readState(ctx, accountID, keys)
	if err != nil {
		return nil, err
	}
	if !state.ready {
		return nil, errNotReady
	}
	rarest := keys[0]
	for _, k := range keys {
		if state.counts[k] < state.counts[rarest] {
			rarest = k
		}
	}
	switch n := state.counts[rarest]; {
	case n == 0:
		return nil, nil
	case n > MaxScanned:
		return nil, &ErrTooManyToScan{Contacts: n}
	}
	var out []entry
	var start storage.Cursor
	for read := true; read; read = start != nil {
		items, next, err := storage.QueryPage[indexItem](ctx, s.table, indexQuery(accountID, rarest, "", false), wholePartition, start)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			out = append(out, entry{record: it.Record, OrderKey: it.SK})
		}
		start = next
	}
	return out, nil
}

// listedRecord is what a search reads of a contact item from the list
// index: its record and place.
type listedRecord struct {
	GSI1SK string `dynamodbav:"GSI1SK"`
	Record
}

// readAll reads every contact of the account, in list order, from the
// list index (eventually consistent), up to MaxScanned.
func (s *Contacts) readAll(ctx context.Context, accountID string) ([]entry, error) {
	if n, ready, err := s.Total(ctx, accountID); err != nil {
		return nil, err
	} else if ready && n > MaxScanned {
		return nil, &ErrTooManyToScan{Contacts: n}
	}
	pages, err := storage.NewPages[listedRecord](s.table, listQuery(accountID, "", false), walkPage)
	if err != nil {
		return nil, err
	}
	var out []entry
	for {
		items, ok, err := pages.Next(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		for _, it := range items {
			out = append(out, entry{record: it.Record, OrderKey: it.GSI1SK})
		}
		if len(out) > MaxScanned {
			return nil, &ErrTooManyToScan{Contacts: len(out)}
		}
	}
}

// indexedKeys are the index keys of the conditions that must all hold and
// that the index serves: each names a partition holding every contact the
// condition finds.
func indexedKeys(cs []Condition) []string {
	var keys []string
	for _, c := range cs {
		if c.Group != "" {
			if c.Group == "AND" {
				keys = append(keys, indexedKeys(c.Conditions)...)
			}
			continue
		}
		if k := indexedKey(c); k != "" && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// indexedKey is the index key serving c, or "".
func indexedKey(c Condition) string {
	if c.Operator != OpEq {
		return ""
	}
	switch c.Field.Kind {
	case KindTags:
		return TagKey(c.Text)
	case KindBool:
		if c.Bool {
			return dndKey
		}
		return ""
	}
	var word string
	switch c.Field.Name {
	case "email", "emailLowerCase":
		word = EmailKey(c.Text)
	case "phone":
		word = PhoneKey(c.Text)
	case "firstName", "lastName", "name", "firstNameLowerCase", "lastNameLowerCase", "fullNameLowerCase", "contactName":
		if ws := strings.Fields(strings.ToLower(c.Text)); len(ws) > 0 {
			word = ws[0]
		}
	}
	if word == "" {
		return ""
	}
	return indexKey(word)
}

// allHold reports whether every condition holds for r.
func allHold(cs []Condition, r Record) bool {
	for _, c := range cs {
		if !holds(c, r) {
			return false
		}
	}
	return true
}

// holds reports whether c holds for r.
func holds(c Condition, r Record) bool {
	if c.Group != "" {
		if c.Group == "AND" {
			return allHold(c.Conditions, r)
		}
		return slices.ContainsFunc(c.Conditions, func(sub Condition) bool { return holds(sub, r) })
	}
	switch c.Field.Kind {
	case KindTags:
		return tagsHold(c, r.Tags)
	case KindBool:
		return (r.DND == c.Bool) == (c.Operator == OpEq)
	case KindDate:
		return dateHolds(c, c.Field.text(r))
	}
	return textHolds(c, c.Field.text(r))
}

// textHolds judges a text condition, without case (a phone by its
// digits).
func textHolds(c Condition, v string) bool {
	have, want := strings.ToLower(strings.TrimSpace(v)), strings.ToLower(c.Text)
	if c.Field.Name == "phone" && c.Operator != OpContains && c.Operator != OpNotContains {
		have, want = PhoneKey(have), PhoneKey(want)
	}
	switch c.Operator {
	case OpEq:
		return have == want
	case OpNotEq:
		return have != want
	case OpContains:
		return strings.Contains(have, want)
	case OpNotContains:
		return !strings.Contains(have, want)
	case OpExists:
		return have != ""
	default: // OpNotExists
		return have == ""
	}
}

// tagsHold judges a condition on the tags: eq a contact having the tag,
// contains one of its tags containing the text.
func tagsHold(c Condition, tags []string) bool {
	want := strings.ToLower(c.Text)
	has := func(match func(string) bool) bool {
		return slices.ContainsFunc(tags, func(t string) bool { return match(strings.ToLower(t)) })
	}
	switch c.Operator {
	case OpEq:
		return has(func(t string) bool { return t == want })
	case OpNotEq:
		return !has(func(t string) bool { return t == want })
	case OpContains:
		return has(func(t string) bool { return strings.Contains(t, want) })
	case OpNotContains:
		return !has(func(t string) bool { return strings.Contains(t, want) })
	case OpExists:
		return len(tags) > 0
	default: // OpNotExists
		return len(tags) == 0
	}
}

// dateHolds judges a condition on a date field (a timestamp, or a date of
// birth YYYY-MM-DD).
func dateHolds(c Condition, v string) bool {
	switch c.Operator {
	case OpExists:
		return v != ""
	case OpNotExists:
		return v == ""
	}
	t, ok := parseStoredTime(v)
	if !ok {
		return false
	}
	if !c.From.IsZero() && (t.Before(c.From) || !c.FromIncl && t.Equal(c.From)) {
		return false
	}
	return c.To.IsZero() || t.Before(c.To) || c.ToIncl && t.Equal(c.To)
}

// parseStoredTime reads a stored timestamp or date.
func parseStoredTime(v string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, true
	}
	t, err := time.Parse("2006-01-02", v)
	return t, err == nil
}

// sortValues are r's values of the sort keys, then (the list's order) its
// date added in epoch milliseconds and its id. Text is compared lower-cased;
// dates as epoch milliseconds (a missing one as -1).
func sortValues(keys []SortKey, r Record, orderKey string) []any {
	out := make([]any, 0, len(keys)+2)
	for _, k := range keys {
		v := k.Field.text(r)
		if k.Field.Kind == KindDate {
			ms := int64(-1)
			if t, ok := parseStoredTime(v); ok {
				ms = t.UnixMilli()
			}
			out = append(out, ms)
			continue
		}
		out = append(out, strings.ToLower(v))
	}
	ms, _ := strconv.ParseInt(orderKey[:13], 10, 64)
	return append(out, ms, r.ID)
}

// compareValues orders two results by their sort values (each key in its
// direction, then the list's order).
func compareValues(keys []SortKey, a, b []any) int {
	for i := range min(len(a), len(b)) {
		c := compareAny(a[i], b[i])
		if i < len(keys) && keys[i].Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func compareAny(a, b any) int {
	switch x := a.(type) {
	case int64:
		y, ok := b.(int64)
		if !ok {
			return -1
		}
		return cmp.Compare(x, y)
	case string:
		y, ok := b.(string)
		if !ok {
			return 1
		}
		return cmp.Compare(x, y)
	}
	return 0
}
