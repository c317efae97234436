package emails_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/emails"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"
	path    = "/emails/builder"
)

// fixture gives Alpha a folder and a template inside it, and Bravo a folder.
const fixture = `{"templates":[
 {"id":"fldAlphaNews","locationId":"acctAlpha","type":"folder","name":"Newsletters","dateAdded":"2025-01-10T09:00:00.000Z"},
 {"id":"tplAlphaOffer","locationId":"acctAlpha","type":"html","name":"Offer","parentId":"fldAlphaNews","dateAdded":"2025-01-11T09:00:00.000Z"},
 {"id":"fldBravoNews","locationId":"acctBravo","type":"folder","name":"Bravo news","dateAdded":"2025-01-12T09:00:00.000Z"}
]}`

var hexID = regexp.MustCompile(`^[0-9a-f]{24}$`)

type createdBody struct {
	Redirect string `json:"redirect"`
	TraceID  string `json:"traceId"`
}

func newEnv(t *testing.T) (*testenv.Env, string, *emails.Templates) {
	t.Helper()
	env := testenv.New(t, []app.Area{emails.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	env.Seed(t, emails.Area, fixture)
	token, _ := env.Token(t, acctA)
	return env, token, emails.NewTemplates(env.Table)
}

func create(t *testing.T, env *testenv.Env, token string, body any) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "POST", Path: path, Token: token, Body: body})
}

func templates(t *testing.T, store *emails.Templates, account string) []emails.Template {
	t.Helper()
	list, err := store.List(context.Background(), account)
	require.NoError(t, err)
	return list
}

func TestCreateTemplateStoresEveryTypeAsGiven(t *testing.T) {
	env, token, store := newEnv(t)
	plain, rich := false, true
	now := clock.Timestamp(testenv.Start)
	cases := []struct {
		name string
		body map[string]any
		want emails.Template
	}{
		{
			name: "an html template with every optional field keeps them all",
			body: map[string]any{
				"locationId": acctA, "type": "html", "title": "Spring offer", "name": "Offer 1", "updatedBy": "user0000000000000001",
				"builderVersion": "1", "parentId": "fldAlphaNews", "templateDataUrl": "https://cdn.example.com/t/1.json",
				"templateSource": "template_library", "isPlainText": false,
			},
			want: emails.Template{Type: "html", Title: "Spring offer", Name: "Offer 1", UpdatedBy: "user0000000000000001", BuilderVersion: "1",
				ParentID: "fldAlphaNews", TemplateDataURL: "https://cdn.example.com/t/1.json", TemplateSource: "template_library", IsPlainText: &plain},
		},
		{
			name: "a folder gets builder version 2 by default",
			body: map[string]any{"locationId": acctA, "type": "folder", "name": "Promotions"},
			want: emails.Template{Type: "folder", Name: "Promotions", BuilderVersion: "2"},
		},
		{
			name: "a folder can live inside a folder",
			body: map[string]any{"locationId": acctA, "type": "folder", "name": "Archive", "parentId": "fldAlphaNews"},
			want: emails.Template{Type: "folder", Name: "Archive", BuilderVersion: "2", ParentID: "fldAlphaNews"},
		},
		{
			name: "an import keeps its provider and URL",
			body: map[string]any{"locationId": acctA, "type": "import", "importProvider": "active_campaign", "importURL": "https://tplshare.com/fhYJ3Mi", "title": "Imported"},
			want: emails.Template{Type: "import", Title: "Imported", BuilderVersion: "2", ImportProvider: "active_campaign", ImportURL: "https://tplshare.com/fhYJ3Mi"},
		},
		{
			name: "a builder template with builder version 2",
			body: map[string]any{"locationId": acctA, "type": "builder", "builderVersion": "2", "title": "Drag and drop"},
			want: emails.Template{Type: "builder", Title: "Drag and drop", BuilderVersion: "2"},
		},
		{
			name: "a blank plain-text template with an empty data URL",
			body: map[string]any{"locationId": acctA, "type": "blank", "isPlainText": true, "templateDataUrl": ""},
			want: emails.Template{Type: "blank", BuilderVersion: "2", IsPlainText: &rich},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := create(t, env, token, tc.body)
			require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
			var body createdBody
			resp.JSON(t, &body)
			assert.Regexp(t, hexID, body.Redirect)
			assert.Equal(t, resp.Header.Get("X-Request-Id"), body.TraceID)
			assert.NotEmpty(t, body.TraceID)

			stored, err := store.Get(context.Background(), acctA, body.Redirect)
			require.NoError(t, err)
			require.NotNil(t, stored, "the template is in storage under the id answered")
			want := tc.want
			want.ID, want.LocationID, want.DateAdded, want.DateUpdated = body.Redirect, acctA, now, now
			assert.Equal(t, want, *stored)
		})
	}
	t.Run("each creation gets a new id", func(t *testing.T) {
		a, b := createdBody{}, createdBody{}
		create(t, env, token, map[string]any{"locationId": acctA, "type": "blank"}).JSON(t, &a)
		create(t, env, token, map[string]any{"locationId": acctA, "type": "blank"}).JSON(t, &b)
		assert.NotEqual(t, a.Redirect, b.Redirect)
	})
}

