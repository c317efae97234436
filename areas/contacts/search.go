package contacts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// Bounds of an advanced search, the public API's where it states them.
const (
	defaultPageLimit  = 20
	maxPageLimit      = 500
	maxPagedResults   = 10_000 // page × pageLimit; further on, searchAfter
	maxSearchQueryLen = 75
	maxFilterValueLen = 75
	maxConditions     = 50
	maxGroupDepth     = 2
	maxSortKeys       = 3
)

// searchBody is the body of POST /contacts/search. The published schema
// (SearchBodyV2DTO) declares no property; these are the public API's
// documented ones.
type searchBody struct {
	LocationID  *string            `json:"locationId"`
	Page        *int               `json:"page"`
	PageLimit   *int               `json:"pageLimit"`
	SearchAfter *[]json.RawMessage `json:"searchAfter"`
	Query       *string            `json:"query"`
	Filters     *[]json.RawMessage `json:"filters"`
	Sort        *[]sortBody        `json:"sort"`

	search contactstore.AdvancedSearch // once checked
}

type sortBody struct {
	Field     *string `json:"field"`
	Direction *string `json:"direction"`
}

type filterBody struct {
	Field    *string         `json:"field"`
	Operator *string         `json:"operator"`
	Value    json.RawMessage `json:"value"`
}

type groupBody struct {
	Group   *string            `json:"group"`
	Filters *[]json.RawMessage `json:"filters"`
}

type rangeBody struct {
	GT  json.RawMessage `json:"gt"`
	GTE json.RawMessage `json:"gte"`
	LT  json.RawMessage `json:"lt"`
	LTE json.RawMessage `json:"lte"`
}

func (b *searchBody) check(v *validate.Errors) {
	q := &b.search
	if v.Required("locationId", b.LocationID) && v.ID("locationId", *b.LocationID) {
		q.AccountID = *b.LocationID
	}
	page, limit := 1, defaultPageLimit
	if b.Page != nil && v.Check(*b.Page >= 1, "page must be a whole number from 1") {
		page = *b.Page
	}
	if b.PageLimit != nil && v.Check(*b.PageLimit >= 1 && *b.PageLimit <= maxPageLimit, fmt.Sprintf("pageLimit must be a whole number from 1 to %d", maxPageLimit)) {
		limit = *b.PageLimit
	}
	v.Check(page*limit <= maxPagedResults, fmt.Sprintf("page × pageLimit must be at most %d: page further with searchAfter", maxPagedResults))
	q.Offset, q.Limit = (page-1)*limit, limit
	if b.Query != nil {
		query := strings.TrimSpace(*b.Query)
		if msg := validate.TextProblem("query", query); msg != "" {
			v.Add(msg)
		} else if v.MaxLen("query", query, maxSearchQueryLen) {
			q.Query = query
		}
	}
	if b.Filters != nil {
		n := 0
		q.Conditions = readConditions(v, "filters", *b.Filters, 1, &n)
		v.Check(n <= maxConditions, fmt.Sprintf("filters must hold at most %d conditions in all", maxConditions))
	}
	if b.Sort != nil {
		q.Sort = readSort(v, *b.Sort)
	}
	if b.SearchAfter != nil {
		v.Check(b.Page == nil || *b.Page == 1, "page must be left out with searchAfter (searchAfter already says where the page starts)")
		q.After = readSearchAfter(v, *b.SearchAfter, q.Sort)
	}
}

// readConditions reads a list of filters and groups at depth.
func readConditions(v *validate.Errors, field string, raws []json.RawMessage, depth int, n *int) []contactstore.Condition {
	var out []contactstore.Condition
	for i, raw := range raws {
		at := fmt.Sprintf("%s[%d]", field, i)
		var probe map[string]json.RawMessage
		if err := httpio.DecodeValue(raw, at, &probe); err != nil {
			v.Merge(err)
			continue
		}
		_, group := probe["group"]
		_, nested := probe["filters"]
		if group || nested { // a group, whose group may be missing
			var g groupBody
			if err := httpio.DecodeValue(raw, at, &g); err != nil {
				v.Merge(err)
				continue
			}
			if c, ok := readGroup(v, at, g, depth, n); ok {
				out = append(out, c)
			}
			continue
		}
		var f filterBody
		if err := httpio.DecodeValue(raw, at, &f); err != nil {
			v.Merge(err)
			continue
		}
		*n++
		if c, ok := readFilter(v, at, f); ok {
			out = append(out, c)
		}
	}
	return out
}

