package customfields_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/customfields"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"
	added   = "2025-02-03T09:15:00.000Z"
)

// fixture is one account's fields: every object kind and the data types
// whose rules differ. Ids are prefixed per account.
func fixture(account, prefix string) string {
	f := func(id, objectKey, dataType, fieldKey, extra string) string {
		return fmt.Sprintf(`{"id":%q,"locationId":%q,"name":"Field %s","showInForms":true,"objectKey":%q,"dataType":%q,"parentId":"folder1","fieldKey":%q,"dateAdded":%q,"dateUpdated":%q%s}`,
			prefix+id, account, id, objectKey, dataType, fieldKey, added, added, extra)
	}
	fields := []string{
		f("Breed", "custom_object.pet", "SINGLE_OPTIONS", "custom_object.pet.breed",
			`,"placeholder":"Pick one","options":[{"key":"labrador","label":"Labrador"},{"key":"beagle","label":"Beagle"}]`),
		f("Size", "custom_object.pet", "RADIO", "custom_object.pet.size",
			`,"allowCustomOption":true,"options":[{"key":"small","label":"Small","url":"https://example.com/small"},{"key":"large","label":"Large"}]`),
		f("Notes", "custom_object.pet", "TEXT", "custom_object.pet.notes", `,"description":"Free text"`),
		f("Records", "custom_object.pet", "FILE_UPLOAD", "custom_object.pet.records", `,"acceptedFormats":".pdf","maxFileLimit":2`),
		f("Features", "custom_object.vehicle", "CHECKBOX", "custom_object.vehicle.features",
			`,"options":[{"key":"sunroof","label":"Sunroof"}]`),
		f("Industry", "business", "SINGLE_OPTIONS", "business.industry",
			`,"options":[{"key":"retail","label":"Retail"}]`),
		f("Color", "contact", "SINGLE_OPTIONS", "contact.color",
			`,"options":[{"key":"red","label":"Red"}]`),
	}
	return `{"customFields":[` + strings.Join(fields, ",") + `]}`
}

type fieldBody struct {
	Field customfields.Field `json:"field"`
}

func newEnv(t *testing.T) (*testenv.Env, string, *customfields.Fields) {
	env := testenv.New(t, []app.Area{customfields.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	env.Seed(t, customfields.Area, fixture(acctA, "a"))
	env.Seed(t, customfields.Area, fixture(acctB, "b"))
	token, _ := env.Token(t, acctA)
	return env, token, customfields.NewFields(env.Table)
}

func put(t *testing.T, env *testenv.Env, token, id string, body any) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "PUT", Path: "/custom-fields/" + id, Token: token, Body: body})
}

func stored(t *testing.T, store *customfields.Fields, account, id string) customfields.Field {
	t.Helper()
	f, err := store.Get(context.Background(), account, id)
	require.NoError(t, err)
	require.NotNil(t, f, "field %s of %s", id, account)
	return *f
}

func labels(opts []customfields.Option) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = o.Label
	}
	return out
}

func TestUpdateCustomFieldAnswersTheWholeFieldAndStoresIt(t *testing.T) {
	env, token, store := newEnv(t)
	env.Clock.Advance(90 * time.Minute)
	now := clock.Timestamp(env.Clock.Now())

	resp := put(t, env, token, "aBreed", map[string]any{
		"locationId":  acctA,
		"name":        "  Dog breed ",
		"description": "Breed of the dog",
		"placeholder": "Choose a breed",
		"showInForms": false,
		"options": []map[string]any{
			{"key": "sent-key-is-ignored", "label": "Beagle"},
			{"label": "Labrador"},
			{"key": "mine", "label": " Golden Retriever "},
		},
	})
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	assert.JSONEq(t, fmt.Sprintf(`{"field":{
		"id":"aBreed","locationId":%q,"name":"Dog breed","description":"Breed of the dog",
		"placeholder":"Choose a breed","showInForms":false,
		"options":[{"key":"beagle","label":"Beagle"},{"key":"labrador","label":"Labrador"},{"key":"golden_retriever","label":"Golden Retriever"}],
		"objectKey":"custom_object.pet","dataType":"SINGLE_OPTIONS","parentId":"folder1",
		"fieldKey":"custom_object.pet.breed","dateAdded":%q,"dateUpdated":%q}}`, acctA, added, now), string(resp.Body))

	var body fieldBody
	resp.JSON(t, &body)
	assert.Equal(t, body.Field, stored(t, store, acctA, "aBreed"), "storage holds what the answer shows")
}

