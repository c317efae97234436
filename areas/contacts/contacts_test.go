package contacts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
)

const (
	acctA    = "acctAlpha"
	acctB    = "acctBravo"
	company  = "companyOne"
	epoch    = "2025-03-01T10:00:00Z"
	taskPath = "/contacts/%s/tasks/%s"
)

type listBody struct {
	Contacts []contactstore.Contact `json:"contacts"`
	Count    int                    `json:"count"`
	Meta     struct {
		Total        int     `json:"total"`
		CurrentPage  int     `json:"currentPage"`
		NextPage     *int    `json:"nextPage"`
		PrevPage     *int    `json:"prevPage"`
		StartAfterID *string `json:"startAfterId"`
		StartAfter   *int64  `json:"startAfter"`
		NextPageURL  *string `json:"nextPageUrl"`
	} `json:"meta"`
}

// seedContacts writes n contacts into account, one minute apart (every
// fourth shares its predecessor's time), each with one task.
func seedContacts(t *testing.T, env *testenv.Env, account string, n int) []string {
	t.Helper()
	start, _ := time.Parse(time.RFC3339, epoch)
	var b strings.Builder
	b.WriteString(`{"contacts":[`)
	ids := make([]string, n)
	at := start
	for i := 0; i < n; i++ {
		if i%4 != 3 {
			at = at.Add(time.Minute)
		}
		ids[i] = fmt.Sprintf("%sC%04d", account, i)
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%q,"locationId":%q,"firstName":"First%d","lastName":"Last%d","email":"person%d@example.com","phone":"+1555%07d","dateAdded":%q,"tasks":[{"id":"T%d","title":"Call"}]}`,
			ids[i], account, i, i, i, i, at.Format(time.RFC3339), i)
	}
	b.WriteString("]}")
	env.Seed(t, contacts.Area, b.String())
	return ids
}

func newEnv(t *testing.T) (*testenv.Env, string) {
	env := testenv.New(t, []app.Area{contacts.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	token, _ := env.Token(t, acctA)
	return env, token
}

func list(t *testing.T, env *testenv.Env, token string, query url.Values) (*testenv.Response, listBody) {
	t.Helper()
	resp := env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/?" + query.Encode(), Token: token})
	var body listBody
	if resp.Status == http.StatusOK {
		resp.JSON(t, &body)
	}
	return resp, body
}

func TestListContactsWalksEveryPageOnceInStableOrder(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 250)
	seedContacts(t, env, acctB, 5) // another account's contacts never appear

	var seen []string
	q := url.Values{"locationId": {acctA}, "limit": {"7"}}
	for page := 1; ; page++ {
		resp, body := list(t, env, token, q)
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.Equal(t, 250, body.Meta.Total)
		assert.Equal(t, 250, body.Count)
		assert.Equal(t, page, body.Meta.CurrentPage)
		for _, c := range body.Contacts {
			assert.Equal(t, acctA, c.LocationID)
			seen = append(seen, c.ID)
		}
		if body.Meta.NextPage == nil {
			assert.Nil(t, body.Meta.StartAfterID)
			break
		}
		assert.Len(t, body.Contacts, 7)
		assert.Equal(t, page+1, *body.Meta.NextPage)
		q.Set("startAfterId", *body.Meta.StartAfterID)
		q.Set("startAfter", fmt.Sprint(*body.Meta.StartAfter))
	}
	assert.Equal(t, ids, seen, "every contact exactly once, in the order they were added (ties by id)")
}

func TestListContactsPagesNeitherSkipNorRepeatWhileContactsAreAdded(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 40)
	store := contactstore.NewContacts(env.Table)

	var seen []string
	q := url.Values{"locationId": {acctA}, "limit": {"6"}}
	for added := 0; ; added++ {
		_, body := list(t, env, token, q)
		for _, c := range body.Contacts {
			seen = append(seen, c.ID)
		}
		// A contact arrives between every two pages.
		now := env.Clock.Now().Add(time.Duration(added) * time.Second)
		id := fmt.Sprintf("late%03d", added)
		require.NoError(t, store.Put(context.Background(), contactstore.Contact{ID: id, LocationID: acctA, FirstName: "Late", DateAdded: now.Format(time.RFC3339)}, now.UnixMilli()))
		ids = append(ids, id)
		if body.Meta.NextPage == nil {
			break
		}
		q.Set("startAfterId", *body.Meta.StartAfterID)
		q.Set("startAfter", fmt.Sprint(*body.Meta.StartAfter))
	}
	counts := map[string]int{}
	for _, id := range seen {
		counts[id]++
	}
	for id, n := range counts {
		assert.Equal(t, 1, n, "contact %s listed %d times", id, n)
	}
	for _, id := range ids[:40] {
		assert.Equal(t, 1, counts[id], "contact %s present from the start must be listed", id)
	}
	assert.True(t, sort.SliceIsSorted(seen[:40], func(i, j int) bool { return seen[i] < seen[j] }))
}

func TestListContactsNextPageURLCarriesThePageNumberSoNoPageIsCounted(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 23)

	path := "/contacts/?" + url.Values{"locationId": {acctA}, "limit": {"5"}}.Encode()
	var seen []string
	for page := 1; ; page++ {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: path, Token: token})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		var body listBody
		resp.JSON(t, &body)
		assert.Equal(t, page, body.Meta.CurrentPage)
		for _, c := range body.Contacts {
			seen = append(seen, c.ID)
		}
		if body.Meta.NextPageURL == nil {
			break
		}
		u, err := url.Parse(*body.Meta.NextPageURL)
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprint(page+1), u.Query().Get("page"))
		path = *body.Meta.NextPageURL
	}
	assert.Equal(t, ids, seen)

	t.Run("the page given with a cursor is the page number answered, without counting", func(t *testing.T) {
		_, body := list(t, env, token, url.Values{"locationId": {acctA}, "limit": {"5"}, "startAfterId": {ids[4]}, "page": {"9"}})
		assert.Equal(t, 9, body.Meta.CurrentPage)
		require.NotNil(t, body.Meta.NextPage)
		assert.Equal(t, 10, *body.Meta.NextPage)
	})
	t.Run("a page without a cursor is refused, naming page", func(t *testing.T) {
		resp, _ := list(t, env, token, url.Values{"locationId": {acctA}, "page": {"3"}})
		assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), "page must come with startAfter or startAfterId")
	})
	t.Run("page 1 or a page that is not a number is refused", func(t *testing.T) {
		for _, p := range []string{"1", "0", "x", "1e3"} {
			resp, _ := list(t, env, token, url.Values{"locationId": {acctA}, "startAfterId": {ids[4]}, "page": {p}})
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), "page", "page=%s", p)
		}
	})
}

func TestListContactsCursorByIDAloneContinuesAfterThatContact(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 12)
	_, body := list(t, env, token, url.Values{"locationId": {acctA}, "limit": {"5"}, "startAfterId": {ids[3]}})
	require.Len(t, body.Contacts, 5)
	assert.Equal(t, ids[4], body.Contacts[0].ID)
	assert.Equal(t, 2, body.Meta.CurrentPage)
	require.NotNil(t, body.Meta.PrevPage)
	assert.Equal(t, 1, *body.Meta.PrevPage)
}

func TestListContactsStartAfterTimeSkipsEarlierContacts(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 8)
	start, _ := time.Parse(time.RFC3339, epoch)
	// Contacts 0..2 were added at +1, +2, +3 minutes; 3 shares +3.
	after := start.Add(3 * time.Minute).UnixMilli()
	_, body := list(t, env, token, url.Values{"locationId": {acctA}, "startAfter": {fmt.Sprint(after)}})
	require.NotEmpty(t, body.Contacts)
	assert.Equal(t, ids[4], body.Contacts[0].ID)
	assert.Len(t, body.Contacts, 4)
}

func TestListContactsQueryFiltersByNameEmailOrPhone(t *testing.T) {
	env, token := newEnv(t)
	seedContacts(t, env, acctA, 30)
	cases := []struct {
		name, query string
		want        int
	}{
		{"a first name matches case-insensitively", "FIRST17", 1},
		{"a last-name fragment matches every contact containing it", "last1", 11}, // Last1, Last10..Last19
		{"an e-mail matches", "person22@example.com", 1},
		{"a phone fragment matches", "+15550000005", 1},
		{"nothing matches", "zebra", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := list(t, env, token, url.Values{"locationId": {acctA}, "query": {tc.query}, "limit": {"4"}})
			require.Equal(t, http.StatusOK, resp.Status)
			assert.Equal(t, tc.want, body.Meta.Total)
			assert.Len(t, body.Contacts, min(tc.want, 4))
		})
	}
	t.Run("a filtered walk returns every match once", func(t *testing.T) {
		q := url.Values{"locationId": {acctA}, "query": {"last1"}, "limit": {"3"}}
		var got []string
		for {
			_, body := list(t, env, token, q)
			for _, c := range body.Contacts {
				got = append(got, c.ID)
			}
			if body.Meta.NextPage == nil {
				break
			}
			q.Set("startAfterId", *body.Meta.StartAfterID)
			q.Set("startAfter", fmt.Sprint(*body.Meta.StartAfter))
		}
		assert.Len(t, got, 11)
	})
}

func TestListContactsRejectsBadParameters(t *testing.T) {
	env, token := newEnv(t)
	seedContacts(t, env, acctA, 3)
	cases := []struct {
		name  string
		query string
		field string
	}{
		{"locationId is required", "", "locationId is required"},
		{"limit above 100", "locationId=" + acctA + "&limit=101", "limit must be between 1 and 100"},
		{"limit not a number", "locationId=" + acctA + "&limit=ten", "limit must be an integer"},
		{"startAfter not a time", "locationId=" + acctA + "&startAfter=yesterday", "startAfter must be a time"},
		{"startAfterId malformed", "locationId=" + acctA + "&startAfterId=a%23b", "startAfterId must be an id"},
		{"startAfterId unknown", "locationId=" + acctA + "&startAfterId=nobody", "startAfterId must name a contact"},
		{"locationId malformed", "locationId=ACCOUNT%23x", "locationId must be an id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/?" + tc.query, Token: token})
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), tc.field)
		})
	}
}

func TestListContactsIsServedWithAndWithoutTrailingSlash(t *testing.T) {
	env, token := newEnv(t)
	seedContacts(t, env, acctA, 2)
	for _, path := range []string{"/contacts/", "/contacts"} {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: path + "?locationId=" + acctA, Token: token})
		assert.Equal(t, http.StatusOK, resp.Status, path)
	}
}

func TestListContactsAuth(t *testing.T) {
	env, _ := newEnv(t)
	seedContacts(t, env, acctA, 2)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.ListContacts, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/?locationId=" + acctA, Token: token})
		},
	})
}

func TestDeleteTask(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 3)
	store := contactstore.NewContacts(env.Table)
	ctx := context.Background()

	t.Run("deletes the task and answers succeded", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(taskPath, ids[0], "T0"), Token: token})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.JSONEq(t, `{"succeded":true}`, string(resp.Body))
		task, err := store.GetTask(ctx, acctA, ids[0], "T0")
		require.NoError(t, err)
		assert.Nil(t, task, "the task is gone from storage")
	})
	t.Run("a second delete is 404", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(taskPath, ids[0], "T0"), Token: token})
		resp.RequireError(t, http.StatusNotFound)
	})
	t.Run("a task under another contact is 404 and stays", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(taskPath, ids[2], "T1"), Token: token})
		resp.RequireError(t, http.StatusNotFound)
		task, err := store.GetTask(ctx, acctA, ids[1], "T1")
		require.NoError(t, err)
		assert.NotNil(t, task)
	})
	t.Run("a malformed id is a 400 naming it", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(taskPath, ids[1], "T%231"), Token: token})
		assert.Contains(t, resp.RequireError(t, http.StatusBadRequest), "taskId")
	})
	t.Run("two malformed ids are named in one answer", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(taskPath, "c%231", "T%231"), Token: token})
		msg := resp.RequireError(t, http.StatusBadRequest)
		assert.Contains(t, msg, "contactId must be an id")
		assert.Contains(t, msg, "taskId must be an id")
	})
	t.Run("another account's task is 404 and stays", func(t *testing.T) {
		otherIDs := seedContacts(t, env, acctB, 1)
		resp := env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(taskPath, otherIDs[0], "T0"), Token: token})
		resp.RequireError(t, http.StatusNotFound)
		task, err := store.GetTask(ctx, acctB, otherIDs[0], "T0")
		require.NoError(t, err)
		assert.NotNil(t, task)
	})
}

func TestDeleteTaskAuth(t *testing.T) {
	env, _ := newEnv(t)
	n := 0
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.DeleteTask, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusNotFound,
		Call: func(t *testing.T, token string) *testenv.Response {
			n++
			id := fmt.Sprintf("auth%d", n)
			env.Seed(t, contacts.Area, fmt.Sprintf(`{"contacts":[{"id":%q,"locationId":%q,"dateAdded":%q,"tasks":[{"id":"T","title":"x"}]}]}`, id, acctA, epoch))
			return env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(taskPath, id, "T"), Token: token})
		},
	})
}

func TestContactsOperationsRefuseBadHeadersAndOversizedBodies(t *testing.T) {
	env, token := newEnv(t)
	ids := seedContacts(t, env, acctA, 1)
	list := "/contacts/?locationId=" + acctA
	task := fmt.Sprintf(taskPath, ids[0], "T0")
	cases := []struct {
		name   string
		req    testenv.Request
		status int
	}{
		{"listing without a Version header is 400", testenv.Request{Method: "GET", Path: list, Headers: map[string]string{"Version": ""}}, http.StatusBadRequest},
		{"listing with another Version is 400", testenv.Request{Method: "GET", Path: list, Headers: map[string]string{"Version": "2021-04-15"}}, http.StatusBadRequest},
		{"listing with Accept text/html is 406", testenv.Request{Method: "GET", Path: list, Headers: map[string]string{"Accept": "text/html"}}, http.StatusNotAcceptable},
		{"deleting without a Version header is 400", testenv.Request{Method: "DELETE", Path: task, Headers: map[string]string{"Version": ""}}, http.StatusBadRequest},
		{"deleting with Accept text/plain is 406", testenv.Request{Method: "DELETE", Path: task, Headers: map[string]string{"Accept": "text/plain"}}, http.StatusNotAcceptable},
		{"deleting with a body over 1 MiB is 413", testenv.Request{Method: "DELETE", Path: task, Body: `{"pad":"` + strings.Repeat("x", 1<<20) + `"}`}, http.StatusRequestEntityTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.Token = token
			env.Do(t, req).RequireError(t, tc.status)
		})
	}
	task0, err := contactstore.NewContacts(env.Table).GetTask(context.Background(), acctA, ids[0], "T0")
	require.NoError(t, err)
	assert.NotNil(t, task0, "refused deletes delete nothing")
}
