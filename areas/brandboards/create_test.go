package brandboards_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/brandboards"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/operations"
)

var hex24 = regexp.MustCompile(`^[0-9a-f]{24}$`)

func logo(id string) map[string]any {
	return map[string]any{"id": id, "url": "https://cdn.example.com/" + id + ".png", "label": "Logo " + id, "path": "/brand/" + id + ".png"}
}

func color(id string) map[string]any {
	return map[string]any{"id": id, "hexa": "#FF5733FF", "rgba": "rgba(255, 87, 51, 1)", "hex": "#FF5733", "rgb": "rgb(255, 87, 51)", "label": "Orange"}
}

func font(id string) map[string]any {
	return map[string]any{"id": id, "font": "Montserrat", "fallback": "sans-serif", "label": "Heading"}
}

func fullBody() map[string]any {
	return map[string]any{
		"locationId": acctA,
		"name":       "Spring brand",
		"logos":      []any{logo("logo_a"), logo("logo_b")},
		"colors":     []any{color("color_a")},
		"fonts":      []any{font("font_a")},
		"parentId":   "507f1f77bcf86cd799439011",
		"type":       "template",
		"default":    false,
	}
}

func TestCreateBrandBoardStoresAndAnswersTheBoard(t *testing.T) {
	env, token := newEnv(t)
	store := brandboards.NewBoards(env.Table)

	t.Run("a board with every field is created as given", func(t *testing.T) {
		resp := post(t, env, token, fullBody())
		got := requireCreated(t, resp)
		assert.Regexp(t, hex24, got.ID)
		want := brandboards.Board{
			ID: got.ID, LocationID: acctA, Name: "Spring brand",
			Logos: []brandboards.Logo{
				{ID: "logo_a", URL: "https://cdn.example.com/logo_a.png", Label: "Logo logo_a", Path: "/brand/logo_a.png"},
				{ID: "logo_b", URL: "https://cdn.example.com/logo_b.png", Label: "Logo logo_b", Path: "/brand/logo_b.png"},
			},
			Colors:    []brandboards.Color{{ID: "color_a", Hexa: "#FF5733FF", Rgba: "rgba(255, 87, 51, 1)", Hex: "#FF5733", Rgb: "rgb(255, 87, 51)", Label: "Orange"}},
			Fonts:     []brandboards.Font{{ID: "font_a", Font: "Montserrat", Fallback: "sans-serif", Label: "Heading"}},
			ParentID:  "507f1f77bcf86cd799439011",
			Meta:      brandboards.Meta{SourceType: "template"},
			CreatedAt: createdAt, UpdatedAt: createdAt,
		}
		assert.Equal(t, want, got)
		m := resp.Map(t)
		assert.Equal(t, false, m["deleted"], "deleted is always answered")
		assert.Equal(t, false, m["default"], "default is always answered")
		assert.Equal(t, want, getBoard(t, store, acctA, got.ID), "the stored board is the answered one")
		onlyDefault(t, store, acctA, boardDefaultA)
	})

	t.Run("a board with only a name has empty lists and is blank", func(t *testing.T) {
		resp := post(t, env, token, map[string]any{"locationId": acctA, "name": "Bare"})
		got := requireCreated(t, resp)
		m := resp.Map(t)
		for _, list := range []string{"logos", "colors", "fonts"} {
			assert.Equal(t, []any{}, m[list], "%s is an empty list, not null", list)
		}
		assert.Equal(t, map[string]any{"sourceType": "blank"}, m["meta"])
		assert.NotContains(t, m, "originId")
		assert.Equal(t, got, getBoard(t, store, acctA, got.ID))
	})

	t.Run("every color notation variant is accepted", func(t *testing.T) {
		variants := []map[string]any{
			{"id": "short", "hexa": "#aabbcc80", "rgba": "rgba(170,187,204,0.5)", "hex": "#abc", "rgb": "rgb(170,187,204)", "label": "Short hex"},
			{"id": "edges", "hexa": "#00000000", "rgba": "rgba(0, 0, 0, 0)", "hex": "#000000", "rgb": "rgb(0, 0, 0)", "label": "Transparent"},
			{"id": "max", "hexa": "#FFFFFFFF", "rgba": "rgba( 255 , 255 , 255 , .25 )", "hex": "#FFFFFF", "rgb": "rgb( 255, 255, 255 )", "label": "White"},
		}
		resp := post(t, env, token, map[string]any{"locationId": acctA, "name": "Colors", "colors": variants})
		got := requireCreated(t, resp)
		assert.Len(t, getBoard(t, store, acctA, got.ID).Colors, 3)
	})
}