func TestUpdateCustomFieldAppliesEachUpdatableProperty(t *testing.T) {
	env, token, store := newEnv(t)
	cases := []struct {
		name  string
		id    string
		body  map[string]any
		check func(t *testing.T, f customfields.Field)
	}{
		{
			"a company (business) field takes a new option", "aIndustry",
			map[string]any{"locationId": acctA, "showInForms": true, "options": []map[string]any{{"label": "Retail"}, {"label": "Health care"}}},
			func(t *testing.T, f customfields.Field) {
				assert.Equal(t, []customfields.Option{{Key: "retail", Label: "Retail"}, {Key: "health_care", Label: "Health care"}}, f.Options)
			},
		},
		{
			"a RADIO field keeps, adds and drops option URLs as sent", "aSize",
			map[string]any{"locationId": acctA, "showInForms": true, "options": []map[string]any{
				{"label": "Small"}, {"label": "Large", "url": "https://example.com/large?x=1"}, {"label": "Medium", "url": "https://example.org/m"},
			}},
			func(t *testing.T, f customfields.Field) {
				assert.Equal(t, []customfields.Option{
					{Key: "small", Label: "Small"},
					{Key: "large", Label: "Large", URL: "https://example.com/large?x=1"},
					{Key: "medium", Label: "Medium", URL: "https://example.org/m"},
				}, f.Options)
				require.NotNil(t, f.AllowCustomOption)
				assert.True(t, *f.AllowCustomOption, "allowCustomOption is not changed by an update")
			},
		},
		{
			"a CHECKBOX field of another custom object takes options", "aFeatures",
			map[string]any{"locationId": acctA, "showInForms": true, "options": []map[string]any{{"label": "Sunroof"}, {"label": "Tow hitch"}}},
			func(t *testing.T, f customfields.Field) {
				assert.Equal(t, []string{"Sunroof", "Tow hitch"}, labels(f.Options))
			},
		},
		{
			"a new label whose key is taken gets a numbered key", "aFeatures",
			map[string]any{"locationId": acctA, "showInForms": true, "options": []map[string]any{{"label": "Sunroof"}, {"label": "Tow hitch"}, {"label": "SUNROOF!"}, {"label": "日本"}}},
			func(t *testing.T, f customfields.Field) {
				assert.Equal(t, []customfields.Option{
					{Key: "sunroof", Label: "Sunroof"}, {Key: "tow_hitch", Label: "Tow hitch"},
					{Key: "sunroof_2", Label: "SUNROOF!"}, {Key: "option", Label: "日本"},
				}, f.Options)
			},
		},
		{
			"a FILE_UPLOAD field takes accepted formats and a file limit", "aRecords",
			map[string]any{"locationId": acctA, "showInForms": true, "acceptedFormats": "all", "maxFileLimit": customfields.MaxFileLimit},
			func(t *testing.T, f customfields.Field) {
				assert.Equal(t, "all", f.AcceptedFormats)
				assert.Equal(t, customfields.MaxFileLimit, f.MaxFileLimit)
			},
		},
		{
			"a TEXT field takes texts, an empty description clears it, and options stay absent", "aNotes",
			map[string]any{"locationId": acctA, "showInForms": false, "name": "Notes", "description": "", "placeholder": "Anything"},
			func(t *testing.T, f customfields.Field) {
				assert.Equal(t, "Notes", f.Name)
				assert.Empty(t, f.Description)
				assert.Equal(t, "Anything", f.Placeholder)
				assert.False(t, f.ShowInForms)
				assert.Nil(t, f.Options)
				assert.Equal(t, "custom_object.pet.notes", f.FieldKey, "renaming keeps the field key")
			},
		},
		{
			"only showInForms leaves everything else as it was", "aBreed",
			map[string]any{"locationId": acctA, "showInForms": false},
			func(t *testing.T, f customfields.Field) {
				assert.Equal(t, "Field Breed", f.Name)
				assert.Equal(t, "Pick one", f.Placeholder)
				assert.Equal(t, []string{"Labrador", "Beagle"}, labels(f.Options))
				assert.False(t, f.ShowInForms)
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env.Clock.Advance(time.Minute)
			resp := put(t, env, token, tc.id, tc.body)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			var body fieldBody
			resp.JSON(t, &body)
			got := stored(t, store, acctA, tc.id)
			assert.Equal(t, body.Field, got, "storage holds what the answer shows")
			assert.Equal(t, clock.Timestamp(env.Clock.Now()), got.DateUpdated)
			assert.Equal(t, added, got.DateAdded)
			tc.check(t, got)
		})
	}
}

