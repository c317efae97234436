package medias_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/medias"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

// demoEnv loads the real demo dataset (accounts and this area's part) and
// the demo tokens, as a fresh `make run` does, and returns the every-scope
// token of Alpha.
func demoEnv(t *testing.T) (*testenv.Env, string) {
	t.Helper()
	env := testenv.New(t, []app.Area{medias.Area})
	ds, err := demo.Default()
	require.NoError(t, err)
	part := demo.Dataset{demo.AccountsPart: ds[demo.AccountsPart], "medias": ds["medias"]}
	_, err = demo.Load(context.Background(), env.Deps, part, []app.Area{medias.Area})
	require.NoError(t, err, "the demo dataset loads")
	_, err = demo.CreateTokens(context.Background(), env.Server.Tokens, testenv.Endpoint(t))
	if errors.Is(err, demo.ErrNotLocal) {
		t.Skip("demo tokens exist only on a local engine")
	}
	require.NoError(t, err)
	return env, demo.Tokens[0].Value()
}

func demoQuery(kv ...string) url.Values {
	q := url.Values{"sortBy": {"createdAt"}, "sortOrder": {"asc"}, "type": {"file"}, "altType": {"account"}, "altId": {demo.AccountAlpha}}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return q
}

// The example requests of docs/api.md, against the demo data.
func TestDemoMediaLibrary(t *testing.T) {
	env, token := demoEnv(t)
	require.Equal(t, "bpt_DemoAllScopesAlphaLocal0000000011xFMXT", token, "the README's demo token")

	t.Run("the photo folder holds more than one page", func(t *testing.T) {
		first := list(t, env, token, demoQuery("parentId", "demoFldAlpha00000003"))
		second := list(t, env, token, demoQuery("parentId", "demoFldAlpha00000003", "offset", "20"))
		assert.Len(t, first, 20)
		assert.Len(t, second, 10)
		seen := map[string]bool{}
		for _, f := range append(first, second...) {
			assert.False(t, seen[f.ID], "%s listed twice", f.ID)
			seen[f.ID] = true
			assert.Regexp(t, `^Clinic Photos/`, f.Path)
		}
	})
	t.Run("the root holds folders and files", func(t *testing.T) {
		assert.Equal(t, []string{"demoFldAlpha00000001", "demoFldAlpha00000002", "demoFldAlpha00000003", "demoFldAlpha00000004"},
			ids(list(t, env, token, demoQuery("type", "folder"))))
		assert.Len(t, list(t, env, token, demoQuery()), 3)
	})
	t.Run("fetchAll shows the nested folders with their paths", func(t *testing.T) {
		files := list(t, env, token, demoQuery("fetchAll", "true", "query", "spring"))
		require.Len(t, files, 1)
		assert.Equal(t, "Marketing/Brochures/2025/spring-offer.pdf", files[0].Path)
	})
	t.Run("a rename shows in the next listing", func(t *testing.T) {
		resp := rename(t, env, token, "demoFilAlpha00000001", map[string]any{"name": "clinic-logo.png", "altType": "account", "altId": demo.AccountAlpha})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		files := list(t, env, token, demoQuery("query", "clinic-logo"))
		require.Len(t, files, 1)
		assert.Equal(t, "demoFilAlpha00000001", files[0].ID)
	})
	t.Run("Bravo's entries are not Alpha's", func(t *testing.T) {
		resp := rename(t, env, token, "demoFilBravo00000001", map[string]any{"name": "x.png", "altType": "account", "altId": demo.AccountAlpha})
		resp.RequireError(t, http.StatusNotFound)
		resp = env.Do(t, testenv.Request{Method: "GET", Path: "/medias/files?" + demoQuery("altId", demo.AccountBravo).Encode(), Token: token})
		resp.RequireError(t, http.StatusForbidden)
	})
}