func TestCreateBrandBoardCopiesFromASourceBoard(t *testing.T) {
	env, token := newEnv(t)
	store := brandboards.NewBoards(env.Table)
	source := getBoard(t, store, acctA, boardDefaultA)

	cases := []struct {
		name       string
		body       map[string]any
		wantLogos  []brandboards.Logo
		wantColors []brandboards.Color
		wantFonts  []brandboards.Font
		wantType   string
	}{
		{
			name:      "a board without lists of its own copies the source's logos, colors and fonts",
			body:      map[string]any{"locationId": acctA, "name": "Copy", "brandBoardId": boardDefaultA},
			wantLogos: source.Logos, wantColors: source.Colors, wantFonts: source.Fonts, wantType: "template",
		},
		{
			name:      "a list given in the request replaces the source's, the others are copied",
			body:      map[string]any{"locationId": acctA, "name": "Own colors", "brandBoardId": boardDefaultA, "colors": []any{color("mine")}},
			wantLogos: source.Logos, wantFonts: source.Fonts, wantType: "template",
			wantColors: []brandboards.Color{{ID: "mine", Hexa: "#FF5733FF", Rgba: "rgba(255, 87, 51, 1)", Hex: "#FF5733", Rgb: "rgb(255, 87, 51)", Label: "Orange"}},
		},
		{
			name:      "an empty list in the request means none, a null list is copied",
			body:      map[string]any{"locationId": acctA, "name": "No logos", "brandBoardId": boardDefaultA, "logos": []any{}, "fonts": nil, "type": "snapshot"},
			wantLogos: []brandboards.Logo{}, wantColors: source.Colors, wantFonts: source.Fonts, wantType: "snapshot",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := requireCreated(t, post(t, env, token, tc.body))
			assert.NotEqual(t, boardDefaultA, got.ID)
			assert.Equal(t, tc.wantLogos, got.Logos)
			assert.Equal(t, tc.wantColors, got.Colors)
			assert.Equal(t, tc.wantFonts, got.Fonts)
			assert.Equal(t, boardDefaultA, got.OriginID)
			assert.Equal(t, brandboards.Meta{SourceID: boardDefaultA, SourceType: tc.wantType}, got.Meta)
			assert.False(t, got.Default, "the default flag is not copied")
			assert.Equal(t, got, getBoard(t, store, acctA, got.ID))
		})
	}
	t.Run("the source board is unchanged and still the default", func(t *testing.T) {
		assert.Equal(t, source, getBoard(t, store, acctA, boardDefaultA))
		onlyDefault(t, store, acctA, boardDefaultA)
	})
}

