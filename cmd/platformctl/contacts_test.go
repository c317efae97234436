package main

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

// previousReleaseContacts writes contacts as the release before the search
// index stored them: contact items only, no index items, no counters.
func previousReleaseContacts(t *testing.T, env *testenv.Env, account string, n int) {
	t.Helper()
	var items []any
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("%sC%03d", account, i)
		added := testenv.Start.Add(time.Duration(i) * time.Minute)
		items = append(items, map[string]any{
			"PK": "ACCOUNT#" + account, "SK": "CONTACT#" + id,
			"GSI1PK": "CONTACTS#" + account, "GSI1SK": fmt.Sprintf("%013d#%s", added.UnixMilli(), id),
			"id": id, "locationId": account, "firstName": []string{"Ann", "Bob", "Cy"}[i%3], "lastName": fmt.Sprintf("Lee%d", i),
			"dateAdded": added.Format(time.RFC3339), "search": "ann lee", "tags": []string{}, "customFields": []any{}, "followers": []string{},
		})
	}
	require.NoError(t, env.Table.BatchPut(t.Context(), items))
}

func TestContactsReindexIndexesTheContactsOfOneAccountOrOfAll(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	api := testenv.New(t, []app.Area{contacts.Area}, testenv.WithTable(counted))
	c := ctl{t: t, env: map[string]string{"DYNAMODB_ENDPOINT": testenv.Endpoint(t), "TABLE_NAME": table.Name}}
	for _, id := range []string{"acctOne", "acctTwo", "acctThree"} {
		require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", id, "--company", "coCli", "--name", id)))
	}
	previousReleaseContacts(t, api, "acctOne", 30)
	previousReleaseContacts(t, api, "acctTwo", 6)
	token, _ := api.Token(t, "acctOne")
	search := func() (int, map[string]int) {
		t.Helper()
		calls.Take()
		resp := api.Do(t, testenv.Request{Method: "GET", Path: "/contacts/?" + url.Values{"locationId": {"acctOne"}, "query": {"ann le"}}.Encode(), Token: token})
		require.Equal(t, http.StatusOK, resp.Status)
		var body struct {
			Count int `json:"count"`
		}
		resp.JSON(t, &body)
		return body.Count, calls.Take()
	}

	n, ops := search()
	assert.Equal(t, 10, n, "before the index, a search reads the contacts and answers right")
	assert.Equal(t, 2, ops["Query"], "the index partition, empty, and the contacts")

	code, out, errOut := c.run("contacts", "reindex", "--account", "acctOne")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "account acctOne: 30 contacts, 30 indexed now")
	assert.Contains(t, out, "searched through the index")

	n, ops = search()
	assert.Equal(t, 10, n)
	assert.Equal(t, map[string]int{"UpdateItem": 1, "BatchGetItem": 1, "Query": 1}, ops, "admission, the counters, the index (whose items carry the contacts)")

	t.Run("run again, it has nothing left to index", func(t *testing.T) {
		code, out, errOut := c.run("contacts", "reindex", "--account", "acctOne")
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "30 contacts, 0 indexed now (0 written meanwhile by the API); searched through the index")
	})
	t.Run("--all does every account, in id order", func(t *testing.T) {
		code, out, errOut := c.run("contacts", "reindex", "--all")
		require.Equal(t, exitOK, code, errOut)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.Len(t, lines, 3, out)
		assert.Contains(t, lines[0], "account acctOne: 30 contacts, 0 indexed now")
		assert.Contains(t, lines[1], "account acctThree: 0 contacts")
		assert.Contains(t, lines[2], "account acctTwo: 6 contacts, 6 indexed now")
	})
	t.Run("--from resumes --all at an account", func(t *testing.T) {
		code, out, errOut := c.run("contacts", "reindex", "--all", "--from", "acctThree")
		require.Equal(t, exitOK, code, errOut)
		assert.NotContains(t, out, "acctOne")
		assert.Contains(t, out, "acctTwo")
	})
	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"neither an account nor --all", nil, "--account ID or --all"},
		{"both an account and --all", []string{"--account", "acctOne", "--all"}, "--account ID or --all"},
		{"a malformed account id", []string{"--account", "acct#1"}, "account must be an id"},
	} {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			code, _, errOut := c.run(append([]string{"contacts", "reindex"}, tc.args...)...)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, errOut, tc.msg)
		})
	}
}

func TestContactsSettingsShowsAndChangesTheAccountsDuplicateRule(t *testing.T) {
	c, api := setup(t)
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctDup", "--company", "coCli", "--name", "Dup")))
	store := contactstore.NewContacts(api.Table)

	code, out, _ := c.run("contacts", "settings", "--account", "acctDup")
	require.Equal(t, exitOK, code)
	assert.Equal(t, "account acctDup: duplicate contacts refused; a contact is found by email, then phone\n", out, "the defaults")

	code, out, errOut := c.run("contacts", "settings", "--account", "acctDup", "--allow-duplicates=true", "--match", "phone,email")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, "account acctDup: duplicate contacts allowed; a contact is found by phone, then email\n", out)
	got, err := store.DuplicateSettings(t.Context(), "acctDup")
	require.NoError(t, err)
	assert.True(t, got.AllowDuplicates)
	assert.Equal(t, []string{"phone", "email"}, got.MatchOn)

	code, out, _ = c.run("contacts", "settings", "--account", "acctDup", "--match", "email")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "duplicate contacts allowed; a contact is found by email", "what is not given is kept")

	for _, tc := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"a field to match that is none", []string{"--account", "acctDup", "--match", "fax"}, exitUsage, `"fax" is not a field to match on`},
		{"a field named twice", []string{"--account", "acctDup", "--match", "email,email"}, exitUsage, "named twice"},
		{"no account", []string{"--match", "email"}, exitUsage, "account"},
		{"an account that does not exist", []string{"--account", "acctNone", "--allow-duplicates=false"}, exitError, "acctNone does not exist"},
	} {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			code, _, errOut := c.run(append([]string{"contacts", "settings"}, tc.args...)...)
			assert.Equal(t, tc.code, code)
			assert.Contains(t, errOut, tc.says)
		})
	}
}
