package failures_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/failures"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

// An area whose operations fail as a handler's do.
var (
	checkOp = operations.Operation{Method: "POST", Path: "/check", Area: "test", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	itemOp  = operations.Operation{Method: "GET", Path: "/items/{itemId}", Area: "test", Scope: "contacts.readonly", ValidationStatus: 422}
	brokeOp = operations.Operation{Method: "GET", Path: "/broke", Area: "test", Scope: "contacts.readonly", ValidationStatus: 422}
)

var failingArea = app.Area{Name: "test", Routes: func(wiring.Deps) []route.Route {
	return []route.Route{
		{Op: checkOp, Handle: func(w http.ResponseWriter, r *http.Request) error {
			var body map[string]any
			if err := httpio.DecodeJSON(r, &body); err != nil {
				return err
			}
			if _, ok := body["name"]; !ok {
				return apierror.Invalid("name is required", "size must be positive")
			}
			return httpio.WriteJSON(w, http.StatusOK, body)
		}},
		{Op: itemOp, Handle: func(w http.ResponseWriter, r *http.Request) error {
			return apierror.NotFound("Item %s not found", r.PathValue("itemId"))
		}},
		{Op: brokeOp, Handle: func(http.ResponseWriter, *http.Request) error {
			return apierror.Internal(errors.New("secret internals: table xyz"))
		}},
	}
}, GuardRetries: idempotency.GuardRoutes}

type accountEnv struct {
	*testenv.Env
	store         *failures.Store
	tokenA, idA   string
	tokenA2, idA2 string
	tokenB        string
}

func newEnv(t *testing.T, opts ...testenv.Option) accountEnv {
	env := testenv.New(t, []app.Area{failingArea, testenv.PingArea}, opts...)
	env.Account(t, "acctA", "co1")
	env.Account(t, "acctB", "co1")
	e := accountEnv{Env: env, store: failures.New(env.Table, env.Clock)}
	e.tokenA, e.idA = env.Token(t, "acctA", "contacts.write", "contacts.readonly")
	e.tokenA2, e.idA2 = env.Token(t, "acctA", "contacts.readonly")
	e.tokenB, _ = env.Token(t, "acctB", "contacts.write", "contacts.readonly")
	return e
}

func (e accountEnv) list(t *testing.T, account string, f failures.Filter, cursor string, limit int) ([]failures.Failure, string) {
	t.Helper()
	got, next, err := e.store.List(context.Background(), account, f, cursor, limit)
	require.NoError(t, err)
	return got, next
}

// failureItems are every item of the table the recording wrote.
func failureItems(t *testing.T, table *storage.Table) []map[string]any {
	var out []map[string]any
	for _, it := range testenv.Items[map[string]any](t, table) {
		if strings.HasPrefix(it[storage.AttrSK].(string), "FAILURE") {
			out = append(out, it)
		}
	}
	return out
}

func TestAFailedRequestIsListedForItsAccountOnly(t *testing.T) {
	e := newEnv(t)
	secretBody := `{"size":-1,"password":"hunter2-body-secret"}`
	resp := e.Do(t, testenv.Request{Method: "POST", Path: "/check", Token: e.tokenA, Body: secretBody})
	resp.RequireError(t, http.StatusUnprocessableEntity)
	requestID := resp.Header.Get("X-Request-Id")

	t.Run("the account's list has it, with what the client needs to find it", func(t *testing.T) {
		got, next := e.list(t, "acctA", failures.Filter{}, "", 20)
		require.Len(t, got, 1)
		assert.Empty(t, next)
		f := got[0]
		assert.Equal(t, "POST", f.Method)
		assert.Equal(t, "/check", f.Route)
		assert.Equal(t, http.StatusUnprocessableEntity, f.Status)
		assert.Equal(t, "name is required; size must be positive", f.Message)
		assert.Equal(t, e.idA, f.TokenID)
		assert.Equal(t, requestID, f.RequestID)
		assert.Equal(t, "2026-06-15T12:00:03.000Z", f.At)
	})
	t.Run("another account's list does not", func(t *testing.T) {
		got, _ := e.list(t, "acctB", failures.Filter{}, "", 20)
		assert.Empty(t, got)
	})
	t.Run("the item holds neither the body nor the token, and expires in seven days", func(t *testing.T) {
		items := failureItems(t, e.Table)
		require.Len(t, items, 1)
		raw := fmt.Sprint(items[0])
		assert.NotContains(t, raw, "hunter2")
		assert.NotContains(t, raw, e.tokenA)
		assert.Equal(t, float64(testenv.Start.Add(7*24*time.Hour).Unix()), items[0][storage.AttrExpiresAt])
	})
	t.Run("a route is its template, never the path with its ids", func(t *testing.T) {
		e.Do(t, testenv.Request{Method: "GET", Path: "/items/customer-4711", Token: e.tokenA}).RequireError(t, http.StatusNotFound)
		got, _ := e.list(t, "acctA", failures.Filter{Status: "404"}, "", 20)
		require.Len(t, got, 1)
		assert.Equal(t, "/items/{itemId}", got[0].Route)
	})
	t.Run("a 5xx keeps the answer's message, never its internal cause", func(t *testing.T) {
		e.Do(t, testenv.Request{Method: "GET", Path: "/broke", Token: e.tokenA}).RequireError(t, http.StatusInternalServerError)
		got, _ := e.list(t, "acctA", failures.Filter{Status: "5xx"}, "", 20)
		require.Len(t, got, 1)
		assert.NotContains(t, got[0].Message, "secret internals")
		assert.NotEmpty(t, got[0].Message)
	})
}

func TestWhatIsNotRecorded(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name string
		req  testenv.Request
		want int
	}{
		{"a request that succeeds", testenv.Request{Method: "GET", Path: "/ping", Token: e.tokenA}, http.StatusOK},
		{"a write that succeeds", testenv.Request{Method: "POST", Path: "/check", Token: e.tokenA, Body: `{"name":"x"}`}, http.StatusOK},
		{"a request without a token (no account is known)", testenv.Request{Method: "GET", Path: "/ping"}, http.StatusUnauthorized},
		{"a request with an unknown token", testenv.Request{Method: "GET", Path: "/ping", Token: e.tokenA + "x"}, http.StatusUnauthorized},
		{"a request refused before authentication", testenv.Request{Method: "GET", Path: "/ping", Token: e.tokenA, Headers: map[string]string{"Version": "1999-01-01"}}, http.StatusBadRequest},
		{"a path no operation serves", testenv.Request{Method: "GET", Path: "/nowhere", Token: e.tokenA}, http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name+" writes nothing", func(t *testing.T) {
			resp := e.Do(t, tc.req)
			require.Equal(t, tc.want, resp.Status, "body: %s", resp.Body)
			assert.Empty(t, failureItems(t, e.Table))
		})
	}
}

