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
	t.Run("missing timestamps take now and given ones must be RFC 3339", func(t *testing.T) {
		created, updated := "", "2025-01-01T00:00:00.000Z"
		require.NoError(t, Stamp("2026-06-15T12:00:03.000Z", &created, &updated))
		assert.Equal(t, "2026-06-15T12:00:03.000Z", created)
		assert.Equal(t, "2025-01-01T00:00:00.000Z", updated)
		bad := "yesterday"
		assert.ErrorContains(t, Stamp("2026-06-15T12:00:03.000Z", &bad), `"yesterday" is not RFC 3339`)
	})
	t.Run("a named record needs its ids and a name", func(t *testing.T) {
		var v Errors
		NamedRecord(&v, "campaign", "c#1", "", "  ")
		assert.ErrorContains(t, v.Err(), "campaign id must be an id")
		assert.ErrorContains(t, v.Err(), "locationId is required")
		assert.ErrorContains(t, v.Err(), "name is required")
		var ok Errors
		NamedRecord(&ok, "campaign", "c1", "acct1", "Spring")
		assert.NoError(t, ok.Err())
	})
}
