package storage_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/storage"
)

func TestScanAllReadsTheItemsTheFilterKeepsAcrossPages(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	var items []any
	for i := range 300 {
		// Big enough that the scan takes several pages of 1 MB.
		owner := "other"
		if i%3 == 0 {
			owner = "kept"
		}
		items = append(items, map[string]any{"PK": "P" + string(rune('a'+i%26)), "SK": string(rune('A' + i/26)), "owner": owner, "pad": strings.Repeat("x", 10_000)})
	}
	require.NoError(t, table.BatchPut(ctx, items))

	t.Run("a filter and a projection", func(t *testing.T) {
		filter := expression.Name("owner").Equal(expression.Value("kept"))
		projection := expression.NamesList(expression.Name("owner"))
		got, err := storage.ScanAll[map[string]any](ctx, table, &filter, &projection)
		require.NoError(t, err)
		assert.Len(t, got, 100)
		for _, it := range got {
			assert.Equal(t, map[string]any{"owner": "kept"}, it)
		}
	})
	t.Run("neither reads every item whole", func(t *testing.T) {
		got, err := storage.ScanAll[claim](ctx, table, nil, nil)
		require.NoError(t, err)
		assert.Len(t, got, 300)
	})
	t.Run("a client without Scan is refused", func(t *testing.T) {
		_, err := storage.ScanAll[claim](ctx, &storage.Table{DB: struct{ storage.API }{table.DB}, Name: table.Name}, nil, nil)
		assert.ErrorIs(t, err, storage.ErrCannotScan)
	})
}