func TestA429BurstIsCountedNotListed(t *testing.T) {
	e := newEnv(t, testenv.WithLimits(2, time.Minute, 1000))
	statuses := map[int]int{}
	for range 12 {
		statuses[e.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: e.tokenA}).Status]++
	}
	require.Equal(t, map[int]int{200: 2, 429: 10}, statuses)

	listed, _ := e.list(t, "acctA", failures.Filter{}, "", 50)
	assert.Empty(t, listed, "no 429 is listed one by one")
	counts, err := e.store.RateLimited(context.Background(), "acctA")
	require.NoError(t, err)
	assert.Equal(t, []failures.HourCount{{Hour: "2026-06-15T12", Count: 10}}, counts)
	assert.Len(t, failureItems(t, e.Table), 1, "one counter item for the hour, however many 429s")

	t.Run("the next hour has a counter of its own", func(t *testing.T) {
		e.Clock.Advance(time.Hour)
		for range 3 {
			e.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: e.tokenA})
		}
		counts, err := e.store.RateLimited(context.Background(), "acctA")
		require.NoError(t, err)
		require.Len(t, counts, 2)
		assert.Equal(t, "2026-06-15T13", counts[0].Hour, "newest first")
	})
}

func TestFiltersAndPaging(t *testing.T) {
	e := newEnv(t)
	// Seven failures a second apart: 422s of token A, 404s of token A2.
	for i := range 7 {
		e.Clock.Advance(time.Second)
		if i%2 == 0 {
			e.Do(t, testenv.Request{Method: "POST", Path: "/check", Token: e.tokenA, Body: `{}`}).RequireError(t, 422)
		} else {
			e.Do(t, testenv.Request{Method: "GET", Path: "/items/i" + fmt.Sprint(i), Token: e.tokenA2}).RequireError(t, 404)
		}
	}
	statuses := func(fs []failures.Failure) []int {
		out := make([]int, len(fs))
		for i, f := range fs {
			out[i] = f.Status
		}
		return out
	}
	cases := []struct {
		name   string
		filter failures.Filter
		want   []int
	}{
		{"no filter lists all, newest first", failures.Filter{}, []int{422, 404, 422, 404, 422, 404, 422}},
		{"a status code lists that status", failures.Filter{Status: "404"}, []int{404, 404, 404}},
		{"4xx lists the client errors", failures.Filter{Status: "4xx"}, []int{422, 404, 422, 404, 422, 404, 422}},
		{"5xx lists none here", failures.Filter{Status: "5xx"}, []int{}},
		{"a token lists its own requests", failures.Filter{TokenID: e.idA2}, []int{404, 404, 404}},
		{"a token and a status together", failures.Filter{TokenID: e.idA, Status: "404"}, []int{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, next := e.list(t, "acctA", tc.filter, "", 50)
			assert.Equal(t, tc.want, statuses(got))
			assert.Empty(t, next)
		})
	}
	t.Run("pages follow each other without a gap or a repeat", func(t *testing.T) {
		var seen []string
		cursor := ""
		for page := 0; ; page++ {
			require.Less(t, page, 10)
			got, next := e.list(t, "acctA", failures.Filter{}, cursor, 3)
			for _, f := range got {
				seen = append(seen, f.RequestID)
			}
			if next == "" {
				break
			}
			require.True(t, failures.ValidCursor(next), next)
			cursor = next
		}
		all, _ := e.list(t, "acctA", failures.Filter{}, "", 50)
		require.Len(t, seen, 7)
		for i, f := range all {
			assert.Equal(t, f.RequestID, seen[i])
		}
	})
	t.Run("a filtered page goes on from where it ended", func(t *testing.T) {
		first, next := e.list(t, "acctA", failures.Filter{Status: "422"}, "", 2)
		require.Len(t, first, 2)
		require.NotEmpty(t, next)
		rest, last := e.list(t, "acctA", failures.Filter{Status: "422"}, next, 2)
		assert.Equal(t, []int{422, 422}, statuses(rest))
		assert.Empty(t, last)
	})
	t.Run("failures older than seven days are not listed", func(t *testing.T) {
		e.Clock.Advance(7*24*time.Hour - 3*time.Second)
		got, _ := e.list(t, "acctA", failures.Filter{}, "", 50)
		assert.Len(t, got, 4, "the three oldest are past the week")
	})
}

