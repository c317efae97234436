package contacts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

// callCost is the DynamoDB calls and sequential round trips of a request.
type callCost struct{ calls, rounds int }

// measured sends req and returns its answer and what it cost, counted at
// the client (the pipeline's admission write included).
func measured(t *testing.T, env *testenv.Env, calls *testenv.CallCounter, req testenv.Request) (*testenv.Response, callCost, string) {
	t.Helper()
	calls.TakeCalls()
	resp := env.Do(t, req)
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	taken := calls.TakeCalls()
	return resp, callCost{len(taken), testenv.RoundTrips(taken)}, testenv.Ops(taken)
}

// An account whose contacts all came through the API is indexed whole from
// its first contact: its list reads its total from the counter, and its
// search reads the index. (Before, such an account was never marked
// ready: every list counted all its contacts and every search read them
// all, a Query per 500 contacts.)
func TestAnAccountOfContactsMadeThroughTheAPIListsAndSearchesAtAFewCalls(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	env := testenv.New(t, []app.Area{contacts.Area}, testenv.WithTable(counted))
	env.Account(t, acctA, company)
	token, _ := env.Token(t, acctA)
	for i := range 30 {
		createContact(t, env, token, acctA, map[string]any{"firstName": "Ann", "lastName": fmt.Sprintf("Lee%d", i)})
	}
	calls.Hold(20 * time.Millisecond)
	for _, tc := range []struct{ name, query string }{
		{"the list", ""},
		{"a search of one word", "lee1"},
	} {
		t.Run(tc.name+" costs admission, the counters and one page", func(t *testing.T) {
			q := url.Values{"locationId": {acctA}}
			if tc.query != "" {
				q.Set("query", tc.query)
			}
			_, cost, ops := measured(t, env, calls, testenv.Request{Method: "GET", Path: "/contacts/?" + q.Encode(), Token: token})
			assert.LessOrEqual(t, cost.calls, 3, ops)
			assert.LessOrEqual(t, cost.rounds, 2, ops)
		})
	}
}

