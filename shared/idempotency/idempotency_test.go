package idempotency_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/areas/emails"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/storage"
)

const (
	emailsPath = "/emails/builder"
	taskPath   = "/contacts/%s/tasks/%s"
)

func templates(t *testing.T, env *testenv.Env, accountID string) int {
	t.Helper()
	list, err := emails.NewTemplates(env.Table).List(context.Background(), accountID)
	require.NoError(t, err)
	return len(list)
}

func createTemplate(t *testing.T, env *testenv.Env, token, key string, body any) *testenv.Response {
	t.Helper()
	return env.Do(t, keyed(testenv.Request{Method: "POST", Path: emailsPath, Token: token, Body: body}, key))
}

// requireReplay checks that retry is first given again.
func requireReplay(t *testing.T, first, retry *testenv.Response) {
	t.Helper()
	require.Equal(t, first.Status, retry.Status, "body: %s", retry.Body)
	assert.Equal(t, string(first.Body), string(retry.Body), "the body, byte for byte")
	assert.Equal(t, first.Header.Get("Content-Type"), retry.Header.Get("Content-Type"))
	assert.Equal(t, "true", retry.Header.Get(idempotency.HeaderReplayed))
	assert.Empty(t, first.Header.Get(idempotency.HeaderReplayed), "a first answer is no replay")
	assert.NotEqual(t, first.Header.Get("X-Request-Id"), retry.Header.Get("X-Request-Id"), "the retry has its own request id")
}

func TestARetryWithTheSameKeyGetsTheFirstAnswerAndChangesNothing(t *testing.T) {
	env, token := newEnv(t, nil)
	template := map[string]any{"locationId": acctA, "type": "html", "name": "Offer"}

	t.Run("a create sent twice with one key creates one template and answers the same twice", func(t *testing.T) {
		before := templates(t, env, acctA)
		first := createTemplate(t, env, token, "create-offer-1", template)
		require.Equal(t, http.StatusCreated, first.Status, "body: %s", first.Body)
		retry := createTemplate(t, env, token, "create-offer-1", template)

		requireReplay(t, first, retry)
		assert.Equal(t, before+1, templates(t, env, acctA), "one template")
		assert.Equal(t, remaining(t, first)-1, remaining(t, retry), "the rate-limit headers are the retry's own")
		assert.Contains(t, string(retry.Body), first.Header.Get("X-Request-Id"), "the body's traceId is the first request's")
	})
	t.Run("the same create without a key creates again, as it always did", func(t *testing.T) {
		before := templates(t, env, acctA)
		for range 2 {
			resp := createTemplate(t, env, token, "", template)
			require.Equal(t, http.StatusCreated, resp.Status)
			assert.Empty(t, resp.Header.Get(idempotency.HeaderReplayed))
		}
		assert.Equal(t, before+2, templates(t, env, acctA))
	})
	t.Run("a 404 is kept: the retry answers 404 even once the record exists, and deletes nothing", func(t *testing.T) {
		path := fmt.Sprintf(taskPath, "acctAlphaC1", "T1")
		first := env.Do(t, keyed(testenv.Request{Method: "DELETE", Path: path, Token: token}, "delete-task-1"))
		first.RequireError(t, http.StatusNotFound)
		env.Seed(t, contacts.Area, `{"contacts":[{"id":"acctAlphaC1","locationId":"acctAlpha","dateAdded":"2025-03-01T10:00:00Z","tasks":[{"id":"T1","title":"Call"}]}]}`)

		retry := env.Do(t, keyed(testenv.Request{Method: "DELETE", Path: path, Token: token}, "delete-task-1"))
		requireReplay(t, first, retry)
		task, err := contactstore.NewContacts(env.Table).GetTask(context.Background(), acctA, "acctAlphaC1", "T1")
		require.NoError(t, err)
		assert.NotNil(t, task, "the task the retry names is still there")
	})
	for _, tc := range []struct {
		name   string
		req    testenv.Request
		status int
	}{
		{name: "a field-rule failure on an operation that answers 400 is replayed byte for byte, 400",
			req: testenv.Request{Method: "DELETE", Path: fmt.Sprintf(taskPath, "acctAlphaC1", "T%231"), Token: token}, status: http.StatusBadRequest},
		{name: "a field-rule failure on an operation that answers 422 is replayed byte for byte, 422",
			req: testenv.Request{Method: "POST", Path: emailsPath, Token: token, Body: map[string]any{"locationId": acctA, "type": "nonsense"}}, status: http.StatusUnprocessableEntity},
		{name: "another account's location is replayed as the 403 it was",
			req: testenv.Request{Method: "POST", Path: emailsPath, Token: token, Body: map[string]any{"locationId": acctB, "type": "html"}}, status: http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := "failure-" + tc.name
			first := env.Do(t, keyed(tc.req, key))
			first.RequireError(t, tc.status)
			requireReplay(t, first, env.Do(t, keyed(tc.req, key)))
		})
	}
}

