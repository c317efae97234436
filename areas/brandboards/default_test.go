package brandboards_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/brandboards"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

func TestCreateDefaultBrandBoardTakesTheFlagFromThePreviousDefault(t *testing.T) {
	env, token := newEnv(t)
	store := brandboards.NewBoards(env.Table)
	previous := boardDefaultA
	for i := range 3 {
		t.Run(fmt.Sprintf("default board %d becomes the only default", i+1), func(t *testing.T) {
			got := requireCreated(t, post(t, env, token, map[string]any{"locationId": acctA, "name": fmt.Sprintf("Default %d", i), "default": true}))
			assert.True(t, got.Default)
			assert.True(t, getBoard(t, store, acctA, got.ID).Default)
			assert.False(t, getBoard(t, store, acctA, previous).Default, "the previous default lost the flag")
			onlyDefault(t, store, acctA, got.ID)
			previous = got.ID
		})
	}
	t.Run("a board created with default false leaves the default alone", func(t *testing.T) {
		got := requireCreated(t, post(t, env, token, map[string]any{"locationId": acctA, "name": "Not default", "default": false}))
		assert.False(t, got.Default)
		onlyDefault(t, store, acctA, previous)
	})
	t.Run("the other account's default is untouched", func(t *testing.T) {
		onlyDefault(t, store, acctB, boardB)
	})
}

func TestCreateDefaultBrandBoardInAnAccountWithoutDefault(t *testing.T) {
	env, _ := newEnv(t)
	store := brandboards.NewBoards(env.Table)
	env.Account(t, "acctCharlie", company)
	charlie, _ := env.Token(t, "acctCharlie")
	plain := requireCreated(t, post(t, env, charlie, map[string]any{"locationId": "acctCharlie", "name": "Plain"}))
	assert.False(t, plain.Default, "a first board is not made the default unasked")
	def := requireCreated(t, post(t, env, charlie, map[string]any{"locationId": "acctCharlie", "name": "Main", "default": true}))
	onlyDefault(t, store, "acctCharlie", def.ID)
}

func TestConcurrentDefaultBrandBoardsLeaveExactlyOneDefault(t *testing.T) {
	env, token := newEnv(t)
	store := brandboards.NewBoards(env.Table)
	ctx := context.Background()
	for round := range 3 {
		t.Run(fmt.Sprintf("round %d: twelve default and four plain creations at once", round+1), func(t *testing.T) {
			const defaults, plains = 12, 4
			before, err := store.List(ctx, acctA)
			require.NoError(t, err)
			answers := make([]*testenv.Response, defaults+plains)
			var wg sync.WaitGroup
			for i := range answers {
				wg.Go(func() {
					body := map[string]any{"locationId": acctA, "name": fmt.Sprintf("Race %d-%d", round, i), "default": i < defaults}
					if i%3 == 0 {
						body["brandBoardId"] = boardDefaultA // copying reads a board the race rewrites
					}
					answers[i] = post(t, env, token, body)
				})
			}
			wg.Wait()

			def, err := store.DefaultID(ctx, acctA)
			require.NoError(t, err)
			created := map[string]brandboards.Board{}
			refused := 0
			for i, resp := range answers {
				if resp.Status == http.StatusServiceUnavailable && i < defaults {
					// The documented refusal of a default creation that lost
					// the pointer too many times in a row: it wrote nothing.
					assert.NotEmpty(t, resp.Header.Get("Retry-After"), "request %d", i)
					refused++
					continue
				}
				b := requireCreated(t, resp)
				assert.Equal(t, i < defaults, b.Default, "request %d answers the default it asked for", i)
				created[b.ID] = b
			}
			t.Logf("%d created, %d refused with 503", len(created), refused)
			require.Contains(t, created, def, "the default is one of this round's boards")
			assert.True(t, created[def].Default, "and one created as a default")
			onlyDefault(t, store, acctA, def)

			after, err := store.List(ctx, acctA)
			require.NoError(t, err)
			assert.Len(t, after, len(before)+len(created), "one board stored per success, none for a refusal")
			for id, answered := range created {
				stored := getBoard(t, store, acctA, id)
				answered.Default = id == def
				assert.Equal(t, answered, stored, "board %s is stored whole, as answered", id)
			}
		})
	}
	t.Run("the other account's default is untouched", func(t *testing.T) {
		onlyDefault(t, store, acctB, boardB)
	})
}

func TestCreatingADefaultBoardCopiedFromAnotherTakesTwoRoundTrips(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	env := testenv.New(t, []app.Area{brandboards.Area}, testenv.WithTable(counted))
	env.Account(t, acctA, company)
	env.Seed(t, brandboards.Area, fixture)
	token, _ := env.Token(t, acctA)
	requireCreated(t, post(t, env, token, map[string]any{"locationId": acctA, "name": "Warm-up"})) // the token's facts cached
	calls.Take()
	calls.Hold(20 * time.Millisecond)

	got := requireCreated(t, post(t, env, token, map[string]any{"locationId": acctA, "name": "Copy", "brandBoardId": boardDefaultA, "default": true}))
	made := calls.TakeCalls()
	ops := map[string]int{}
	for _, c := range made {
		ops[c.Op]++
	}
	assert.Equal(t, map[string]int{"UpdateItem": 1, "GetItem": 2, "TransactWriteItems": 1}, ops,
		"admission; the source and the pointer; the board, the old default's flag and the pointer together")
	assert.Equal(t, 2, testenv.RoundTrips(made), "the reads run beside admission")
	onlyDefault(t, brandboards.NewBoards(table), acctA, got.ID)
}