func TestUpdateCustomFieldRejectsBrokenRules(t *testing.T) {
	env, token, store := newEnv(t)
	ok := func(extra map[string]any) map[string]any {
		b := map[string]any{"locationId": acctA, "showInForms": true}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	breed := func(labels ...string) []map[string]any {
		out := []map[string]any{}
		for _, l := range labels {
			out = append(out, map[string]any{"label": l})
		}
		return out
	}
	tooMany := breed("Labrador", "Beagle")
	for i := len(tooMany); i <= 300; i++ {
		tooMany = append(tooMany, map[string]any{"label": fmt.Sprintf("Breed %d", i)})
	}
	cases := []struct {
		name string
		id   string
		body any
		want []string
	}{
		{"locationId is required", "aBreed", map[string]any{"showInForms": true}, []string{"locationId is required"}},
		{"locationId must be an id", "aBreed", ok(map[string]any{"locationId": "ACCOUNT#x"}), []string{"locationId must be an id"}},
		{"showInForms is required", "aBreed", map[string]any{"locationId": acctA}, []string{"showInForms is required"}},
		{"showInForms must be a boolean", "aBreed", ok(map[string]any{"showInForms": "yes"}), []string{"showInForms must be a boolean"}},
		{"name must not be empty", "aBreed", ok(map[string]any{"name": "   "}), []string{"name must not be empty"}},
		{"name is bounded", "aBreed", ok(map[string]any{"name": strings.Repeat("n", 256)}), []string{"name must be at most 255 characters"}},
		{"description is bounded", "aBreed", ok(map[string]any{"description": strings.Repeat("d", 2001)}), []string{"description must be at most 2000 characters"}},
		{"placeholder is bounded", "aBreed", ok(map[string]any{"placeholder": strings.Repeat("p", 256)}), []string{"placeholder must be at most 255 characters"}},
		{"an unknown property is refused", "aBreed", ok(map[string]any{"dataType": "TEXT"}), []string{"property dataType should not exist"}},
		{"options must be an array", "aBreed", ok(map[string]any{"options": "Labrador"}), []string{"options must be an array"}},
		{"options must not be null", "aBreed", ok(map[string]any{"options": nil}), []string{"options must be an array"}},
		{"an option must be an object", "aBreed", ok(map[string]any{"options": []any{"Labrador"}}), []string{"options[0] must be an object"}},
		{"an option label is required", "aBreed", ok(map[string]any{"options": []map[string]any{{"label": "Labrador"}, {"key": "beagle"}}}), []string{"options[1].label is required"}},
		{"an option label must not be blank", "aBreed", ok(map[string]any{"options": breed("Labrador", "Beagle", "  ")}), []string{"options[2].label is required"}},
		{"an option label must be a string", "aBreed", ok(map[string]any{"options": []map[string]any{{"label": 7}}}), []string{"options[0].label must be a string"}},
		{"an option label is bounded", "aBreed", ok(map[string]any{"options": breed("Labrador", "Beagle", strings.Repeat("x", 101))}), []string{"options[2].label must be at most 100 characters"}},
		{"option labels must be unique", "aBreed", ok(map[string]any{"options": breed("Labrador", "Beagle", " Beagle")}), []string{`options[2].label "Beagle" repeats options[1].label`}},
		{"an option has no other properties", "aBreed", ok(map[string]any{"options": []map[string]any{{"label": "Labrador", "color": "brown"}}}), []string{"property options[0].color should not exist"}},
		{"options are bounded", "aBreed", ok(map[string]any{"options": tooMany}), []string{"options must hold at most 300 options"}},
		{"removing an option is refused, naming it", "aBreed", ok(map[string]any{"options": breed("Labrador", "Poodle")}), []string{`options must include every existing option`, `missing: "Beagle"`}},
		{"an empty options array removes every option and is refused", "aBreed", ok(map[string]any{"options": []any{}}), []string{`missing: "Labrador", "Beagle"`}},
		{"renaming an option is a removal and is refused", "aBreed", ok(map[string]any{"options": breed("labrador", "Beagle")}), []string{`missing: "Labrador"`}},
		{"options are refused on a TEXT field", "aNotes", ok(map[string]any{"options": breed("A")}), []string{"options is only allowed on SINGLE_OPTIONS, MULTIPLE_OPTIONS, RADIO, CHECKBOX, TEXTBOX_LIST fields; this field is TEXT"}},
		{"options are refused on a FILE_UPLOAD field", "aRecords", ok(map[string]any{"options": breed("A")}), []string{"options is only allowed on", "FILE_UPLOAD"}},
		{"an option url is refused on a SINGLE_OPTIONS field", "aBreed", ok(map[string]any{"options": []map[string]any{{"label": "Labrador"}, {"label": "Beagle", "url": "https://example.com"}}}), []string{"options[1].url is only allowed on RADIO fields"}},
		{"an option url must be a URL", "aSize", ok(map[string]any{"options": []map[string]any{{"label": "Small", "url": "example.com/small"}, {"label": "Large"}}}), []string{"options[0].url must be an https URL with a public host: it must start with https://"}},
		{"an option url must be http or https", "aSize", ok(map[string]any{"options": []map[string]any{{"label": "Small", "url": "javascript:alert(1)"}, {"label": "Large"}}}), []string{"options[0].url must be an https URL with a public host: it must start with https://"}},
		{"an option url must be ASCII (percent-encoded)", "aSize", ok(map[string]any{"options": []map[string]any{{"label": "Small", "url": "https://example.com/größe"}, {"label": "Large"}}}), []string{"options[0].url must be an https URL with a public host: it holds a non-ASCII character"}},
		{"an option url has no credentials", "aSize", ok(map[string]any{"options": []map[string]any{{"label": "Small", "url": "https://user:pw@example.com/"}, {"label": "Large"}}}), []string{"options[0].url must be an https URL with a public host: it must not hold a user name or password"}},
		{"an option url is bounded", "aSize", ok(map[string]any{"options": []map[string]any{{"label": "Small", "url": "https://example.com/" + strings.Repeat("a", 500)}, {"label": "Large"}}}), []string{"options[0].url must be at most 500 characters"}},
		{"acceptedFormats must be a listed format", "aRecords", ok(map[string]any{"acceptedFormats": ".exe"}), []string{"acceptedFormats must be one of: .pdf, .docx"}},
		{"acceptedFormats must be a string", "aRecords", ok(map[string]any{"acceptedFormats": []string{".pdf"}}), []string{"acceptedFormats must be a string"}},
		{"acceptedFormats is refused on a non-file field", "aNotes", ok(map[string]any{"acceptedFormats": ".pdf"}), []string{"acceptedFormats is only allowed on FILE_UPLOAD fields; this field is TEXT"}},
		{"maxFileLimit must be positive", "aRecords", ok(map[string]any{"maxFileLimit": 0}), []string{"maxFileLimit must be a whole number from 1 to 20"}},
		{"maxFileLimit must be whole", "aRecords", ok(map[string]any{"maxFileLimit": 2.5}), []string{"maxFileLimit must be a whole number"}},
		{"maxFileLimit is bounded", "aRecords", ok(map[string]any{"maxFileLimit": 21}), []string{"maxFileLimit must be a whole number from 1 to 20"}},
		{"maxFileLimit must be a number", "aRecords", ok(map[string]any{"maxFileLimit": "3"}), []string{"maxFileLimit must be a number"}},
		{"maxFileLimit is refused on a non-file field", "aBreed", ok(map[string]any{"maxFileLimit": 3}), []string{"maxFileLimit is only allowed on FILE_UPLOAD fields; this field is SINGLE_OPTIONS"}},
		{"a contact field cannot be updated", "aColor", ok(map[string]any{"name": "Colour"}), []string{`id names a field of the "contact" object; only fields of custom objects (custom_object.<key>) and of the company object (business) can be updated`}},
		{"a malformed field id is refused", "a%23Breed", ok(nil), []string{"id must be an id"}},
		{"a malformed field id is named with the body's broken rules", "a%23Breed", map[string]any{"locationId": acctA, "name": ""},
			[]string{"id must be an id", "showInForms is required", "name must not be empty"}},
		{"one answer names every rule the request breaks (the stored field's rules come after them)", "aNotes", map[string]any{"locationId": acctA, "name": "", "acceptedFormats": ".pdf", "options": breed("A", "A")},
			[]string{"showInForms is required", "name must not be empty", `options[1].label "A" repeats`}},
		{"one answer names every rule the stored field breaks", "aNotes", ok(map[string]any{"acceptedFormats": ".pdf", "maxFileLimit": 3}),
			[]string{"acceptedFormats is only allowed on FILE_UPLOAD fields; this field is TEXT", "maxFileLimit is only allowed on FILE_UPLOAD fields; this field is TEXT"}},
		{"a body that is not JSON is refused", "aBreed", `{"locationId":`, []string{"malformed JSON"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := strings.ReplaceAll(tc.id, "%23", "#")
			var before customfields.Field
			if !strings.Contains(id, "#") {
				before = stored(t, store, acctA, id)
			}
			resp := put(t, env, token, tc.id, tc.body)
			msg := resp.RequireError(t, http.StatusBadRequest)
			for _, want := range tc.want {
				assert.Contains(t, msg, want)
			}
			if !strings.Contains(id, "#") {
				assert.Equal(t, before, stored(t, store, acctA, id), "a refused update changes nothing")
			}
		})
	}
}

func TestUpdateCustomFieldStaysInsideTheCallersAccount(t *testing.T) {
	env, token, store := newEnv(t)
	body := func(location string) map[string]any {
		return map[string]any{"locationId": location, "showInForms": false, "name": "Hijacked", "options": []map[string]any{{"label": "Labrador"}, {"label": "Beagle"}, {"label": "Wolf"}}}
	}
	cases := []struct {
		name   string
		id     string
		body   map[string]any
		status int
		want   string
	}{
		{"another account's field id is 404", "bBreed", body(acctA), http.StatusNotFound, "Custom field bBreed was not found"},
		{"another account's locationId is 403", "bBreed", body(acctB), http.StatusForbidden, "does not have access to this location"},
		{"another account's locationId is 403 even for the caller's field", "aBreed", body(acctB), http.StatusForbidden, "does not have access"},
		{"an unknown field id is 404", "nosuchfield", body(acctA), http.StatusNotFound, "Custom field nosuchfield was not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			beforeA, beforeB := stored(t, store, acctA, "aBreed"), stored(t, store, acctB, "bBreed")
			msg := put(t, env, token, tc.id, tc.body).RequireError(t, tc.status)
			assert.Contains(t, msg, tc.want)
			assert.Equal(t, beforeA, stored(t, store, acctA, "aBreed"), "the caller's field is unchanged")
			assert.Equal(t, beforeB, stored(t, store, acctB, "bBreed"), "the other account's field is unchanged")
		})
	}
}