func TestTheSameKeyWithAnotherRequestAnswers422(t *testing.T) {
	env, token := newEnv(t, nil)
	const key = "reused-key"
	first := env.Do(t, keyed(testenv.Request{Method: "POST", Path: "/tally/a?x=1&y=2", Token: token, Body: `{"n":1}`}, key))
	require.Equal(t, http.StatusOK, first.Status, "body: %s", first.Body)

	for _, tc := range []struct {
		name string
		req  testenv.Request
	}{
		{name: "another body", req: testenv.Request{Method: "POST", Path: "/tally/a?x=1&y=2", Body: `{"n":2}`}},
		{name: "no body", req: testenv.Request{Method: "POST", Path: "/tally/a?x=1&y=2"}},
		{name: "another path", req: testenv.Request{Method: "POST", Path: "/tally/b?x=1&y=2", Body: `{"n":1}`}},
		{name: "another query value", req: testenv.Request{Method: "POST", Path: "/tally/a?x=1&y=3", Body: `{"n":1}`}},
		{name: "one query parameter fewer", req: testenv.Request{Method: "POST", Path: "/tally/a?x=1", Body: `{"n":1}`}},
		{name: "another operation, whose own field rules answer 400", req: testenv.Request{Method: "DELETE", Path: fmt.Sprintf(taskPath, "acctAlphaC1", "T1")}},
	} {
		t.Run(tc.name+" answers 422 saying so, and runs nothing", func(t *testing.T) {
			tc.req.Token = token
			resp := env.Do(t, keyed(tc.req, key))
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), "already used with another request")
			assert.Empty(t, resp.Header.Get(idempotency.HeaderReplayed))
		})
	}
	assert.Equal(t, 1, count(t, env, acctA, "a"))
	assert.Equal(t, 0, count(t, env, acctA, "b"))

	t.Run("the same parameters in another order are the same request", func(t *testing.T) {
		retry := env.Do(t, keyed(testenv.Request{Method: "POST", Path: "/tally/a?y=2&x=1", Token: token, Body: `{"n":1}`}, key))
		requireReplay(t, first, retry)
		assert.Equal(t, 1, count(t, env, acctA, "a"))
	})
}

func TestASecondRequestWhileTheFirstRunsAnswers409(t *testing.T) {
	g := newGate(t)
	env, token := newEnv(t, g)
	const key = "slow-request"
	answer := g.hold(t, env, token, "slow?then=wait", key)

	t.Run("the same request answers 409 with Retry-After, and its handler does not run", func(t *testing.T) {
		resp := tally(t, env, token, "slow?then=wait", key)
		assert.Contains(t, resp.RequireError(t, http.StatusConflict), "still running")
		assert.Equal(t, "1", resp.Header.Get("Retry-After"))
		assert.NotEmpty(t, resp.Header.Get("X-Ratelimit-Remaining"))
		assert.Equal(t, 1, count(t, env, acctA, "slow"))
	})
	t.Run("another request with the key answers 422 even while the first runs", func(t *testing.T) {
		tally(t, env, token, "other", key).RequireError(t, http.StatusUnprocessableEntity)
		assert.Equal(t, 0, count(t, env, acctA, "other"))
	})

	g.release()
	first := answer()
	require.Equal(t, http.StatusOK, first.Status, "body: %s", first.Body)
	assert.Equal(t, 1, countOf(t, first))

	t.Run("once the first has answered, the retry gets its answer", func(t *testing.T) {
		requireReplay(t, first, tally(t, env, token, "slow?then=wait", key))
		assert.Equal(t, 1, count(t, env, acctA, "slow"))
	})
}

func TestAClaimWhoseRequestNeverFinishesLapsesAfterTheLease(t *testing.T) {
	g := newGate(t)
	env, token := newEnv(t, g)
	const key = "stuck-request"
	answer := g.hold(t, env, token, "stuck?then=wait", key)
	running := record(t, env, acctA, key)
	require.NotNil(t, running)
	assert.EqualValues(t, testenv.Start.Add(idempotency.ClaimLease).Unix(), running[storage.AttrExpiresAt], "a running claim expires after the lease")

	env.Clock.Advance(idempotency.ClaimLease - time.Second)
	tally(t, env, token, "stuck?then=wait", key).RequireError(t, http.StatusConflict)

	env.Clock.Advance(time.Second)
	retry := tally(t, env, token, "stuck?then=wait", key) // a second run does not wait
	require.Equal(t, http.StatusOK, retry.Status, "body: %s", retry.Body)
	assert.Empty(t, retry.Header.Get(idempotency.HeaderReplayed), "the lapsed claim's key ran again")
	assert.Equal(t, 2, countOf(t, retry))
	g.release()
	require.Equal(t, http.StatusOK, answer().Status)
	assert.Equal(t, 2, count(t, env, acctA, "stuck"))

	t.Run("the late first answer does not replace the retry's kept answer", func(t *testing.T) {
		again := tally(t, env, token, "stuck?then=wait", key)
		requireReplay(t, retry, again)
		assert.Equal(t, 2, countOf(t, again))
	})
}