func TestCursorsAndFiltersAreCheckedBeforeUse(t *testing.T) {
	cursors := []struct {
		cursor string
		ok     bool
	}{
		{"2026-06-15T12:00:03.000Z#0f8fad5b-d9cb-469f-a165-70867728950e", true},
		{"2026-06-15T12:00:03.000Z#Jx8Ag0iyoAMEVbQ=", true},
		{"", false},
		{"2026-06-15T12:00:03.000Z", false},
		{"2026-06-15T12:00:03.000Z#", false},
		{"not-a-time#abc", false},
		{"2026-06-15T12:00:03.000Z#abc#TOKEN", false},
		{"2026-06-15T12:00:03.000Z#" + strings.Repeat("a", 65), false},
	}
	for _, tc := range cursors {
		t.Run(fmt.Sprintf("cursor %q valid: %v", tc.cursor, tc.ok), func(t *testing.T) {
			assert.Equal(t, tc.ok, failures.ValidCursor(tc.cursor))
		})
	}
	for status, ok := range map[string]bool{"": true, "4xx": true, "5xx": true, "422": true, "599": true, "200": false, "42": false, "4222": false, "x": false, "+422": false} {
		t.Run(fmt.Sprintf("status filter %q valid: %v", status, ok), func(t *testing.T) {
			assert.Equal(t, ok, failures.Filter{Status: status}.Valid())
		})
	}
}