func readGroup(v *validate.Errors, at string, g groupBody, depth int, n *int) (contactstore.Condition, bool) {
	ok := v.RequiredOneOf(at+".group", g.Group, "AND", "OR")
	if !v.Check(depth < maxGroupDepth+1, fmt.Sprintf("%s: groups nest at most %d deep", at, maxGroupDepth)) {
		return contactstore.Condition{}, false
	}
	if !validate.RequiredPresent(v, at+".filters", g.Filters) || !v.Check(len(*g.Filters) > 0, at+".filters must hold at least one filter") {
		return contactstore.Condition{}, false
	}
	inner := readConditions(v, at+".filters", *g.Filters, depth+1, n)
	if !ok || len(inner) != len(*g.Filters) {
		return contactstore.Condition{}, false
	}
	return contactstore.Condition{Group: *g.Group, Conditions: inner}, true
}

// readFilter reads one filter: a field the search knows, an operator its
// kind takes, and the value that operator needs.
func readFilter(v *validate.Errors, at string, f filterBody) (contactstore.Condition, bool) {
	if !v.Required(at+".field", f.Field) {
		return contactstore.Condition{}, false
	}
	field, known := contactstore.FieldNamed(*f.Field)
	if !known {
		v.Addf("%s.field: %q is not a field the search knows; it knows %s", at, clipText(*f.Field), strings.Join(contactstore.SearchFieldNames(false), ", "))
		return contactstore.Condition{}, false
	}
	ops := contactstore.OperatorsOf[field.Kind]
	if !v.Required(at+".operator", f.Operator) {
		return contactstore.Condition{}, false
	}
	if !slices.Contains(ops, *f.Operator) {
		v.Addf("%s.operator: %q is not supported on %s (a %s field); the operators it takes are %s", at, clipText(*f.Operator), field.Name, field.Kind, strings.Join(ops, ", "))
		return contactstore.Condition{}, false
	}
	c := contactstore.Condition{Field: field, Operator: *f.Operator}
	value := bytes.TrimSpace(f.Value)
	present := len(value) > 0 && string(value) != "null"
	switch {
	case c.Operator == contactstore.OpExists || c.Operator == contactstore.OpNotExists:
		return c, v.Check(!present, fmt.Sprintf("%s.value must be left out: %s takes none", at, c.Operator))
	case c.Operator == contactstore.OpRange:
		return readRange(v, at, value, c)
	case field.Kind == contactstore.KindBool:
		return c, v.Check(present && json.Unmarshal(value, &c.Bool) == nil, fmt.Sprintf("%s.value must be true or false", at))
	}
	var s string
	if !v.Check(present && json.Unmarshal(value, &s) == nil, fmt.Sprintf("%s.value must be a string", at)) {
		return c, false
	}
	s = strings.TrimSpace(s)
	if msg := validate.TextProblem(at+".value", s); msg != "" {
		v.Add(msg)
		return c, false
	}
	c.Text = s
	return c, v.Check(s != "", at+".value must not be empty") && v.MaxLen(at+".value", s, maxFilterValueLen)
}

// readRange reads a range's bounds: gt or gte, lt or lte, each a date
// (YYYY-MM-DD), a time (RFC 3339) or epoch milliseconds.
func readRange(v *validate.Errors, at string, raw []byte, c contactstore.Condition) (contactstore.Condition, bool) {
	var r rangeBody
	if len(raw) == 0 || string(raw) == "null" {
		v.Addf("%s.value is required: an object of gt or gte, and lt or lte", at)
		return c, false
	}
	if err := httpio.DecodeValue(raw, at+".value", &r); err != nil {
		v.Merge(err)
		return c, false
	}
	ok := true
	bound := func(name string, b json.RawMessage) (time.Time, bool) {
		if len(b) == 0 {
			return time.Time{}, false
		}
		t, problem := boundTime(b)
		if problem != "" {
			v.Addf("%s.value.%s %s", at, name, problem)
			ok = false
		}
		return t, problem == ""
	}
	gt, hasGT := bound("gt", r.GT)
	gte, hasGTE := bound("gte", r.GTE)
	lt, hasLT := bound("lt", r.LT)
	lte, hasLTE := bound("lte", r.LTE)
	v.Check(!(len(r.GT) > 0 && len(r.GTE) > 0) && !(len(r.LT) > 0 && len(r.LTE) > 0), at+".value may give gt or gte, and lt or lte, not both of a pair")
	v.Check(len(r.GT)+len(r.GTE)+len(r.LT)+len(r.LTE) > 0, at+".value must give gt, gte, lt or lte")
	switch {
	case hasGT:
		c.From = gt
	case hasGTE:
		c.From, c.FromIncl = gte, true
	}
	switch {
	case hasLT:
		c.To = lt
	case hasLTE:
		c.To, c.ToIncl = lte, true
	}
	return c, ok
}

