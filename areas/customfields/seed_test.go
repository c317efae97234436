package customfields_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/customfields"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

// The example request of docs/api.md, against the embedded demo data.
func TestDemoDataServesTheDocumentedExample(t *testing.T) {
	ds, err := demo.Default()
	require.NoError(t, err)
	env := testenv.New(t, []app.Area{customfields.Area})
	_, err = demo.Load(context.Background(), env.Deps, demo.Dataset{
		demo.AccountsPart: ds[demo.AccountsPart], "custom-fields": ds["custom-fields"],
	}, []app.Area{customfields.Area})
	require.NoError(t, err)
	// The README's token value, created the way the dev server creates it.
	_, err = demo.CreateTokens(context.Background(), env.Server.Tokens, testenv.Endpoint(t))
	require.NoError(t, err)
	const token = "bpt_DemoAllScopesAlphaLocal0000000011xFMXT"

	t.Run("an option is added to the pet breed field", func(t *testing.T) {
		resp := put(t, env, token, "demoFldPetBreedAlpha", map[string]any{
			"locationId": "demoLocAlpha00000001", "showInForms": true, "placeholder": "Pick a breed",
			"options": []map[string]any{{"key": "labrador", "label": "Labrador"}, {"label": "Beagle"}, {"label": "Poodle"}, {"label": "Golden Retriever"}},
		})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		var body fieldBody
		resp.JSON(t, &body)
		assert.Equal(t, []customfields.Option{
			{Key: "labrador", Label: "Labrador"}, {Key: "beagle", Label: "Beagle"},
			{Key: "poodle", Label: "Poodle"}, {Key: "golden_retriever", Label: "Golden Retriever"},
		}, body.Field.Options)
	})
	t.Run("the contact field is refused", func(t *testing.T) {
		resp := put(t, env, token, "demoFldCtcColorAlpha", map[string]any{"locationId": "demoLocAlpha00000001", "showInForms": true})
		assert.Contains(t, resp.RequireError(t, http.StatusBadRequest), `"contact" object`)
	})
	t.Run("a Bravo field is not found with an Alpha token", func(t *testing.T) {
		resp := put(t, env, token, "demoFldPetBreedBravo", map[string]any{"locationId": "demoLocAlpha00000001", "showInForms": true})
		resp.RequireError(t, http.StatusNotFound)
	})
}

func TestSeedRefusesDataTheAPICouldNotHaveWritten(t *testing.T) {
	env := testenv.New(t, []app.Area{customfields.Area})
	valid := map[string]any{
		"id": "f1", "locationId": "acct1", "name": "Breed", "showInForms": true, "objectKey": "custom_object.pet",
		"dataType": "SINGLE_OPTIONS", "parentId": "folder1", "fieldKey": "custom_object.pet.breed",
		"dateAdded": "2025-01-01T00:00:00Z", "dateUpdated": "2025-01-01T00:00:00Z",
		"options": []map[string]any{{"key": "a", "label": "A"}},
	}
	seed := func(change map[string]any) error {
		f := map[string]any{}
		for k, v := range valid {
			f[k] = v
		}
		for k, v := range change {
			f[k] = v
		}
		raw, err := json.Marshal(map[string]any{"customFields": []any{f}})
		require.NoError(t, err)
		return customfields.Area.Seed(context.Background(), env.Deps, raw)
	}
	require.NoError(t, seed(nil), "the valid field loads")
	cases := []struct {
		name   string
		change map[string]any
		want   string
	}{
		{"a malformed id", map[string]any{"id": "f#1"}, "id must be an id"},
		{"an unknown data type", map[string]any{"dataType": "COLOR"}, "dataType"},
		{"a field key outside its object", map[string]any{"fieldKey": "custom_object.car.breed"}, "fieldKey"},
		{"options on a TEXT field", map[string]any{"dataType": "TEXT"}, "options on a TEXT field"},
		{"a repeated option key", map[string]any{"options": []map[string]any{{"key": "a", "label": "A"}, {"key": "a", "label": "B"}}}, "options[1].key"},
		{"a url outside RADIO", map[string]any{"options": []map[string]any{{"key": "a", "label": "A", "url": "https://example.com"}}}, "options[0].url"},
		{"a file limit on a non-file field", map[string]any{"maxFileLimit": 2}, "maxFileLimit"},
		{"a bad timestamp", map[string]any{"dateAdded": "yesterday"}, "dateAdded"},
		{"an unknown property", map[string]any{"colour": "red"}, "colour"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := seed(tc.change)
			require.Error(t, err)
			assert.True(t, strings.Contains(err.Error(), tc.want), "error: %v", err)
		})
	}
}