func TestAFailureTakesOneWriteUnitWhateverItsMessage(t *testing.T) {
	e := newEnv(t)
	longest := strings.Repeat("ü", 2*failures.MaxMessage) // 4x the bytes kept
	cases := []struct {
		name, account, requestID, route, message string
	}{
		{"a typical 422", "demoLocAlpha00000001", "0f8fad5b-d9cb-469f-a165-70867728950e", "/contacts/{contactId}/tasks/{taskId}", "name is required; size must be positive"},
		{"the longest ids, route and message", strings.Repeat("a", 64), strings.Repeat("r", 64), "/" + strings.Repeat("segment/", 12) + "{recordId}", longest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, e.store.Record(context.Background(), tc.account, failures.Failure{
				Method: "DELETE", Route: tc.route, Status: 422, Message: tc.message, TokenID: "tok_n9M1ZruCQyf8jMrn", RequestID: tc.requestID,
			}))
			db, err := dynamo.NewClient(context.Background(), testenv.Endpoint(t), "us-east-1", nil)
			require.NoError(t, err)
			out, err := db.Query(context.Background(), &dynamodb.QueryInput{
				TableName: &e.Table.Name, KeyConditionExpression: aws.String("PK = :pk"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: storage.AccountPK(tc.account)}},
			})
			require.NoError(t, err)
			require.Len(t, out.Items, 1)
			size := storage.ItemSize(out.Items[0])
			t.Logf("%s: %d bytes", tc.name, size)
			assert.LessOrEqual(t, size, 1024, "one write unit")
			got, _ := e.list(t, tc.account, failures.Filter{}, "", 1)
			require.Len(t, got, 1)
			assert.LessOrEqual(t, len(got[0].Message), failures.MaxMessage)
			assert.True(t, utf8.ValidString(got[0].Message), "clipped at a character's end")
		})
	}
}

// TestAValuePastedIntoAnIdIsNotKeptWhole is the probe's finding: a token
// pasted into an id field came back in the 404's message, and the message
// was kept for every admin of the account to read for 7 days. The answer
// (read by its sender alone) names the value as sent; the kept message
// holds the platform's ids whole and anything longer as a short prefix.
func TestAValuePastedIntoAnIdIsNotKeptWhole(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, id, kept string
	}{
		{"a pasted token keeps only its prefix", e.tokenA, "Item bpt_… not found"},
		{"another system's key keeps its first characters", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "Item sk_live_… not found"},
		{"a database id is kept whole", "a10200000000000000000101", "Item a10200000000000000000101 not found"},
		{"a demo id is kept whole", "demoCtcAlpha00000001", "Item demoCtcAlpha00000001 not found"},
		{"an id one character past the longest the platform makes is cut", strings.Repeat("x", 25), "Item xxxxxxxx… not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.Clock.Advance(time.Second) // newest first
			resp := e.Do(t, testenv.Request{Method: "GET", Path: "/items/" + tc.id, Token: e.tokenA2})
			assert.Contains(t, resp.RequireError(t, http.StatusNotFound), tc.id, "the answer names the value as its sender sent it")
			got, _ := e.list(t, "acctA", failures.Filter{TokenID: e.idA2}, "", 1)
			require.Len(t, got, 1)
			assert.Equal(t, tc.kept, got[0].Message)
			for _, it := range failureItems(t, e.Table) {
				if len(tc.id) > failures.MaxWholeWord {
					assert.NotContains(t, fmt.Sprint(it), tc.id, "no item holds the value whole")
				}
			}
		})
	}
	t.Run("words, paths and text around ids are kept as they are", func(t *testing.T) {
		e.Do(t, testenv.Request{Method: "POST", Path: "/check", Token: e.tokenA, Body: `{"size":1}`}).RequireError(t, http.StatusUnprocessableEntity)
		got, _ := e.list(t, "acctA", failures.Filter{Status: "422"}, "", 1)
		require.Len(t, got, 1)
		assert.Equal(t, "name is required; size must be positive", got[0].Message)
	})
}