func TestUpdateCustomFieldAuth(t *testing.T) {
	env, _, _ := newEnv(t)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.UpdateCustomField, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			return put(t, env, token, "aNotes", map[string]any{"locationId": acctA, "showInForms": true})
		},
	})
}

func TestUpdateCustomFieldConcurrentOptionAdditionsAllSurvive(t *testing.T) {
	env, token, store := newEnv(t)
	const rounds, writers = 5, 2
	for round := 0; round < rounds; round++ {
		existing := labels(stored(t, store, acctA, "aBreed").Options)
		var wg sync.WaitGroup
		statuses := make([]int, writers)
		bodies := make([]string, writers)
		added := make([]string, writers)
		for w := 0; w < writers; w++ {
			added[w] = fmt.Sprintf("Round %d writer %d", round, w)
			opts := []map[string]any{}
			for _, l := range append(append([]string{}, existing...), added[w]) {
				opts = append(opts, map[string]any{"label": l})
			}
			wg.Add(1)
			go func(w int, opts []map[string]any) {
				defer wg.Done()
				resp := put(t, env, token, "aBreed", map[string]any{"locationId": acctA, "showInForms": true, "options": opts})
				statuses[w], bodies[w] = resp.Status, string(resp.Body)
			}(w, opts)
		}
		wg.Wait()
		for w := range writers {
			require.Equal(t, http.StatusOK, statuses[w], "round %d writer %d: %s", round, w, bodies[w])
		}
		got := stored(t, store, acctA, "aBreed")
		want := append(append([]string{}, existing...), added...)
		assert.ElementsMatch(t, want, labels(got.Options), "round %d: no option is lost", round)
		keys := map[string]bool{}
		for _, o := range got.Options {
			assert.False(t, keys[o.Key], "round %d: key %s is unique", round, o.Key)
			keys[o.Key] = true
		}
		assert.Equal(t, "labrador", got.Options[0].Key, "existing keys are kept")
	}
}

