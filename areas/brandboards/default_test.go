package brandboards_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/brandboards"
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
	for round := range 3 {
		t.Run(fmt.Sprintf("round %d: eight default and four plain creations at once", round+1), func(t *testing.T) {
			const defaults, plains = 8, 4
			created := make([]brandboards.Board, defaults+plains)
			statuses := make([]int, defaults+plains)
			var wg sync.WaitGroup
			for i := range defaults + plains {
				wg.Add(1)
				go func() {
					defer wg.Done()
					body := map[string]any{"locationId": acctA, "name": fmt.Sprintf("Race %d-%d", round, i), "default": i < defaults}
					if i%3 == 0 {
						body["brandBoardId"] = boardDefaultA // copying reads the board the race rewrites
					}
					resp := post(t, env, token, body)
					statuses[i] = resp.Status
					if resp.Status == http.StatusCreated {
						resp.JSON(t, &created[i])
					}
				}()
			}
			wg.Wait()
			ids := map[string]bool{}
			for i, s := range statuses {
				require.Equal(t, http.StatusCreated, s, "request %d", i)
				assert.Equal(t, i < defaults, created[i].Default)
				ids[created[i].ID] = true
			}
			def, err := store.DefaultID(t.Context(), acctA)
			require.NoError(t, err)
			require.True(t, ids[def], "the default is one of this round's default boards")
			onlyDefault(t, store, acctA, def)
		})
	}
	t.Run("the other account's default is untouched", func(t *testing.T) {
		onlyDefault(t, store, acctB, boardB)
	})
}
