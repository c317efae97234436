package ratelimit_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/ratelimit"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// twoInstances starts two servers (two Lambda instances, each with its own
// caches) on one table and one clock.
func twoInstances(t *testing.T, burst int, window time.Duration, daily int) (*testenv.Env, *testenv.Env, string) {
	table := testenv.NewTable(t)
	clk := clock.NewManual(testenv.Start)
	a := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(table), testenv.WithClock(clk), testenv.WithLimits(burst, window, daily))
	b := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(table), testenv.WithClock(clk), testenv.WithLimits(burst, window, daily))
	a.Account(t, "acct1", "co1")
	token, _ := a.Token(t, "acct1")
	return a, b, token
}

func ping(t *testing.T, e *testenv.Env, token string) *testenv.Response {
	return e.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: token})
}

func TestTwoInstancesTogetherAdmitExactlyTheBurstLimit(t *testing.T) {
	const burst = 100
	a, b, token := twoInstances(t, burst, 10*time.Second, 200_000)

	var mu sync.Mutex
	statuses := map[int]int{}
	var refused []*testenv.Response
	var wg sync.WaitGroup
	for i := 0; i < 3*burst; i++ {
		wg.Add(1)
		go func(e *testenv.Env) {
			defer wg.Done()
			resp := ping(t, e, token)
			mu.Lock()
			defer mu.Unlock()
			statuses[resp.Status]++
			if resp.Status == http.StatusTooManyRequests {
				refused = append(refused, resp)
			}
		}([]*testenv.Env{a, b}[i%2])
	}
	wg.Wait()
	assert.Equal(t, map[int]int{200: burst, 429: 2 * burst}, statuses)

	t.Run("every refusal carries the rate headers and Retry-After", func(t *testing.T) {
		for _, resp := range refused {
			resp.RequireError(t, http.StatusTooManyRequests)
			assert.Equal(t, "100", resp.Header.Get("X-RateLimit-Max"))
			assert.Equal(t, "0", resp.Header.Get("X-RateLimit-Remaining"))
			assert.Equal(t, "10000", resp.Header.Get("X-RateLimit-Interval-Milliseconds"))
			assert.Equal(t, "200000", resp.Header.Get("X-RateLimit-Limit-Daily"))
			assert.Equal(t, "199900", resp.Header.Get("X-RateLimit-Daily-Remaining"))
			// The clock stands 3 s into its window: 7 s remain.
			assert.Equal(t, "7", resp.Header.Get("Retry-After"))
		}
	})
	t.Run("the next window admits again", func(t *testing.T) {
		a.Clock.Advance(10 * time.Second)
		for i, e := range []*testenv.Env{a, b} {
			resp := ping(t, e, token)
			require.Equal(t, http.StatusOK, resp.Status)
			assert.Equal(t, strconv.Itoa(burst-1-i), resp.Header.Get("X-RateLimit-Remaining"))
		}
	})
}

func TestTheDailyLimitHoldsAcrossWindowsAndResetsAtMidnightUTC(t *testing.T) {
	a, b, token := twoInstances(t, 5, 10*time.Second, 12)
	admitted := 0
	for w := 0; w < 4; w++ {
		for i := 0; i < 5; i++ {
			if ping(t, []*testenv.Env{a, b}[i%2], token).Status == http.StatusOK {
				admitted++
			}
		}
		a.Clock.Advance(10 * time.Second)
	}
	assert.Equal(t, 12, admitted)

	resp := ping(t, a, token)
	msg := resp.RequireError(t, http.StatusTooManyRequests)
	assert.Contains(t, msg, "12 requests per day")
	assert.Equal(t, "0", resp.Header.Get("X-RateLimit-Daily-Remaining"))
	midnight := time.Date(2026, 6, 16, 0, 0, 0, 0, time.UTC)
	wantRetry := int(midnight.Sub(a.Clock.Now()).Seconds())
	assert.Equal(t, strconv.Itoa(wantRetry), resp.Header.Get("Retry-After"))

	a.Clock.Set(midnight.Add(time.Second))
	resp = ping(t, b, token)
	require.Equal(t, http.StatusOK, resp.Status)
	assert.Equal(t, "11", resp.Header.Get("X-RateLimit-Daily-Remaining"))
}

func TestAnInstanceWithASlowClockCountsAgainstTheNewerWindow(t *testing.T) {
	table := testenv.NewTable(t)
	fast := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(table), testenv.WithLimits(10, 10*time.Second, 1000),
		testenv.WithClock(clock.NewManual(testenv.Start.Add(10*time.Second))))
	slow := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(table), testenv.WithLimits(10, 10*time.Second, 1000))
	fast.Account(t, "acct1", "co1")
	token, _ := fast.Token(t, "acct1")

	for i := 0; i < 6; i++ {
		require.Equal(t, http.StatusOK, ping(t, fast, token).Status)
	}
	admitted := 0
	for i := 0; i < 10; i++ {
		if ping(t, slow, token).Status == http.StatusOK {
			admitted++
		}
	}
	assert.Equal(t, 4, admitted, "both instances together admit at most the burst")
}

