package contacts_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
)

// advancedContacts are contacts of many shapes for the advanced search:
// names, countries, cities, tags, do-not-disturb, dates of birth and a
// custom field in cycles of different lengths, an hour apart (some at the
// same time: ties go by id).
func advancedContacts(account string) []contactstore.Record {
	start, _ := time.Parse(time.RFC3339, epoch)
	firsts, lasts := []string{"Ann", "Bea", "Cyd", "Dee"}, []string{"Lee", "Park", "Moss"}
	countries, cities := []string{"US", "DE", "GB"}, []string{"Berlin", "Bern", "Boston", "Leeds", ""}
	tagSets := [][]string{{"vip"}, {"lead"}, {"vip", "lead"}, {}, {"customer", "vip"}}
	var out []contactstore.Record
	for i := range 60 {
		r := contactstore.Record{Contact: contactstore.Contact{
			ID: fmt.Sprintf("adv%03d", i), LocationID: account, FirstName: firsts[i%4], LastName: lasts[i%3],
			ContactName: firsts[i%4] + " " + lasts[i%3], Email: fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(firsts[i%4]), strings.ToLower(lasts[i%3]), i),
			Phone: fmt.Sprintf("+1555010%04d", i), Country: countries[i%3], Tags: tagSets[i%5],
			DateAdded: start.Add(time.Duration(i/2) * time.Hour).Format("2006-01-02T15:04:05.000Z"),
		}, Details: contactstore.Details{City: cities[i%5], DND: i%6 == 0}}
		if i%4 == 1 {
			r.DateOfBirth = fmt.Sprintf("%d-0%d-1%d", 1950+i%40, 1+i%9, i%10)
		}
		if i%7 == 0 {
			r.CustomFields = []contactstore.CustomValue{{ID: "cfTier", Value: []string{"gold", "silver"}[i%2]}}
		}
		out = append(out, r)
	}
	return out
}

func seedRecords(t *testing.T, env *testenv.Env, rs []contactstore.Record) {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"contacts": rs})
	require.NoError(t, err)
	env.Seed(t, contacts.Area, string(raw))
}