func TestCreateTemplateRejectsEachBrokenRuleNamingTheField(t *testing.T) {
	env, token, store := newEnv(t)
	long := strings.Repeat("x", 256)
	valid := func(changes map[string]any) map[string]any {
		body := map[string]any{"locationId": acctA, "type": "html", "name": "Offer"}
		for k, v := range changes {
			if v == nil {
				delete(body, k)
			} else {
				body[k] = v
			}
		}
		return body
	}
	imp := func(changes map[string]any) map[string]any {
		base := map[string]any{"type": "import", "importProvider": "mailchimp", "importURL": "https://tplshare.com/x"}
		for k, v := range changes {
			base[k] = v
		}
		return valid(base)
	}
	cases := []struct {
		name   string
		body   any
		status int
		msg    string
	}{
		{"locationId is required", valid(map[string]any{"locationId": nil}), 422, "locationId is required"},
		{"locationId must be an id", valid(map[string]any{"locationId": "acct#Alpha"}), 422, "locationId must be an id"},
		{"type is required", valid(map[string]any{"type": nil}), 422, "type is required"},
		{"type must be a known type", valid(map[string]any{"type": "newsletter"}), 422, "type must be one of: html, folder, import, builder, blank"},
		{"builderVersion must be 1 or 2", valid(map[string]any{"builderVersion": "3"}), 422, "builderVersion must be one of: 1, 2"},
		{"builderVersion must be a string", valid(map[string]any{"builderVersion": 2}), 422, "builderVersion must be a string"},
		{"an import needs importProvider", imp(map[string]any{"importProvider": nil}), 422, "importProvider is required"},
		{"importProvider must be a known provider", imp(map[string]any{"importProvider": "sendgrid"}), 422, "importProvider must be one of: mailchimp, active_campaign, kajabi"},
		{"an import needs importURL", imp(map[string]any{"importURL": nil}), 422, "importURL is required"},
		{"importURL must be https", imp(map[string]any{"importURL": "http://tplshare.com/x"}), 422, "importURL must be an https URL with a public host: it uses http, not https"},
		{"importURL must be a URL", imp(map[string]any{"importURL": "https://"}), 422, "importURL must be an https URL with a public host: it has no host"},
		{"importProvider is refused on an html template", valid(map[string]any{"importProvider": "mailchimp"}), 422, "importProvider is only allowed when type is import"},
		{"importURL is refused on a folder", valid(map[string]any{"type": "folder", "importURL": "https://tplshare.com/x"}), 422, "importURL is only allowed when type is import"},
		{"parentId must be an id", valid(map[string]any{"parentId": "../fld"}), 422, "parentId must be an id"},
		{"parentId must name a folder, not a template", valid(map[string]any{"parentId": "tplAlphaOffer"}), 422, "parentId must name a folder"},
		{"parentId naming nothing is 404", valid(map[string]any{"parentId": "fldMissing"}), 404, "parentId fldMissing names no folder"},
		{"title must not be blank", valid(map[string]any{"title": "  "}), 422, "title must not be blank"},
		{"title is bounded", valid(map[string]any{"title": long}), 422, "title must be at most 255 characters"},
		{"name is bounded", valid(map[string]any{"name": long}), 422, "name must be at most 255 characters"},
		{"templateSource is bounded", valid(map[string]any{"templateSource": long}), 422, "templateSource must be at most 100 characters"},
		{"updatedBy must be a user id", valid(map[string]any{"updatedBy": "jane doe"}), 422, "updatedBy must be an id"},
		{"templateDataUrl must be https", valid(map[string]any{"templateDataUrl": "ftp://cdn.example.com/t.json"}), 422, "templateDataUrl must be an https URL with a public host: it uses ftp, not https"},
		{"templateDataUrl is bounded", valid(map[string]any{"templateDataUrl": "https://cdn.example.com/" + strings.Repeat("a", 2048)}), 422, "templateDataUrl must be at most 2048 characters long"},
		{"isPlainText must be a boolean", valid(map[string]any{"isPlainText": "yes"}), 422, "isPlainText must be a boolean"},
		{"an unknown property is refused", valid(map[string]any{"color": "red"}), 422, "property color should not exist"},
		{"a body that is not JSON is a bad request", `{"locationId":`, 400, "malformed JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(templates(t, store, acctA))
			resp := create(t, env, token, tc.body)
			assert.Contains(t, resp.RequireError(t, tc.status), tc.msg)
			assert.Len(t, templates(t, store, acctA), before, "nothing is stored")
		})
	}
	t.Run("one answer names every broken rule", func(t *testing.T) {
		resp := create(t, env, token, map[string]any{"type": "import", "builderVersion": "9"})
		msg := resp.RequireError(t, 422)
		for _, field := range []string{"locationId is required", "builderVersion", "importProvider is required", "importURL is required"} {
			assert.Contains(t, msg, field)
		}
	})
}