func TestRevocationTakesEffectOnTheNextRequestOnEveryInstance(t *testing.T) {
	a, b, _ := twoInstances(t, 1000, 10*time.Second, 100000)
	token, id := a.Token(t, "acct1")
	require.Equal(t, http.StatusOK, ping(t, a, token).Status)
	require.Equal(t, http.StatusOK, ping(t, b, token).Status) // both instances cache the token

	_, err := a.Server.Tokens.Revoke(context.Background(), id)
	require.NoError(t, err)
	for name, e := range map[string]*testenv.Env{"the revoking instance": a, "another warm instance": b} {
		t.Run(name, func(t *testing.T) {
			assert.Contains(t, ping(t, e, token).RequireError(t, http.StatusUnauthorized), "revoked")
		})
	}
	t.Run("a cold instance", func(t *testing.T) {
		cold := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(a.Table), testenv.WithClock(a.Clock))
		assert.Contains(t, ping(t, cold, token).RequireError(t, http.StatusUnauthorized), "revoked")
	})
}

func TestRevocationSurvivesTheExpiryOfTheAccountState(t *testing.T) {
	a, b, _ := twoInstances(t, 1000, 10*time.Second, 100000)
	token, id := a.Token(t, "acct1")
	keep, _ := a.Token(t, "acct1")
	require.Equal(t, http.StatusOK, ping(t, a, token).Status)
	require.Equal(t, http.StatusOK, ping(t, b, token).Status)

	_, err := a.Server.Tokens.Revoke(context.Background(), id)
	require.NoError(t, err)
	// The account goes idle; DynamoDB's TTL deletes its state item with
	// the revoked list. Both instances still cache the token's facts.
	a.Clock.Advance(72 * time.Hour)
	require.NoError(t, a.Table.Delete(context.Background(), ratelimit.StateKey("acct1"), nil))

	for name, e := range map[string]*testenv.Env{"first instance": a, "second instance": b} {
		t.Run(name, func(t *testing.T) {
			ping(t, e, token).RequireError(t, http.StatusUnauthorized)
		})
	}
	t.Run("other tokens of the account still work", func(t *testing.T) {
		assert.Equal(t, http.StatusOK, ping(t, b, keep).Status)
	})
}

func TestARevokedTokenDoesNotUseUpTheAccountsLimit(t *testing.T) {
	a, _, good := twoInstances(t, 3, 10*time.Second, 100)
	revoked, id := a.Token(t, "acct1")
	require.Equal(t, http.StatusOK, ping(t, a, revoked).Status)
	_, err := a.Server.Tokens.Revoke(context.Background(), id)
	require.NoError(t, err)
	for i := 0; i < 10; i++ {
		ping(t, a, revoked).RequireError(t, http.StatusUnauthorized)
	}
	// One of three used by the revoked token before its revocation.
	assert.Equal(t, http.StatusOK, ping(t, a, good).Status)
	assert.Equal(t, http.StatusOK, ping(t, a, good).Status)
	ping(t, a, good).RequireError(t, http.StatusTooManyRequests)
}

func TestTheCriticalPathIsOneWriteWarmAndOneReadMoreCold(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	env := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(counted))
	env.Account(t, "acct1", "co1")
	token, _ := env.Token(t, "acct1")
	ping(t, env, token)                // the account's state item is born
	env.Clock.Advance(6 * time.Second) // same 10 s window, past the clock-skew margin

	cold := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(counted), testenv.WithClock(env.Clock))
	calls.Take()
	require.Equal(t, http.StatusOK, ping(t, cold, token).Status)
	assert.Equal(t, map[string]int{"GetItem": 1, "UpdateItem": 1}, calls.Take(), "a cold instance reads the token once")

	for i := 0; i < 5; i++ {
		require.Equal(t, http.StatusOK, ping(t, cold, token).Status)
		assert.Equal(t, map[string]int{"UpdateItem": 1}, calls.Take(), "a warm instance makes one conditional write")
	}
	t.Run("a window rollover the instance has seen coming is still one write", func(t *testing.T) {
		cold.Clock.Advance(10 * time.Second)
		require.Equal(t, http.StatusOK, ping(t, cold, token).Status)
		assert.Equal(t, map[string]int{"UpdateItem": 1}, calls.Take())
	})
	t.Run("a window another instance rolled over costs a failed write and another", func(t *testing.T) {
		cold.Clock.Advance(10 * time.Second)
		require.Equal(t, http.StatusOK, ping(t, env, token).Status) // the other instance rolls first
		calls.Take()
		require.Equal(t, http.StatusOK, ping(t, cold, token).Status)
		// DynamoDB returns the state item with the failed condition
		// (ReturnValuesOnConditionCheckFailure): no read.
		assert.Equal(t, map[string]int{"UpdateItem": 2}, calls.Take())
	})
	t.Run("the state item carries the TTL attribute", func(t *testing.T) {
		st, err := storage.Get[map[string]any](context.Background(), table, ratelimit.StateKey("acct1"))
		require.NoError(t, err)
		require.NotNil(t, st)
		assert.Contains(t, *st, storage.AttrExpiresAt)
	})
}