// brute is the ids of rs (in the list's order) that keep holds for.
func brute(rs []contactstore.Record, keep func(r contactstore.Record) bool) []string {
	var ids []string
	for _, r := range rs {
		if keep(r) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

func has(tags []string, t string) bool { return slices.Contains(tags, t) }

func TestSearchContactsAdvancedFindsWhatItsFiltersSay(t *testing.T) {
	env, token := newEnv(t)
	all := advancedContacts(acctA)
	seedRecords(t, env, all)
	seedRecords(t, env, advancedContacts(acctB)) // never found by acctA's token
	cond := func(field, op string, value any) map[string]any {
		c := map[string]any{"field": field, "operator": op}
		if value != nil {
			c["value"] = value
		}
		return c
	}
	start, _ := time.Parse(time.RFC3339, epoch)
	for _, tc := range []struct {
		name    string
		filters []any
		query   string
		want    []string
	}{
		{"a tag", []any{cond("tags", "eq", "VIP")}, "", brute(all, func(r contactstore.Record) bool { return has(r.Tags, "vip") })},
		{"a tag and a country", []any{cond("tags", "eq", "vip"), cond("country", "eq", "de")}, "",
			brute(all, func(r contactstore.Record) bool { return has(r.Tags, "vip") && r.Country == "DE" })},
		{"a query and an OR group", []any{map[string]any{"group": "OR", "filters": []any{cond("country", "eq", "US"), cond("country", "eq", "GB")}}}, "ann",
			brute(all, func(r contactstore.Record) bool { return r.FirstName == "Ann" && r.Country != "DE" })},
		{"do not disturb", []any{cond("dnd", "eq", true)}, "", brute(all, func(r contactstore.Record) bool { return r.DND })},
		{"not do not disturb", []any{cond("dnd", "not_eq", true)}, "", brute(all, func(r contactstore.Record) bool { return !r.DND })},
		{"not a tag", []any{cond("tags", "not_eq", "lead")}, "", brute(all, func(r contactstore.Record) bool { return !has(r.Tags, "lead") })},
		{"no tag at all", []any{cond("tags", "not_exists", nil)}, "", brute(all, func(r contactstore.Record) bool { return len(r.Tags) == 0 })},
		{"a city containing a text", []any{cond("city", "contains", "BER")}, "", brute(all, func(r contactstore.Record) bool { return strings.Contains(strings.ToLower(r.City), "ber") })},
		{"a city not containing it", []any{cond("city", "not_contains", "ber")}, "", brute(all, func(r contactstore.Record) bool { return !strings.Contains(strings.ToLower(r.City), "ber") })},
		{"a date of birth known", []any{cond("dateOfBirth", "exists", nil)}, "", brute(all, func(r contactstore.Record) bool { return r.DateOfBirth != "" })},
		{"added in a range", []any{cond("dateAdded", "range", map[string]any{"gte": start.Add(5 * time.Hour).Format(time.RFC3339), "lt": start.Add(10 * time.Hour).UnixMilli()})}, "",
			brute(all, func(r contactstore.Record) bool {
				at, _ := time.Parse(time.RFC3339, r.DateAdded)
				return !at.Before(start.Add(5*time.Hour)) && at.Before(start.Add(10*time.Hour))
			})},
		{"a custom field's value", []any{cond("customFields.cfTier", "eq", "gold")}, "",
			brute(all, func(r contactstore.Record) bool { return len(r.CustomFields) > 0 && r.CustomFields[0].Value == "gold" })},
		{"an exact first name (indexed) and a city", []any{cond("firstNameLowerCase", "eq", "bea"), cond("city", "eq", "Boston")}, "",
			brute(all, func(r contactstore.Record) bool { return r.FirstName == "Bea" && r.City == "Boston" })},
		{"an exact e-mail", []any{cond("email", "eq", "DEE.MOSS11@example.com")}, "", []string{"adv011"}},
		{"an exact phone written otherwise", []any{cond("phone", "eq", "+1 555 010 0007")}, "", []string{"adv007"}},
		{"an AND group inside an OR group", []any{map[string]any{"group": "OR", "filters": []any{
			map[string]any{"group": "AND", "filters": []any{cond("tags", "eq", "customer"), cond("country", "eq", "US")}},
			cond("lastName", "eq", "moss")}}}, "",
			brute(all, func(r contactstore.Record) bool {
				return has(r.Tags, "customer") && r.Country == "US" || r.LastName == "Moss"
			})},
	} {
		t.Run(tc.name+" finds exactly its contacts, in the list's order", func(t *testing.T) {
			hits, total := search(t, env, token, map[string]any{"filters": tc.filters, "query": tc.query, "pageLimit": 100})
			assert.Equal(t, len(tc.want), total)
			assert.Equal(t, tc.want, idsOf(hits))
		})
	}

	t.Run("a sort orders the results, ties in the list's order", func(t *testing.T) {
		hits, total := search(t, env, token, map[string]any{"filters": []any{cond("dnd", "eq", true)},
			"sort": []any{map[string]any{"field": "firstName", "direction": "desc"}}, "pageLimit": 100})
		want := brute(all, func(r contactstore.Record) bool { return r.DND })
		byID := map[string]contactstore.Record{}
		for _, r := range all {
			byID[r.ID] = r
		}
		slices.SortStableFunc(want, func(a, b string) int { return strings.Compare(byID[b].FirstName, byID[a].FirstName) })
		assert.Equal(t, len(want), total)
		assert.Equal(t, want, idsOf(hits))
	})
	t.Run("pages by number and by searchAfter walk every result once", func(t *testing.T) {
		body := map[string]any{"filters": []any{cond("tags", "exists", nil)}, "sort": []any{map[string]any{"field": "dateOfBirth", "direction": "asc"}}}
		full, total := search(t, env, token, merge(body, map[string]any{"pageLimit": 100}))
		require.Equal(t, len(full), total)
		var byPage, byCursor []string
		for page := 1; len(byPage) < total; page++ {
			hits, _ := search(t, env, token, merge(body, map[string]any{"page": page, "pageLimit": 7}))
			require.NotEmpty(t, hits)
			byPage = append(byPage, idsOf(hits)...)
		}
		var after []any
		for len(byCursor) < total {
			fields := merge(body, map[string]any{"pageLimit": 7})
			if after != nil {
				fields["searchAfter"] = after
			}
			hits, _ := search(t, env, token, fields)
			require.NotEmpty(t, hits)
			byCursor = append(byCursor, idsOf(hits)...)
			after = hits[len(hits)-1].SearchAfter
		}
		assert.Equal(t, idsOf(full), byPage)
		assert.Equal(t, idsOf(full), byCursor)
	})
	t.Run("a tag's pages, read from its partition, page by searchAfter too", func(t *testing.T) {
		want := brute(all, func(r contactstore.Record) bool { return has(r.Tags, "vip") })
		var got []string
		var after []any
		for len(got) < len(want) {
			fields := map[string]any{"filters": []any{cond("tags", "eq", "vip")}, "pageLimit": 5}
			if after != nil {
				fields["searchAfter"] = after
			}
			hits, total := search(t, env, token, fields)
			require.Equal(t, len(want), total)
			require.NotEmpty(t, hits)
			got = append(got, idsOf(hits)...)
			after = hits[len(hits)-1].SearchAfter
		}
		assert.Equal(t, want, got)
	})

	for _, tc := range []struct {
		name  string
		body  map[string]any
		names []string
	}{
		{"a field the search does not know", map[string]any{"filters": []any{cond("shoeSize", "eq", "9")}},
			[]string{`filters[0].field: "shoeSize" is not a field the search knows`, "dateOfBirth", "tags"}},
		{"an operator the field does not take", map[string]any{"filters": []any{cond("firstName", "range", map[string]any{"gt": 1})}},
			[]string{`filters[0].operator: "range" is not supported on firstName`, "eq, not_eq, contains, not_contains, exists, not_exists"}},
		{"a range without bounds", map[string]any{"filters": []any{cond("dateAdded", "range", map[string]any{})}}, []string{"filters[0].value must give gt, gte, lt or lte"}},
		{"exists with a value", map[string]any{"filters": []any{cond("city", "exists", "x")}}, []string{"filters[0].value must be left out"}},
		{"dnd eq a string", map[string]any{"filters": []any{cond("dnd", "eq", "yes")}}, []string{"filters[0].value must be true or false"}},
		{"a group of neither AND nor OR", map[string]any{"filters": []any{map[string]any{"group": "XOR", "filters": []any{cond("city", "exists", nil)}}}}, []string{"filters[0].group"}},
		{"a sort by a field that does not sort", map[string]any{"sort": []any{map[string]any{"field": "phone"}}}, []string{`sort[0].field: "phone" is not a field the search sorts by`}},
		{"a page too far", map[string]any{"page": 101, "pageLimit": 100}, []string{"page × pageLimit must be at most 10000"}},
		{"searchAfter with a page", map[string]any{"page": 2, "searchAfter": []any{1, "x"}}, []string{"page must be left out with searchAfter"}},
		{"searchAfter of the wrong length", map[string]any{"searchAfter": []any{"x"}}, []string{"searchAfter must be the searchAfter"}},
		{"another account", map[string]any{"locationId": acctB}, []string{"does not have access"}},
	} {
		t.Run(tc.name+" is refused, saying what is supported", func(t *testing.T) {
			body := merge(map[string]any{"locationId": acctA}, tc.body)
			resp := env.Do(t, testenv.Request{Method: "POST", Path: "/contacts/search", Token: token, Body: body})
			status := http.StatusBadRequest
			if tc.name == "another account" {
				status = http.StatusForbidden
			}
			msg := resp.RequireError(t, status)
			for _, n := range tc.names {
				assert.Contains(t, msg, n)
			}
		})
	}
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
