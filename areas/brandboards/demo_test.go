package brandboards_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/brandboards"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

// The demo dataset loads (twice, as a reload would), each account has the
// documented default, and the documented example succeeds against it.
func TestDemoDataServesTheDocumentedExample(t *testing.T) {
	areas := []app.Area{brandboards.Area}
	env := testenv.New(t, areas)
	all, err := demo.Default()
	require.NoError(t, err)
	ds := demo.Dataset{demo.AccountsPart: all[demo.AccountsPart], "brand-boards": all["brand-boards"]}
	for range 2 {
		_, err = demo.Load(context.Background(), env.Deps, ds, areas)
		require.NoError(t, err)
	}
	store := brandboards.NewBoards(env.Table)
	onlyDefault(t, store, demo.AccountAlpha, "bbd0a1000000000000000001")
	onlyDefault(t, store, demo.AccountBravo, "bbd0b2000000000000000001")
	list, err := store.List(context.Background(), demo.AccountAlpha)
	require.NoError(t, err)
	assert.Len(t, list, 3)

	token, _ := env.Token(t, demo.AccountAlpha)
	resp := post(t, env, token, map[string]any{
		"locationId": demo.AccountAlpha, "name": "Summer campaign 2026", "brandBoardId": "bbd0a1000000000000000001", "type": "template", "default": true,
		"colors": []any{map[string]any{"id": "color_sun", "hexa": "#ffc300ff", "rgba": "rgba(255, 195, 0, 1)", "hex": "#ffc300", "rgb": "rgb(255, 195, 0)", "label": "Sunshine"}},
	})
	got := requireCreated(t, resp)
	assert.Len(t, got.Logos, 2, "logos copied from the demo default")
	assert.Len(t, got.Fonts, 2, "fonts copied from the demo default")
	onlyDefault(t, store, demo.AccountAlpha, got.ID)
}