func TestARefusalSaysHowLongToWaitInWordsAndHeader(t *testing.T) {
	for _, tc := range []struct {
		name       string
		waitBefore time.Duration // after the first request, 3 s into its 10 s window
		retryAfter string
		message    string
	}{
		{"one second left reads in the singular", 6 * time.Second, "1", "retry after 1 second"},
		{"less than a second left rounds up to one second", 6*time.Second + 500*time.Millisecond, "1", "retry after 1 second"},
		{"several seconds left read in the plural", 0, "7", "retry after 7 seconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _, token := twoInstances(t, 1, 10*time.Second, 200_000)
			require.Equal(t, http.StatusOK, ping(t, a, token).Status)
			a.Clock.Advance(tc.waitBefore)
			resp := ping(t, a, token)
			msg := resp.RequireError(t, http.StatusTooManyRequests)
			assert.Equal(t, tc.retryAfter, resp.Header.Get("Retry-After"))
			assert.True(t, strings.HasSuffix(msg, tc.message), "message: %s", msg)
			assert.Contains(t, msg, "limit of 1 request per 10s", "a limit of one request reads in the singular too")
		})
	}
}

func TestARevocationOfAnIdleAccountIsRecordedInANewStateItemThatExpires(t *testing.T) {
	a, b, _ := twoInstances(t, 1000, 10*time.Second, 100000)
	token, id := a.Token(t, "acct1")
	require.Equal(t, http.StatusOK, ping(t, b, token).Status) // b caches the token
	ctx := context.Background()
	// The account goes idle and its state item expires by TTL.
	require.NoError(t, a.Table.Delete(ctx, ratelimit.StateKey("acct1"), nil))

	_, err := a.Server.Tokens.Revoke(ctx, id)
	require.NoError(t, err)
	st, err := storage.Get[map[string]any](ctx, a.Table, ratelimit.StateKey("acct1"))
	require.NoError(t, err)
	require.NotNil(t, st, "the revocation's record made a state item")
	assert.Contains(t, (*st)["revoked"], id)
	assert.Contains(t, *st, storage.AttrExpiresAt, "which expires like any other")
	assert.Contains(t, ping(t, b, token).RequireError(t, http.StatusUnauthorized), "revoked")
}

// conflicting answers the first writes of the state items as DynamoDB does
// while a transaction is writing the item.
type conflicting struct {
	storage.API
	left atomic.Int32
}

func (c *conflicting) UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	if pk, ok := in.Key[storage.AttrPK].(*types.AttributeValueMemberS); ok && strings.HasPrefix(pk.Value, "RATE#") && c.left.Add(-1) >= 0 {
		return nil, &types.TransactionConflictException{Message: aws.String("Transaction is ongoing for the item")}
	}
	return c.API.UpdateItem(ctx, in, opts...)
}

func TestAnAdmissionWaitsForATransactionOnTheStateItem(t *testing.T) {
	cases := []struct {
		name      string
		conflicts int32
		admitted  bool
	}{
		{"a request that meets a revocation's transaction is admitted once it is over", 2, true},
		{"a state item held for longer answers 503", 100, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			table := testenv.NewTable(t)
			db := &conflicting{API: table.DB}
			db.left.Store(tc.conflicts)
			limiter := ratelimit.New(&storage.Table{DB: dynamo.Classified(db), Name: table.Name}, clock.NewManual(testenv.Start),
				ratelimit.Limits{Burst: 10, Window: 10 * time.Second, Daily: 100})
			d, err := limiter.Admit(context.Background(), "acct1", "tok1")
			if !tc.admitted {
				assert.True(t, apierror.HasCode(err, apierror.CodeUnavailable), "err: %v", err)
				return
			}
			require.NoError(t, err)
			assert.True(t, d.Allowed)
			assert.Equal(t, 9, d.BurstRemaining, "counted once")
		})
	}
}