func TestCreateBrandBoardRejectsBrokenRules(t *testing.T) {
	env, token := newEnv(t)
	store := brandboards.NewBoards(env.Table)
	ctx := context.Background()
	before, err := store.List(ctx, acctA)
	require.NoError(t, err)
	otherBefore := getBoard(t, store, acctB, boardB)

	valid := fullBody()
	withLogo := func(changes map[string]any) map[string]any {
		return with(valid, map[string]any{"logos": []any{with(logo("l1"), changes)}})
	}
	withColor := func(changes map[string]any) map[string]any {
		return with(valid, map[string]any{"colors": []any{with(color("c1"), changes)}})
	}
	withFont := func(changes map[string]any) map[string]any {
		return with(valid, map[string]any{"fonts": []any{with(font("f1"), changes)}})
	}
	tooMany := make([]any, 51)
	for i := range tooMany {
		tooMany[i] = logo(fmt.Sprintf("l%d", i))
	}
	cases := []struct {
		name string
		body any
		want []string
	}{
		{"locationId is required", with(valid, map[string]any{"locationId": nil}), []string{"locationId is required"}},
		{"locationId must be an id", with(valid, map[string]any{"locationId": "a b"}), []string{"locationId must be an id"}},
		{"name is required", with(valid, map[string]any{"name": nil}), []string{"name is required"}},
		{"name must not be blank", with(valid, map[string]any{"name": "   "}), []string{"name is required"}},
		{"name must be at most 200 characters", with(valid, map[string]any{"name": strings.Repeat("n", 201)}), []string{"name must be at most 200"}},
		{"name must be a string", with(valid, map[string]any{"name": true}), []string{"name must be a string"}},
		{"logos must be an array", with(valid, map[string]any{"logos": "logo.png"}), []string{"logos must be an array"}},
		{"logos hold at most 50 items", with(valid, map[string]any{"logos": tooMany}), []string{"logos must hold at most 50 items"}},
		{"a logo's id is required", withLogo(map[string]any{"id": nil}), []string{"logos[0].id is required"}},
		{"a logo's id must be an id", withLogo(map[string]any{"id": "logo one"}), []string{"logos[0].id must be an id"}},
		{"a logo's url is required", withLogo(map[string]any{"url": nil}), []string{"logos[0].url is required"}},
		{"a logo's url must be https", withLogo(map[string]any{"url": "ftp://cdn.example.com/a.png"}), []string{"logos[0].url must be an https URL with a public host: it uses ftp, not https"}},
		{"a logo's label is required", withLogo(map[string]any{"label": ""}), []string{"logos[0].label is required"}},
		{"a logo's path is required", withLogo(map[string]any{"path": nil}), []string{"logos[0].path is required"}},
		{"a logo has no other properties", withLogo(map[string]any{"size": "big"}), []string{"property logos[0].size should not exist"}},
		{"logo ids are unique in the board", with(valid, map[string]any{"logos": []any{logo("x"), logo("y"), logo("x")}}), []string{"logos[2].id duplicates logos[0].id"}},
		{"a logo item must be an object", with(valid, map[string]any{"logos": []any{"https://cdn.example.com/a.png"}}), []string{"logos must be"}},
		{"a color's id is required", withColor(map[string]any{"id": nil}), []string{"colors[0].id is required"}},
		{"a color's hexa is required", withColor(map[string]any{"hexa": nil}), []string{"colors[0].hexa is required"}},
		{"a color's hexa must have eight hex digits", withColor(map[string]any{"hexa": "#ff5733"}), []string{"colors[0].hexa must be a hex color with alpha"}},
		{"a color's rgba is required", withColor(map[string]any{"rgba": nil}), []string{"colors[0].rgba is required"}},
		{"a color's rgba needs an alpha", withColor(map[string]any{"rgba": "rgba(255, 87, 51)"}), []string{"colors[0].rgba must be rgba(r, g, b, a)"}},
		{"a color's rgba alpha is at most 1", withColor(map[string]any{"rgba": "rgba(255, 87, 51, 1.5)"}), []string{"colors[0].rgba must be rgba(r, g, b, a)"}},
		{"a color's rgba channels are at most 255", withColor(map[string]any{"rgba": "rgba(256, 87, 51, 1)"}), []string{"colors[0].rgba must be rgba(r, g, b, a)"}},
		{"a color's hex is required", withColor(map[string]any{"hex": nil}), []string{"colors[0].hex is required"}},
		{"a color's hex needs the hash", withColor(map[string]any{"hex": "ff5733"}), []string{"colors[0].hex must be a hex color"}},
		{"a color's hex has three or six digits", withColor(map[string]any{"hex": "#ff573"}), []string{"colors[0].hex must be a hex color"}},
		{"a color's hex digits are hexadecimal", withColor(map[string]any{"hex": "#ggg"}), []string{"colors[0].hex must be a hex color"}},
		{"a color's rgb is required", withColor(map[string]any{"rgb": nil}), []string{"colors[0].rgb is required"}},
		{"a color's rgb channels are at most 255", withColor(map[string]any{"rgb": "rgb(300, 0, 0)"}), []string{"colors[0].rgb must be rgb(r, g, b)"}},
		{"a color's rgb has three channels", withColor(map[string]any{"rgb": "rgb(255, 87, 51, 1)"}), []string{"colors[0].rgb must be rgb(r, g, b)"}},
		{"a color's rgb channels are integers", withColor(map[string]any{"rgb": "rgb(25.5, 87, 51)"}), []string{"colors[0].rgb must be rgb(r, g, b)"}},
		{"a color's label is required", withColor(map[string]any{"label": nil}), []string{"colors[0].label is required"}},
		{"a color's fields are strings", withColor(map[string]any{"hex": 16734003}), []string{"hex must be a string"}},
		{"a font's id is required", withFont(map[string]any{"id": nil}), []string{"fonts[0].id is required"}},
		{"a font's font is required", withFont(map[string]any{"font": nil}), []string{"fonts[0].font is required"}},
		{"a font's fallback is required", withFont(map[string]any{"fallback": " "}), []string{"fonts[0].fallback is required"}},
		{"a font's label is required", withFont(map[string]any{"label": nil}), []string{"fonts[0].label is required"}},
		{"default must be a boolean", with(valid, map[string]any{"default": "yes"}), []string{"default must be a boolean"}},
		{"type must be one of the three", with(valid, map[string]any{"type": "copy"}), []string{"type must be one of: template, blank, snapshot"}},
		{"a blank board copies nothing", with(valid, map[string]any{"type": "blank", "brandBoardId": boardPlainA}), []string{"type blank cannot be combined with brandBoardId"}},
		{"parentId must be an id", with(valid, map[string]any{"parentId": "../x"}), []string{"parentId must be an id"}},
		{"brandBoardId must be an id", with(valid, map[string]any{"brandBoardId": "BRANDBOARD#x"}), []string{"brandBoardId must be an id"}},
		{"brandBoardId must name a board", with(valid, map[string]any{"brandBoardId": "ffff00000000000000000000"}), []string{`brandBoardId "ffff00000000000000000000" does not name a brand board`}},
		{"a deleted board is not a source", with(valid, map[string]any{"brandBoardId": boardDeletedA}), []string{"brandBoardId"}},
		{"another account's board is not a source", with(valid, map[string]any{"brandBoardId": boardB, "default": true}), []string{`brandBoardId "` + boardB + `" does not name a brand board of this account`}},
		{"unknown properties are refused", with(valid, map[string]any{"folderId": "x"}), []string{"property folderId should not exist"}},
		{"every broken rule is named in one answer", map[string]any{"locationId": acctA, "type": "x", "colors": []any{map[string]any{"id": "c"}}}, []string{
			"name is required", "colors[0].hexa is required", "colors[0].rgba is required", "colors[0].hex is required", "colors[0].rgb is required", "colors[0].label is required", "type must be one of",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := post(t, env, token, tc.body).RequireError(t, http.StatusUnprocessableEntity)
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
		})
	}
	t.Run("a body that is not a JSON object is a 400", func(t *testing.T) {
		post(t, env, token, `["name"]`).RequireError(t, http.StatusBadRequest)
	})
	t.Run("nothing was stored by the refused requests", func(t *testing.T) {
		after, err := store.List(ctx, acctA)
		require.NoError(t, err)
		assert.ElementsMatch(t, before, after)
		assert.Equal(t, otherBefore, getBoard(t, store, acctB, boardB), "the other account's board is untouched")
		onlyDefault(t, store, acctA, boardDefaultA)
		onlyDefault(t, store, acctB, boardB)
	})
}

