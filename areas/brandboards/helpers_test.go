package brandboards_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/brandboards"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

const (
	acctA     = "acctAlpha"
	acctB     = "acctBravo"
	company   = "companyOne"
	boardPath = "/brand-boards/"

	// Fixture boards.
	boardDefaultA = "aaaa00000000000000000001" // acctA's default, with two of each item
	boardPlainA   = "aaaa00000000000000000002"
	boardDeletedA = "aaaa00000000000000000003" // soft-deleted
	boardB        = "bbbb00000000000000000001" // acctB's default
	createdAt     = "2026-06-15T12:00:03.000Z" // testenv.Start as the API writes it
)

var fixture = fmt.Sprintf(`{"brandBoards": [
  {"_id": %[3]q, "locationId": %[1]q, "name": "Main", "default": true, "deleted": false,
   "logos": [{"id": "logo1", "url": "https://cdn.example.com/a.png", "label": "Primary", "path": "/a/logo1.png"},
             {"id": "logo2", "url": "https://cdn.example.com/b.png", "label": "Secondary", "path": "/a/logo2.png"}],
   "colors": [{"id": "c1", "hexa": "#ff5733ff", "rgba": "rgba(255, 87, 51, 1)", "hex": "#ff5733", "rgb": "rgb(255, 87, 51)", "label": "Orange"},
              {"id": "c2", "hexa": "#000000ff", "rgba": "rgba(0, 0, 0, 1)", "hex": "#000", "rgb": "rgb(0, 0, 0)", "label": "Black"}],
   "fonts": [{"id": "f1", "font": "Montserrat", "fallback": "sans-serif", "label": "Heading"},
             {"id": "f2", "font": "Merriweather", "fallback": "serif", "label": "Body"}],
   "meta": {"sourceType": "blank"}, "createdAt": "2025-01-01T00:00:00.000Z", "updatedAt": "2025-01-01T00:00:00.000Z"},
  {"_id": %[4]q, "locationId": %[1]q, "name": "Plain", "default": false, "deleted": false,
   "meta": {"sourceType": "blank"}, "createdAt": "2025-01-02T00:00:00.000Z", "updatedAt": "2025-01-02T00:00:00.000Z"},
  {"_id": %[5]q, "locationId": %[1]q, "name": "Old", "default": false, "deleted": true,
   "fonts": [{"id": "f1", "font": "Comic Neue", "fallback": "cursive", "label": "Old"}],
   "meta": {"sourceType": "blank"}, "createdAt": "2025-01-03T00:00:00.000Z", "updatedAt": "2025-01-03T00:00:00.000Z"},
  {"_id": %[6]q, "locationId": %[2]q, "name": "Bravo main", "default": true, "deleted": false,
   "colors": [{"id": "c1", "hexa": "#2e8b57ff", "rgba": "rgba(46, 139, 87, 1)", "hex": "#2e8b57", "rgb": "rgb(46, 139, 87)", "label": "Green"}],
   "meta": {"sourceType": "blank"}, "createdAt": "2025-01-01T00:00:00.000Z", "updatedAt": "2025-01-01T00:00:00.000Z"}
]}`, acctA, acctB, boardDefaultA, boardPlainA, boardDeletedA, boardB)

func newEnv(t *testing.T) (*testenv.Env, string) {
	t.Helper()
	env := testenv.New(t, []app.Area{brandboards.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	env.Seed(t, brandboards.Area, fixture)
	token, _ := env.Token(t, acctA)
	return env, token
}

func post(t *testing.T, env *testenv.Env, token string, body any) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "POST", Path: boardPath, Token: token, Body: body})
}

func requireCreated(t *testing.T, resp *testenv.Response) brandboards.Board {
	t.Helper()
	require.Equal(t, 201, resp.Status, "body: %s", resp.Body)
	var b brandboards.Board
	resp.JSON(t, &b)
	return b
}

func getBoard(t *testing.T, store *brandboards.Boards, account, id string) brandboards.Board {
	t.Helper()
	b, err := store.Get(context.Background(), account, id)
	require.NoError(t, err)
	require.NotNil(t, b, "board %s of %s", id, account)
	return *b
}

// onlyDefault checks that account has exactly one default board, want: in
// the pointer, in the stored flags and in the derived list.
func onlyDefault(t *testing.T, store *brandboards.Boards, account, want string) {
	t.Helper()
	ctx := context.Background()
	def, err := store.DefaultID(ctx, account)
	require.NoError(t, err)
	require.Equal(t, want, def, "the default pointer")
	flags, err := store.StoredDefaults(ctx, account)
	require.NoError(t, err)
	var flagged []string
	for id, on := range flags {
		if on {
			flagged = append(flagged, id)
		}
	}
	require.Equal(t, []string{want}, flagged, "stored default flags")
	list, err := store.List(ctx, account)
	require.NoError(t, err)
	var derived []string
	for _, b := range list {
		if b.Default {
			derived = append(derived, b.ID)
		}
	}
	require.Equal(t, []string{want}, derived, "defaults as read")
}

func with(body map[string]any, changes map[string]any) map[string]any {
	out := make(map[string]any, len(body))
	for k, v := range body {
		out[k] = v
	}
	for k, v := range changes {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}
