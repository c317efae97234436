package contacts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/tools/perf"
)

// The read and write units of each task and note operation, warm (the
// token read once), as DynamoDB bills them (tools/perf's counting proxy,
// which sizes a transaction item by item), on a contact, tasks and notes of
// the demo's sizes. Each is its operation's minimum: the rate counter's
// write (1 WCU); a strongly consistent read of the one item, or of the
// contact's items in one Query, when the answer or the version condition
// needs it (1 RCU under 4 KB); and a transaction of the change and its
// event (2 WCU a KB each), which a create extends with the contact's count
// of children (2 WCU). The table logged is docs/performance.md's.
func TestEachTaskAndNoteOperationCostsItsMinimumUnits(t *testing.T) {
	proxy, err := perf.NewCountingProxy(testenv.Endpoint(t))
	require.NoError(t, err)
	proxy.Capacity = true
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	db, err := dynamo.NewClient(context.Background(), front.URL, "us-east-1", nil)
	require.NoError(t, err)
	env := testenv.New(t, []app.Area{contacts.Area}, testenv.WithTable(&storage.Table{DB: db, Name: testenv.NewTable(t).Name}))
	env.Account(t, acctA, company)
	token, _ := env.Token(t, acctA)
	env.Seed(t, contacts.Area, `{"contacts":[{"id":"demoCtcAlpha00000006","locationId":"acctAlpha","contactName":"Sam Ito","firstName":"Sam",
		"lastName":"Ito","email":"sam.ito6@example.com","phone":"+15551234567","source":"referral","country":"US","timezone":"America/New_York",
		"dateAdded":"2025-01-10T01:23:21.000Z","tags":["customer","vip"],
		"tasks":[{"id":"T1","title":"Call back","body":"Offer the two open slots on Thursday morning.","dueDate":"2025-01-17T01:23:21.000Z","assignedTo":"demoUsrNorth00000015"},
		         {"id":"T2","title":"Send proposal","dueDate":"2025-02-07T01:23:21.000Z"}],
		"notes":[{"id":"N1","userId":"demoUsrNorth00000010","body":"Came in through a friend's referral. Interested in the yearly plan."},
		         {"id":"N2","userId":"demoUsrNorth00000008","body":"Wants invoices sent to the company address.","color":"#E91E63"}]}]}`)
	c := "/contacts/demoCtcAlpha00000006"
	env.Do(t, testenv.Request{Method: "GET", Path: c + "/tasks/T2", Token: token}) // the token is known

	var report strings.Builder
	fmt.Fprintln(&report, "| operation | calls | RCU | WCU |")
	fmt.Fprintln(&report, "|---|---|---|---|")
	for _, tc := range []struct {
		method, path, body string
		status             int
		rcu, wcu           float64
	}{
		{"GET", c + "/tasks", "", http.StatusOK, 1, 1},
		{"POST", c + "/tasks", `{"title":"Send the offer","body":"Two sessions.","dueDate":"2025-01-20T15:00:00Z","completed":false,"assignedTo":"demoUsrNorth00000007"}`, http.StatusCreated, 0, 7},
		{"GET", c + "/tasks/T1", "", http.StatusOK, 1, 1},
		{"PUT", c + "/tasks/T1", `{"title":"Call back on Thursday"}`, http.StatusOK, 1, 5},
		{"PUT", c + "/tasks/T1/completed", `{"completed":true}`, http.StatusOK, 1, 5},
		{"PUT", c + "/tasks/T1/completed", `{"completed":true}`, http.StatusOK, 1, 1}, // no change: no write
		{"DELETE", c + "/tasks/T2", "", http.StatusOK, 1, 5},
		{"GET", c + "/notes", "", http.StatusOK, 1, 1},
		{"POST", c + "/notes", `{"userId":"demoUsrNorth00000007","body":"Called about the invoice.\nWill pay by Friday.","title":"Call summary","pinned":true}`, http.StatusCreated, 0, 7},
		{"GET", c + "/notes/N1", "", http.StatusOK, 1, 1},
		{"PUT", c + "/notes/N1", `{"body":"Signed up for the yearly plan.","pinned":true}`, http.StatusOK, 1, 5},
		{"DELETE", c + "/notes/N2", "", http.StatusOK, 1, 5},
		// An empty Query, then the contact's read; and the failed request's
		// record for the account's admins (docs/portal.md).
		{"GET", "/contacts/zzMissingContact0001/tasks", "", http.StatusNotFound, 1, 2},
	} {
		name := tc.method + " " + strings.TrimPrefix(tc.path, c)
		t.Run(name, func(t *testing.T) {
			proxy.Take()
			req := testenv.Request{Method: tc.method, Path: tc.path, Token: token}
			if tc.body != "" {
				req.Body = tc.body
			}
			resp := env.Do(t, req)
			calls := proxy.Take()
			require.Equal(t, tc.status, resp.Status, "body: %s", resp.Body)
			rcu, wcu := testenv.Capacity(calls)
			fmt.Fprintf(&report, "| %s %s | %s | %g | %g |\n", tc.method, tc.path, testenv.Ops(calls), rcu, wcu)
			assert.Equal(t, tc.rcu, rcu, "read units")
			assert.Equal(t, tc.wcu, wcu, "write units")
		})
	}
	t.Log("\n" + report.String())
}
