package brandboards

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
)

const acct = "acctProto"

func newBoard(id string, def bool) Board {
	return Board{ID: id, LocationID: acct, Name: id, Logos: []Logo{}, Colors: []Color{}, Fonts: []Font{}, Default: def,
		CreatedAt: "2026-01-01T00:00:00.000Z", UpdatedAt: "2026-01-01T00:00:00.000Z"}
}

func storedFlags(t *testing.T, s *Boards) map[string]bool {
	t.Helper()
	flags, err := s.StoredDefaults(context.Background(), acct)
	require.NoError(t, err)
	return flags
}

// startDefault runs steps 1 and 2 of the protocol for a new board and stops:
// a writer that is slow (or stopped) before settling the flags.
func startDefault(t *testing.T, s *Boards, id string) int64 {
	t.Helper()
	ctx := context.Background()
	b := newBoard(id, true)
	require.NoError(t, s.table.Put(ctx, boardItem{Key: boardKey(acct, id), Board: Board{ID: b.ID, LocationID: acct, Name: b.Name}, PendingDefault: true}, nil))
	v, err := s.movePointer(ctx, acct, id, b.UpdatedAt)
	require.NoError(t, err)
	return v
}

func TestDefaultProtocolInterleavings(t *testing.T) {
	ctx := context.Background()

	t.Run("a slow older writer settling after the newest one does not flag its board", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		require.NoError(t, s.Create(ctx, newBoard("first", true)))
		vSlow := startDefault(t, s, "slow")
		require.NoError(t, s.Create(ctx, newBoard("newest", true)))
		require.NoError(t, s.settleFlags(ctx, acct, "slow", vSlow)) // arrives late

		assert.Equal(t, map[string]bool{"first": false, "slow": false, "newest": true}, storedFlags(t, s))
		def, err := s.DefaultID(ctx, acct)
		require.NoError(t, err)
		assert.Equal(t, "newest", def)
		item, err := s.board(ctx, acct, "slow")
		require.NoError(t, err)
		assert.False(t, item.PendingDefault, "the late writer drops its mark")
	})

	t.Run("an older writer settling before the newest one settles is overruled", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		vOld := startDefault(t, s, "old")
		vNew := startDefault(t, s, "new")
		require.NoError(t, s.settleFlags(ctx, acct, "old", vOld))
		assert.Equal(t, map[string]bool{"old": true, "new": false}, storedFlags(t, s), "in between, the flags lag the pointer")
		require.NoError(t, s.settleFlags(ctx, acct, "new", vNew))
		assert.Equal(t, map[string]bool{"old": false, "new": true}, storedFlags(t, s))
	})

	t.Run("an older writer cannot clear the newer default's flag", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		vOld := startDefault(t, s, "old")
		vNew := startDefault(t, s, "new")
		require.NoError(t, s.settleFlags(ctx, acct, "new", vNew))
		require.NoError(t, s.settleFlags(ctx, acct, "old", vOld))
		assert.Equal(t, map[string]bool{"old": false, "new": true}, storedFlags(t, s))
	})

	t.Run("a writer that stopped after moving the pointer is repaired by the next default", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		require.NoError(t, s.Create(ctx, newBoard("previous", true)))
		startDefault(t, s, "stopped")
		b, err := s.Get(ctx, acct, "previous")
		require.NoError(t, err)
		assert.False(t, b.Default, "reads follow the pointer at once")
		b, err = s.Get(ctx, acct, "stopped")
		require.NoError(t, err)
		assert.True(t, b.Default)
		assert.Equal(t, map[string]bool{"previous": true, "stopped": false}, storedFlags(t, s), "the stored flags lag")

		require.NoError(t, s.Create(ctx, newBoard("next", true)))
		assert.Equal(t, map[string]bool{"previous": false, "stopped": false, "next": true}, storedFlags(t, s))
	})
}
