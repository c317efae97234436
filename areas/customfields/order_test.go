package customfields_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The request's own rules answer first (400), before the account it names
// (403) and before the field is looked up (404); the rules that need the
// stored field come last.
func TestUpdateCustomFieldAnswersTheRequestsOwnRulesFirst(t *testing.T) {
	env, token, store := newEnv(t)
	cases := []struct {
		name   string
		id     string
		body   map[string]any
		status int
		want   string
	}{
		{"a missing showInForms on an unknown id is 400, not 404", "nosuchfield",
			map[string]any{"locationId": acctA}, http.StatusBadRequest, "showInForms is required"},
		{"an acceptedFormats outside the list on an unknown id is 400, not 404", "nosuchfield",
			map[string]any{"locationId": acctA, "showInForms": true, "acceptedFormats": ".exe"}, http.StatusBadRequest, "acceptedFormats must be one of"},
		{"an option without a label on an unknown id is 400, not 404", "nosuchfield",
			map[string]any{"locationId": acctA, "showInForms": true, "options": []map[string]any{{"url": "https://example.com"}}}, http.StatusBadRequest, "options[0].label is required"},
		{"a rule broken in a request naming another account is 400, not 403", "aBreed",
			map[string]any{"locationId": acctB, "name": "  "}, http.StatusBadRequest, "showInForms is required"},
		{"a well-formed request naming another account is 403 before the lookup", "nosuchfield",
			map[string]any{"locationId": acctB, "showInForms": true}, http.StatusForbidden, "does not have access to this location"},
		{"a well-formed request for an unknown id is 404 before the stored field's rules", "nosuchfield",
			map[string]any{"locationId": acctA, "showInForms": true, "acceptedFormats": ".pdf"}, http.StatusNotFound, "Custom field nosuchfield was not found"},
		{"a rule of the stored field comes last", "aBreed",
			map[string]any{"locationId": acctA, "showInForms": true, "acceptedFormats": ".pdf"}, http.StatusBadRequest, "acceptedFormats is only allowed on FILE_UPLOAD fields"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := stored(t, store, acctA, "aBreed")
			msg := put(t, env, token, tc.id, tc.body).RequireError(t, tc.status)
			assert.Contains(t, msg, tc.want)
			assert.Equal(t, before, stored(t, store, acctA, "aBreed"), "nothing was written")
		})
	}
}