func TestAnswersThatAskForARetryAreNotKept(t *testing.T) {
	env, token := newEnv(t, nil)
	for _, tc := range []struct {
		name   string
		then   string
		status int
	}{
		{name: "a 503 (storage outage)", then: "unavailable", status: http.StatusServiceUnavailable},
		{name: "a 500", then: "fail", status: http.StatusInternalServerError},
		{name: "a 500 from a panic", then: "panic", status: http.StatusInternalServerError},
		{name: "a 200 too large to keep", then: "large", status: http.StatusOK},
	} {
		t.Run(tc.name+" releases the key: the retry runs", func(t *testing.T) {
			path, key := tc.then+"?then="+tc.then, "not-kept-"+tc.then
			for run := 1; run <= 2; run++ {
				resp := tally(t, env, token, path, key)
				require.Equal(t, tc.status, resp.Status, "body: %.200s", resp.Body)
				assert.Empty(t, resp.Header.Get(idempotency.HeaderReplayed))
				if tc.status == http.StatusServiceUnavailable {
					assert.Equal(t, "1", resp.Header.Get("Retry-After"), "the answer keeps its own headers")
				}
				assert.Equal(t, run, count(t, env, acctA, tc.then), "the handler ran")
				assert.Nil(t, record(t, env, acctA, key), "nothing holds the key")
			}
		})
	}
	t.Run("a 404 from the handler is kept, like every other answer", func(t *testing.T) {
		first := tally(t, env, token, "closed?then=refuse", "kept-404")
		first.RequireError(t, http.StatusNotFound)
		requireReplay(t, first, tally(t, env, token, "closed?then=refuse", "kept-404"))
		assert.Equal(t, 1, count(t, env, acctA, "closed"))
	})
}

func TestARequestRefusedByTheRateLimitLeavesNoClaim(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	env, token := newEnv(t, nil, testenv.WithTable(counted), testenv.WithLimits(1, 10*time.Second, 1000))
	require.Equal(t, http.StatusOK, tally(t, env, token, "limited", "").Status)
	calls.Take()

	refused := tally(t, env, token, "limited", "limited-key")
	refused.RequireError(t, http.StatusTooManyRequests)
	// The claim waited for admission and was never sent: the refused
	// admission's write (its state comes back with the failure) and the
	// account's 429 counter (shared/failures), nothing else.
	assert.Equal(t, map[string]int{"UpdateItem": 2}, calls.Take(), "no claim written, none deleted")
	assert.Nil(t, record(t, env, acctA, "limited-key"), "no claim")
	assert.Equal(t, 1, count(t, env, acctA, "limited"), "the handler did not run")

	env.Clock.Advance(10 * time.Second)
	first := tally(t, env, token, "limited", "limited-key")
	require.Equal(t, http.StatusOK, first.Status, "the retry runs: body %s", first.Body)
	assert.Equal(t, 2, countOf(t, first))

	t.Run("a retry over the limit is refused, not replayed", func(t *testing.T) {
		tally(t, env, token, "limited", "limited-key").RequireError(t, http.StatusTooManyRequests)
		env.Clock.Advance(10 * time.Second)
		requireReplay(t, first, tally(t, env, token, "limited", "limited-key"))
		assert.Equal(t, 2, count(t, env, acctA, "limited"))
	})
}

func TestKeysBelongToTheAccount(t *testing.T) {
	env, tokenA := newEnv(t, nil)
	tokenB, _ := env.Token(t, acctB)
	const key = "shared-key"

	t.Run("the same key in two accounts is two keys: each runs once", func(t *testing.T) {
		firstA := tally(t, env, tokenA, "n", key)
		firstB := tally(t, env, tokenB, "n", key)
		require.Equal(t, http.StatusOK, firstA.Status)
		require.Equal(t, http.StatusOK, firstB.Status)
		assert.Empty(t, firstB.Header.Get(idempotency.HeaderReplayed))
		assert.Equal(t, 1, count(t, env, acctA, "n"))
		assert.Equal(t, 1, count(t, env, acctB, "n"))
		requireReplay(t, firstA, tally(t, env, tokenA, "n", key))
		requireReplay(t, firstB, tally(t, env, tokenB, "n", key))
	})
	t.Run("two tokens of one account share its keys", func(t *testing.T) {
		otherTokenA, _ := env.Token(t, acctA)
		first := tally(t, env, tokenA, "m", "account-key")
		requireReplay(t, first, tally(t, env, otherTokenA, "m", "account-key"))
		assert.Equal(t, 1, count(t, env, acctA, "m"))
	})
}