func TestCreateBrandBoardForAnotherAccountIsForbiddenWithThePublicBody(t *testing.T) {
	env, token := newEnv(t)
	store := brandboards.NewBoards(env.Table)
	resp := post(t, env, token, with(fullBody(), map[string]any{"locationId": acctB, "default": true}))
	require.Equal(t, http.StatusForbidden, resp.Status, "body: %s", resp.Body)
	m := resp.Map(t)
	assert.Equal(t, float64(403), m["statusCode"])
	assert.Equal(t, "The token does not have access to this location", m["message"])
	list, err := store.List(context.Background(), acctB)
	require.NoError(t, err)
	assert.Len(t, list, 1, "nothing is created in the other account")
	onlyDefault(t, store, acctB, boardB)
}

func TestCreateBrandBoardIsServedWithAndWithoutTrailingSlash(t *testing.T) {
	env, token := newEnv(t)
	for _, path := range []string{"/brand-boards/", "/brand-boards"} {
		resp := env.Do(t, testenv.Request{Method: "POST", Path: path, Token: token, Body: map[string]any{"locationId": acctA, "name": path}})
		assert.Equal(t, http.StatusCreated, resp.Status, "%s: %s", path, resp.Body)
	}
}

func TestCreateBrandBoardAuth(t *testing.T) {
	env, _ := newEnv(t)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.CreateBrandBoard, Account: acctA, OK: http.StatusCreated, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			return post(t, env, token, fullBody())
		},
	})
}