func TestCreateTemplateStaysInsideTheCallersAccount(t *testing.T) {
	env, token, store := newEnv(t)
	ctx := context.Background()
	bravoBefore := templates(t, store, acctB)

	t.Run("another account's locationId is 403", func(t *testing.T) {
		resp := create(t, env, token, map[string]any{"locationId": acctB, "type": "blank"})
		assert.Contains(t, resp.RequireError(t, http.StatusForbidden), "does not have access to this location")
	})
	t.Run("another account's folder as parent is 404 naming parentId", func(t *testing.T) {
		resp := create(t, env, token, map[string]any{"locationId": acctA, "type": "html", "parentId": "fldBravoNews"})
		assert.Contains(t, resp.RequireError(t, http.StatusNotFound), "parentId")
		folder, err := store.Get(ctx, acctB, "fldBravoNews")
		require.NoError(t, err)
		require.NotNil(t, folder)
		assert.Equal(t, "Bravo news", folder.Name)
	})
	assert.Len(t, templates(t, store, acctA), 2, "nothing was created in the caller's account")
	assert.Equal(t, bravoBefore, templates(t, store, acctB), "the other account's records are unchanged")
}

func TestCreateTemplateAuth(t *testing.T) {
	env, _, _ := newEnv(t)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.CreateEmailTemplate, Account: acctA, OK: http.StatusCreated, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			return create(t, env, token, map[string]any{"locationId": acctA, "type": "html", "name": "Auth check", "parentId": "fldAlphaNews"})
		},
	})
}

// TestDemoDataServesTheDocumentedExample loads the shipped demo data and
// sends the request docs/api.md shows.
func TestDemoDataServesTheDocumentedExample(t *testing.T) {
	ds, err := demo.Default()
	require.NoError(t, err)
	env := testenv.New(t, []app.Area{emails.Area})
	_, err = demo.Load(context.Background(), env.Deps, demo.Dataset{demo.AccountsPart: ds[demo.AccountsPart], "emails": ds["emails"]}, []app.Area{emails.Area})
	require.NoError(t, err)
	token, _ := env.Token(t, demo.AccountAlpha)
	store := emails.NewTemplates(env.Table)

	resp := create(t, env, token, map[string]any{
		"locationId": demo.AccountAlpha, "type": "html", "title": "Summer check-up reminder", "name": "Summer reminder",
		"builderVersion": "2", "parentId": "demoFldAlpha00000002", "isPlainText": false,
	})
	require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
	var body createdBody
	resp.JSON(t, &body)
	stored, err := store.Get(context.Background(), demo.AccountAlpha, body.Redirect)
	require.NoError(t, err)
	require.NotNil(t, stored)
	assert.Equal(t, "demoFldAlpha00000002", stored.ParentID)

	for _, tc := range []struct {
		name, parent string
		status       int
	}{
		{"Bravo's demo folder is not Alpha's", "demoFldBravo00000001", http.StatusNotFound},
		{"a demo template is not a folder", "demoTplAlpha00000001", http.StatusUnprocessableEntity},
		{"a nested demo folder is a folder", "demoFldAlpha00000003", http.StatusCreated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := create(t, env, token, map[string]any{"locationId": demo.AccountAlpha, "type": "blank", "parentId": tc.parent})
			assert.Equal(t, tc.status, resp.Status, "body: %s", resp.Body)
		})
	}
}
