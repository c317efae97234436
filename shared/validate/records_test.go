package validate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRulesOfLoadedRecords(t *testing.T) {
	t.Run("a stored hexadecimal id is lower case", func(t *testing.T) {
		assert.Empty(t, LowerHexIDProblem("id", "aa0200000000000000000001"))
		assert.Contains(t, LowerHexIDProblem("id", "AA0200000000000000000001"), "lower-case")
		assert.Contains(t, LowerHexIDProblem("id", "aa02"), "24-character")
	})
	t.Run("a missing time takes now and a given one must be RFC 3339", func(t *testing.T) {
		var v Errors
		created, updated, bad := "", "2025-01-01T00:00:00.000Z", "yesterday"
		v.Time("createdAt", &created, "2026-06-15T12:00:03.000Z")
		v.Time("updatedAt", &updated, "2026-06-15T12:00:03.000Z")
		require.NoError(t, v.Err())
		assert.Equal(t, "2026-06-15T12:00:03.000Z", created)
		assert.Equal(t, "2025-01-01T00:00:00.000Z", updated)
		v.Time("dateAdded", &bad, "2026-06-15T12:00:03.000Z")
		assert.ErrorContains(t, v.Err(), "dateAdded must be an RFC 3339 time")
		assert.Equal(t, "yesterday", bad, "a given time is kept as it is")
	})
	t.Run("a named record needs its ids and a name", func(t *testing.T) {
		var v Errors
		NamedRecord(&v, "c#1", "", "  ")
		assert.ErrorContains(t, v.Err(), "id must be an id")
		assert.ErrorContains(t, v.Err(), "locationId is required")
		assert.ErrorContains(t, v.Err(), "name is required")
		var ok Errors
		NamedRecord(&ok, "c1", "acct1", "Spring")
		assert.NoError(t, ok.Err())
	})
}