// boundTime reads a range bound.
func boundTime(raw json.RawMessage) (time.Time, string) {
	const problem = "must be a date (YYYY-MM-DD), a time (RFC 3339) or epoch milliseconds"
	var ms int64
	if json.Unmarshal(raw, &ms) == nil {
		if ms < 0 || ms > 9_999_999_999_999 {
			return time.Time{}, problem
		}
		return time.UnixMilli(ms).UTC(), ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return time.Time{}, problem
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, ""
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, ""
	}
	return time.Time{}, problem
}

func readSort(v *validate.Errors, list []sortBody) []contactstore.SortKey {
	if !v.Check(len(list) <= maxSortKeys, fmt.Sprintf("sort must list at most %d fields", maxSortKeys)) {
		return nil
	}
	var keys []contactstore.SortKey
	for i, s := range list {
		at := fmt.Sprintf("sort[%d]", i)
		if !v.Required(at+".field", s.Field) {
			continue
		}
		field, known := contactstore.FieldNamed(*s.Field)
		if !known || !field.Sortable {
			v.Addf("%s.field: %q is not a field the search sorts by; it sorts by %s", at, clipText(*s.Field), strings.Join(contactstore.SearchFieldNames(true), ", "))
			continue
		}
		desc := false
		if s.Direction != nil && v.OneOf(at+".direction", *s.Direction, "asc", "desc") {
			desc = *s.Direction == "desc"
		}
		keys = append(keys, contactstore.SortKey{Field: field, Desc: desc})
	}
	return keys
}

// readSearchAfter reads the searchAfter of a result: one value per sort
// key (epoch milliseconds for a date, text otherwise), then the date added
// in epoch milliseconds and the id.
func readSearchAfter(v *validate.Errors, raws []json.RawMessage, keys []contactstore.SortKey) []any {
	problem := fmt.Sprintf("searchAfter must be the searchAfter of the last contact of the previous page, sent with the same sort: %d values", len(keys)+2)
	if !v.Check(len(raws) == len(keys)+2, problem) {
		return nil
	}
	out := make([]any, len(raws))
	for i, raw := range raws {
		number := i == len(keys) || i < len(keys) && keys[i].Field.Kind == contactstore.KindDate
		var ms int64
		var s string
		switch {
		case number && json.Unmarshal(raw, &ms) == nil:
			out[i] = ms
		case !number && json.Unmarshal(raw, &s) == nil && len(s) <= 200:
			out[i] = strings.ToLower(s)
			if i == len(keys)+1 {
				out[i] = s // the id, as it is
			}
		default:
			v.Add(problem)
			return nil
		}
	}
	return out
}

// clipText shortens a value quoted in a message.
func clipText(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

type searchHit struct {
	contactView
	SearchAfter []any `json:"searchAfter"`
}

type searchAnswer struct {
	Contacts []searchHit `json:"contacts"`
	Total    int         `json:"total"`
}

// searchContactsAdvanced answers a page of the account's contacts that
// hold every filter and match the query, sorted, with their total
// (contactstore.SearchAdvanced says what it reads).
func (h *handler) searchContactsAdvanced(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	var body searchBody
	in.Body(&body, body.check)
	if _, err := in.Account(body.LocationID); err != nil {
		return err
	}
	res, err := h.store.SearchAdvanced(r.Context(), body.search)
	var tooMany *contactstore.ErrTooManyToScan
	if errors.As(err, &tooMany) {
		return apierror.Invalid(fmt.Sprintf("filters: this search would judge %d contacts one by one (those of its narrowest condition the index serves, or every contact when none is), and a search judges at most %d: add a query, or a filter eq on tags, dnd (true), email, phone, firstName, lastName or name, that finds fewer", tooMany.Contacts, contactstore.MaxScanned))
	}
	if err != nil {
		return err
	}
	answer := searchAnswer{Contacts: make([]searchHit, len(res.Hits)), Total: res.Total}
	for i, hit := range res.Hits {
		answer.Contacts[i] = searchHit{contactView: viewOf(hit.Record), SearchAfter: hit.SortValues}
	}
	return httpio.WriteJSON(w, http.StatusOK, answer)
}