func TestBadKeysAnswer400AndRunNothing(t *testing.T) {
	env, token := newEnv(t, nil)
	for _, tc := range []struct {
		name string
		key  string
	}{
		{name: "an empty key (spaces only)", key: "   "},
		{name: "a key of 256 characters", key: strings.Repeat("k", 256)},
		{name: "a key with a character outside ASCII", key: "clé-1"},
		{name: "a key with a tab", key: "a\tb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := tally(t, env, token, "bad", tc.key)
			assert.Contains(t, resp.RequireError(t, http.StatusBadRequest), "Idempotency-Key header must be 1 to 255 printable ASCII characters")
			assert.Equal(t, 0, count(t, env, acctA, "bad"))
		})
	}
	t.Run("two keys", func(t *testing.T) {
		// testenv sends one value per header; the contract check is not
		// needed for a 400 the document lists on every operation.
		req, err := http.NewRequest("POST", env.HTTP.URL+"/tally/bad", nil)
		require.NoError(t, err)
		req.Header.Set("Version", "2021-07-28")
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Add(idempotency.HeaderKey, "one")
		req.Header.Add(idempotency.HeaderKey, "two")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		assert.Equal(t, 0, count(t, env, acctA, "bad"))
	})
	for _, key := range []string{strings.Repeat("k", 255), "a", "order 42: retry #3 (~!@$%^&*)"} {
		t.Run(fmt.Sprintf("a key of %d printable characters is accepted", len(key)), func(t *testing.T) {
			assert.Equal(t, http.StatusOK, tally(t, env, token, "good", key).Status)
		})
	}
	t.Run("a read ignores the header, even a bad one", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/contacts/?locationId=" + acctA, Token: token, Headers: map[string]string{idempotency.HeaderKey: "a\tb"}})
		assert.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	})
}

func TestTheAnswerIsKeptFor24Hours(t *testing.T) {
	env, token := newEnv(t, nil)
	first := tally(t, env, token, "daily", "day-key")
	require.Equal(t, http.StatusOK, first.Status)

	kept := record(t, env, acctA, "day-key")
	require.NotNil(t, kept)
	assert.EqualValues(t, testenv.Start.Add(24*time.Hour).Unix(), kept[storage.AttrExpiresAt], "the table's TTL attribute, 24 h ahead")

	env.Clock.Advance(24*time.Hour - time.Second)
	requireReplay(t, first, tally(t, env, token, "daily", "day-key"))

	env.Clock.Advance(time.Second)
	again := tally(t, env, token, "daily", "day-key")
	require.Equal(t, http.StatusOK, again.Status)
	assert.Empty(t, again.Header.Get(idempotency.HeaderReplayed), "after 24 h the key is new (even before TTL deletes the item)")
	assert.Equal(t, 2, countOf(t, again))
}

func TestStorageCallsOfAKeyedRequest(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	env, token := newEnv(t, nil, testenv.WithTable(counted))
	require.Equal(t, http.StatusOK, tally(t, env, token, "warm-up", "").Status)
	calls.Take()

	// The handler: one UpdateItem and one GetItem; admission: one UpdateItem.
	t.Run("a request without a key costs what it always did", func(t *testing.T) {
		require.Equal(t, http.StatusOK, tally(t, env, token, "calls", "").Status)
		assert.Equal(t, map[string]int{"UpdateItem": 2, "GetItem": 1}, calls.Take())
	})
	t.Run("a first keyed request adds the claim and the kept answer", func(t *testing.T) {
		require.Equal(t, http.StatusOK, tally(t, env, token, "calls", "calls-key").Status)
		assert.Equal(t, map[string]int{"UpdateItem": 2, "GetItem": 1, "PutItem": 2}, calls.Take())
	})
	t.Run("a replay costs admission and the failed claim, which brings the kept answer back", func(t *testing.T) {
		require.Equal(t, "true", tally(t, env, token, "calls", "calls-key").Header.Get(idempotency.HeaderReplayed))
		assert.Equal(t, map[string]int{"UpdateItem": 1, "PutItem": 1}, calls.Take())
	})
}
