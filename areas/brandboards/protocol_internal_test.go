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

func defaultID(t *testing.T, s *Boards) string {
	t.Helper()
	id, err := s.DefaultID(context.Background(), acct)
	require.NoError(t, err)
	return id
}

// begin runs steps 1 and 2 of a default creation (the reads, then the
// board written flagged) and stops before step 3: a writer that is slow, or
// stopped.
func begin(t *testing.T, s *Boards, id string) creation {
	t.Helper()
	ctx := context.Background()
	c, err := s.prepare(ctx, acct, "", true)
	require.NoError(t, err)
	b := newBoard(id, true)
	rec := boardRecord{Board: b, DefaultVersion: c.version + 1, Version: 1}
	require.NoError(t, s.table.Put(ctx, s.boards.Item(rec), nil))
	return c
}

// finish runs step 3 of a creation begun with c.
func finish(t *testing.T, s *Boards, id string, c creation) {
	t.Helper()
	require.NoError(t, s.takeDefault(context.Background(), acct, id, "2026-01-01T00:00:00.000Z", c))
}

func TestDefaultProtocolInterleavings(t *testing.T) {
	ctx := context.Background()

	t.Run("of two writers that read the same pointer, the one that moves it second drops its flag", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		require.NoError(t, s.Create(ctx, newBoard("first", true)))
		cSlow := begin(t, s, "slow")
		cFast := begin(t, s, "fast")
		finish(t, s, "fast", cFast)
		finish(t, s, "slow", cSlow) // its move finds the pointer moved
		assert.Equal(t, "fast", defaultID(t, s))
		assert.Equal(t, map[string]bool{"first": false, "slow": false, "fast": true}, storedFlags(t, s))
	})

	t.Run("a writer that stopped before moving the pointer is cleared by the next default of its version", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		require.NoError(t, s.Create(ctx, newBoard("first", true)))
		begin(t, s, "stopped")
		assert.Equal(t, map[string]bool{"first": true, "stopped": true}, storedFlags(t, s), "in between, the flags lag the pointer")
		assert.Equal(t, "first", defaultID(t, s), "reads follow the pointer")
		require.NoError(t, s.Create(ctx, newBoard("next", true)))
		assert.Equal(t, "next", defaultID(t, s))
		assert.Equal(t, map[string]bool{"first": false, "stopped": false, "next": true}, storedFlags(t, s))
	})

	t.Run("a writer that stopped after moving the pointer is repaired by the next default", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		require.NoError(t, s.Create(ctx, newBoard("previous", true)))
		c := begin(t, s, "stopped")
		require.NoError(t, s.movePointer(ctx, acct, "stopped", "2026-01-01T00:00:00.000Z", c.version))
		b, err := s.Get(ctx, acct, "previous")
		require.NoError(t, err)
		assert.False(t, b.Default, "reads follow the pointer at once")
		b, err = s.Get(ctx, acct, "stopped")
		require.NoError(t, err)
		assert.True(t, b.Default)
		assert.Equal(t, map[string]bool{"previous": true, "stopped": true}, storedFlags(t, s), "the stored flags lag")

		require.NoError(t, s.Create(ctx, newBoard("next", true)))
		assert.Equal(t, map[string]bool{"previous": false, "stopped": false, "next": true}, storedFlags(t, s))
	})

	t.Run("an old writer finishing late cannot unflag a newer default", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		require.NoError(t, s.Create(ctx, newBoard("first", true)))
		cOld, err := s.prepare(ctx, acct, "", true) // read before the newer creations
		require.NoError(t, err)
		require.NoError(t, s.Create(ctx, newBoard("newer", true)))
		require.NoError(t, s.Create(ctx, newBoard("newest", true)))
		rec := boardRecord{Board: newBoard("old", true), DefaultVersion: cOld.version + 1, Version: 1}
		require.NoError(t, s.table.Put(ctx, s.boards.Item(rec), nil))
		finish(t, s, "old", cOld) // clears under its old version, then loses the move
		assert.Equal(t, "newest", defaultID(t, s))
		assert.Equal(t, map[string]bool{"first": false, "newer": false, "newest": true, "old": false}, storedFlags(t, s))
	})

	t.Run("a board created without default leaves the pointer and the flags alone", func(t *testing.T) {
		s := NewBoards(testenv.NewTable(t))
		require.NoError(t, s.Create(ctx, newBoard("main", true)))
		require.NoError(t, s.Create(ctx, newBoard("plain", false)))
		assert.Equal(t, "main", defaultID(t, s))
		assert.Equal(t, map[string]bool{"main": true, "plain": false}, storedFlags(t, s))
	})
}