// At 50,000 contacts (the shape: "smith5" is a prefix of 556 of
// them) the list, a search of the list and the advanced search each make
// at most 3 DynamoDB calls in 2 round trips, and find a contact the moment
// it is created and no longer once it is deleted. Loading the account
// takes a minute or two.
func TestListAndSearchAt50000ContactsCostAFewCallsAndFollowEveryWrite(t *testing.T) {
	const n = 50_000
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	env := testenv.New(t, []app.Area{contacts.Area}, testenv.WithTable(counted))
	env.Account(t, acctA, company)
	token, _ := env.Token(t, acctA)
	start, _ := time.Parse(time.RFC3339, epoch)
	load := make([]contactstore.NewContact, n)
	for i := range load {
		last := fmt.Sprintf("Jones%d", i+1)
		if (i+1)%2 == 0 {
			last = fmt.Sprintf("Smith%d", i+1)
		}
		var tags []string
		if i%10 == 0 {
			tags = []string{"vip"}
		}
		added := start.Add(time.Duration(i) * time.Second)
		load[i] = contactstore.NewContact{AddedMs: added.UnixMilli(), Contact: contactstore.Contact{
			ID: fmt.Sprintf("big%06d", i+1), LocationID: acctA, LastName: last, Tags: tags, DateAdded: added.Format(time.RFC3339)}}
	}
	require.NoError(t, contactstore.NewContacts(table).Load(context.Background(), load))
	env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/?locationId=" + acctA, Token: token}) // the token is known
	calls.Hold(20 * time.Millisecond)

	listOf := func(t *testing.T, q url.Values) (listBody, callCost, string) {
		q.Set("locationId", acctA)
		resp, cost, ops := measured(t, env, calls, testenv.Request{Method: "GET", Path: "/contacts/?" + q.Encode(), Token: token})
		var body listBody
		resp.JSON(t, &body)
		return body, cost, ops
	}
	searchOf := func(t *testing.T, fields map[string]any) (int, []string, callCost, string) {
		resp, cost, ops := measured(t, env, calls, testenv.Request{Method: "POST", Path: "/contacts/search", Token: token, Body: merge(map[string]any{"locationId": acctA}, fields)})
		var got struct {
			Contacts []record `json:"contacts"`
			Total    int      `json:"total"`
		}
		resp.JSON(t, &got)
		return got.Total, idsOf(got.Contacts), cost, ops
	}
	few := func(t *testing.T, cost callCost, ops string) {
		t.Helper()
		assert.LessOrEqual(t, cost.calls, 3, "DynamoDB calls: %s", ops)
		assert.LessOrEqual(t, cost.rounds, 2, "round trips: %s", ops)
	}

	t.Run("the list's first page", func(t *testing.T) {
		body, cost, ops := listOf(t, url.Values{})
		assert.Equal(t, n, body.Count)
		few(t, cost, ops)
	})
	t.Run("the list's search for smith5: 556 matches", func(t *testing.T) {
		body, cost, ops := listOf(t, url.Values{"query": {"smith5"}})
		assert.Equal(t, 556, body.Count)
		few(t, cost, ops)
	})
	t.Run("the advanced search for smith5, and for a tag", func(t *testing.T) {
		total, _, cost, ops := searchOf(t, map[string]any{"query": "smith5"})
		assert.Equal(t, 556, total)
		few(t, cost, ops)
		total, _, cost, ops = searchOf(t, map[string]any{"filters": []any{map[string]any{"field": "tags", "operator": "eq", "value": "vip"}}})
		assert.Equal(t, n/10, total)
		few(t, cost, ops)
	})
	t.Run("a far page of a tag reads on past a Query's 1 MB", func(t *testing.T) {
		total, ids, _, _ := searchOf(t, map[string]any{"filters": []any{map[string]any{"field": "tags", "operator": "eq", "value": "vip"}}, "page": 40, "pageLimit": 100})
		assert.Equal(t, n/10, total)
		require.Len(t, ids, 100)
		assert.Equal(t, "big039001", ids[0], "the 3,901st tagged contact")
		assert.Equal(t, "big039991", ids[99])
	})
	for _, tc := range []struct {
		name    string
		filters []any
	}{
		{"a filter the index does not serve, in 50,000 contacts", []any{map[string]any{"field": "city", "operator": "exists"}}},
		{"an indexed condition of 25,000 contacts with another", []any{
			map[string]any{"field": "lastName", "operator": "eq", "value": "smith"}, map[string]any{"field": "city", "operator": "exists"}}},
	} {
		t.Run(tc.name+" is refused rather than read one by one", func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "POST", Path: "/contacts/search", Token: token, Body: map[string]any{"locationId": acctA, "filters": tc.filters}})
			msg := resp.RequireError(t, http.StatusBadRequest)
			assert.Contains(t, msg, "a search judges at most 10000")
		})
	}

	var made record
	t.Run("a contact created is found at once, and counted", func(t *testing.T) {
		made = createContact(t, env, token, acctA, map[string]any{"lastName": "Smith5new", "tags": []string{"vip"}})
		body, _, _ := listOf(t, url.Values{"query": {"smith5new"}})
		assert.Equal(t, []string{made.ID}, idsOf2(body.Contacts))
		all, _, _ := listOf(t, url.Values{"query": {"smith5"}})
		assert.Equal(t, 557, all.Count)
		total, ids, _, _ := searchOf(t, map[string]any{"query": "smith5new"})
		assert.Equal(t, 1, total)
		assert.Equal(t, []string{made.ID}, ids)
	})
	t.Run("a contact deleted is no longer found, nor counted", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "DELETE", Path: "/contacts/" + made.ID, Token: token})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		body, _, _ := listOf(t, url.Values{"query": {"smith5"}})
		assert.Equal(t, 556, body.Count)
		all, _, _ := listOf(t, url.Values{})
		assert.Equal(t, n, all.Count)
		total, _, _, _ := searchOf(t, map[string]any{"filters": []any{map[string]any{"field": "tags", "operator": "eq", "value": "vip"}}})
		assert.Equal(t, n/10, total)
	})
}

func idsOf2(cs []contactstore.Contact) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}