// Two clients adding an option each both send the list without the other's
// option; the later one may be read after the earlier one is written. An
// option that new is kept, not taken for a removal; later its omission is.
func TestUpdateCustomFieldKeepsAJustAddedOptionThatARequestLeavesOut(t *testing.T) {
	env, token, store := newEnv(t)
	send := func(labels ...string) *testenv.Response {
		opts := []map[string]any{}
		for _, l := range labels {
			opts = append(opts, map[string]any{"label": l})
		}
		return put(t, env, token, "aBreed", map[string]any{"locationId": acctA, "showInForms": true, "options": opts})
	}
	steps := []struct {
		name    string
		advance time.Duration
		labels  []string
		status  int
		want    []string
	}{
		{"one client adds Husky", 0, []string{"Labrador", "Beagle", "Husky"}, http.StatusOK, []string{"Labrador", "Beagle", "Husky"}},
		{"a client that had not seen Husky adds Poodle a moment later, and Husky stays", 2 * time.Second, []string{"Labrador", "Beagle", "Poodle"}, http.StatusOK, []string{"Labrador", "Beagle", "Poodle", "Husky"}},
		{"long after, leaving Husky out is a refused removal", 11 * time.Second, []string{"Labrador", "Beagle", "Poodle", "Akita"}, http.StatusBadRequest, []string{"Labrador", "Beagle", "Poodle", "Husky"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			env.Clock.Advance(s.advance)
			resp := send(s.labels...)
			if s.status == http.StatusOK {
				require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			} else {
				assert.Contains(t, resp.RequireError(t, s.status), `missing: "Husky"`)
			}
			assert.Equal(t, s.want, labels(stored(t, store, acctA, "aBreed").Options))
		})
	}
}
