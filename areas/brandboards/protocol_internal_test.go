package brandboards

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/storage"
)

const (
	acct = "acctProto"
	at   = "2026-01-01T00:00:00.000Z"
)

func newBoard(id string, def bool) Board {
	return Board{ID: id, LocationID: acct, Name: id, Logos: []Logo{}, Colors: []Color{}, Fonts: []Font{}, Default: def, CreatedAt: at, UpdatedAt: at}
}

func storedFlags(t *testing.T, s *Boards) map[string]bool {
	t.Helper()
	flags, err := s.StoredDefaults(context.Background(), acct)
	require.NoError(t, err)
	return flags
}

func defaultID(t *testing.T, s *Boards) string {
	t.Helper()
	id, err := s.DefaultID(context.Background(), acct)
	require.NoError(t, err)
	return id
}

// derivedDefaults is each board's Default as List answers it.
func derivedDefaults(t *testing.T, s *Boards) map[string]bool {
	t.Helper()
	list, err := s.List(context.Background(), acct)
	require.NoError(t, err)
	out := map[string]bool{}
	for _, b := range list {
		out[b.ID] = b.Default
	}
	return out
}

// Items as the protocol before transactions wrote them: boards stamped with
// the pointer version of their flag, a pointer with a version.
type (
	stampedBoard struct {
		Board
		DefaultVersion int64 `dynamodbav:"defaultVersion"`
		Version        int64 `dynamodbav:"version"`
	}
	versionedPointer struct {
		BoardID   string `dynamodbav:"boardId"`
		Version   int64  `dynamodbav:"version"`
		UpdatedAt string `dynamodbav:"updatedAt"`
	}
)

func TestDefaultChangeInterleavings(t *testing.T) {
	ctx := context.Background()

	t.Run("a creation that read the pointer before another default moved it becomes the default after it, without reading again", func(t *testing.T) {
		table := testenv.NewTable(t)
		s := NewBoards(table)
		require.NoError(t, s.Create(ctx, newBoard("first", true), testenv.Start))
		stale, err := s.prepare(ctx, acct, "", true)
		require.NoError(t, err)
		require.NoError(t, s.Create(ctx, newBoard("fast", true), testenv.Start))

		counted, calls := testenv.CountingTable(t, table)
		require.NoError(t, NewBoards(counted).create(ctx, newBoard("slow", true), stale, testenv.Start))
		assert.Equal(t, map[string]int{"TransactWriteItems": 2}, calls.Take(), "the lost transaction returned the pointer it found")
		assert.Equal(t, "slow", defaultID(t, s))
		assert.Equal(t, map[string]bool{"first": false, "fast": false, "slow": true}, storedFlags(t, s))
	})

	t.Run("a board created without default leaves the pointer and the flags alone", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		require.NoError(t, s.Create(ctx, newBoard("main", true), testenv.Start))
		require.NoError(t, s.Create(ctx, newBoard("plain", false), testenv.Start))
		assert.Equal(t, "main", defaultID(t, s))
		assert.Equal(t, map[string]bool{"main": true, "plain": false}, storedFlags(t, s))
	})

	t.Run("a pointer naming a missing board fails the creation, which writes nothing", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		require.NoError(t, s.table.Put(ctx, storage.Keyed{Key: s.pointers.Key(acct, ""), Record: defaultPointer{BoardID: "ghost", UpdatedAt: at}}, nil))
		require.ErrorContains(t, s.Create(ctx, newBoard("new", true), testenv.Start), "names board ghost, which does not exist")
		assert.Empty(t, storedFlags(t, s), "the new board was not stored")
		assert.Equal(t, "ghost", defaultID(t, s))
	})

	t.Run("a creation that keeps losing the pointer answers 503 and writes nothing", func(t *testing.T) {
		table := testenv.NewTable(t)
		s := NewBoards(table)
		require.NoError(t, s.Create(ctx, newBoard("a", true), testenv.Start))
		require.NoError(t, s.Create(ctx, newBoard("b", false), testenv.Start))
		mover := &pointerMover{API: table.DB, boards: s, between: [2]string{"a", "b"}}
		err := NewBoards(&storage.Table{DB: mover, Name: table.Name}).Create(ctx, newBoard("loser", true), testenv.Start)
		assert.Equal(t, http.StatusServiceUnavailable, apierror.Status(err, 0), "%v", err)
		assert.ErrorIs(t, err, storage.ErrContention)
		assert.EqualValues(t, maxDefaultMoves, mover.moves.Load())
		assert.NotContains(t, storedFlags(t, s), "loser")
		assert.Equal(t, 1, countTrue(storedFlags(t, s)), "one board is flagged")
		assert.Equal(t, storedFlags(t, s), derivedDefaults(t, s), "and it is the pointer's")
	})

	t.Run("boards and a pointer stamped with versions read right and take the next default", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		stamped := []stampedBoard{
			{Board: newBoard("old", false), DefaultVersion: 2, Version: 1},
			{Board: newBoard("current", true), DefaultVersion: 3, Version: 1},
			// Left flagged by a creation that stopped before the pointer
			// moved to it.
			{Board: newBoard("stopped", true), DefaultVersion: 3, Version: 1},
		}
		for _, b := range stamped {
			require.NoError(t, s.table.Put(ctx, storage.Keyed{Key: s.boards.Key(acct, b.ID), Record: b}, nil))
		}
		require.NoError(t, s.table.Put(ctx, storage.Keyed{Key: s.pointers.Key(acct, ""), Record: versionedPointer{BoardID: "current", Version: 3, UpdatedAt: at}}, nil))
		assert.Equal(t, map[string]bool{"old": false, "current": true, "stopped": false}, derivedDefaults(t, s), "reads follow the pointer")

		require.NoError(t, s.Create(ctx, newBoard("next", true), testenv.Start))
		assert.Equal(t, map[string]bool{"old": false, "current": false, "stopped": false, "next": true}, derivedDefaults(t, s))
		flags := storedFlags(t, s)
		assert.False(t, flags["current"], "the board the pointer named lost its flag")
		assert.True(t, flags["next"])
		p, err := storage.Get[versionedPointer](ctx, s.table, s.pointers.Key(acct, ""))
		require.NoError(t, err)
		assert.Equal(t, versionedPointer{BoardID: "next", UpdatedAt: at}, *p, "the pointer is written whole, without a version")
	})
}

func countTrue(flags map[string]bool) int {
	n := 0
	for _, on := range flags {
		if on {
			n++
		}
	}
	return n
}

// pointerMover moves the default pointer between two boards (flags
// included, in one transaction) before every transaction it forwards: a
// creation racing an endless stream of default changes.
type pointerMover struct {
	storage.API
	boards  *Boards
	between [2]string
	moves   atomic.Int32
}

func (m *pointerMover) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	n := m.moves.Add(1)
	from, to := m.between[(n-1)%2], m.between[n%2]
	direct := NewBoards(&storage.Table{DB: m.API, Name: m.boards.table.Name})
	err := direct.takeDefault(ctx, acct, to, at, from, func(tx *storage.Tx) *storage.Tx {
		return tx.Update(direct.boards.Key(acct, to), setDefault(true), storage.ItemExists())
	})
	if err != nil {
		return nil, err
	}
	return m.API.TransactWriteItems(ctx, in, opts...)
}
