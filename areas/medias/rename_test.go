package medias_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/medias"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
)

func rename(t *testing.T, env *testenv.Env, token, id string, body any) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "POST", Path: "/medias/" + id, Token: token, Body: body})
}

func renameBody(name string) map[string]any {
	return map[string]any{"name": name, "altType": "account", "altId": acctA}
}

func stored(t *testing.T, env *testenv.Env, account, id string) medias.Entry {
	t.Helper()
	e, err := medias.NewLibrary(env.Table).Get(context.Background(), account, id)
	require.NoError(t, err)
	require.NotNil(t, e, "entry %s of %s", id, account)
	return *e
}

func TestRenameMediaFile(t *testing.T) {
	env, token := newEnv(t)
	seedTree(t, env)
	before := stored(t, env, acctA, "report")

	resp := rename(t, env, token, "report", renameBody("  Annual report 2025.pdf  "))
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	body := resp.Map(t)
	assert.Equal(t, true, body["updated"])
	assert.NotEmpty(t, body["traceId"])
	assert.Equal(t, resp.Header.Get("X-Request-Id"), body["traceId"], "traceId is the request id")

	t.Run("the stored entry has the trimmed name and a new update time", func(t *testing.T) {
		after := stored(t, env, acctA, "report")
		assert.Equal(t, "Annual report 2025.pdf", after.Name)
		assert.Equal(t, clock.Timestamp(env.Clock.Now()), after.UpdatedAt)
		assert.Equal(t, before.CreatedAt, after.CreatedAt)
		assert.Equal(t, before.URL, after.URL, "the url names the object by id and stays")
		assert.Equal(t, before.ParentID, after.ParentID)
	})
	t.Run("the next listing shows the new name and path", func(t *testing.T) {
		files := list(t, env, token, listQuery("parentId", "fldDocs", "sortBy", "name"))
		require.Len(t, files, 2)
		assert.Equal(t, "report", files[0].ID, "sorted by the new name")
		assert.Equal(t, "Annual report 2025.pdf", files[0].Name)
		assert.Equal(t, "Docs/Annual report 2025.pdf", files[0].Path)
	})
	t.Run("the new name is searchable", func(t *testing.T) {
		assert.Equal(t, []string{"report"}, ids(list(t, env, token, listQuery("parentId", "fldDocs", "query", "annual"))))
		assert.Empty(t, list(t, env, token, listQuery("parentId", "fldDocs", "query", "Report.pdf")))
	})
}

func TestRenameMediaFolderChangesThePathsBelowIt(t *testing.T) {
	env, token := newEnv(t)
	seedTree(t, env)
	resp := rename(t, env, token, "fldSub", renameBody("Archive"))
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	assert.Equal(t, "Archive", stored(t, env, acctA, "fldSub").Name)

	files := list(t, env, token, listQuery("fetchAll", "true", "parentId", "fldDocs"))
	paths := map[string]string{}
	for _, f := range files {
		paths[f.ID] = f.Path
	}
	assert.Equal(t, map[string]string{
		"report": "Docs/Report.pdf", "notes": "Docs/notes.txt",
		"sub": "Docs/Archive/sub.txt", "deep": "Docs/Archive/Deep/deep.txt",
	}, paths)
	folders := list(t, env, token, listQuery("type", "folder", "parentId", "fldDocs"))
	require.Len(t, folders, 1)
	assert.Equal(t, "Docs/Archive", folders[0].Path)
	child := stored(t, env, acctA, "sub")
	assert.Equal(t, "sub.txt", child.Name, "children keep their own names: only their derived paths change")
	assert.Equal(t, "fldSub", child.ParentID)
}

func TestRenameMediaRejectsBadRequests(t *testing.T) {
	env, token := newEnv(t)
	seedTree(t, env)
	with := func(k string, v any) map[string]any {
		b := renameBody("fine.pdf")
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	cases := []struct {
		name   string
		id     string
		body   any
		status int
		want   string
	}{
		{"name is required", "report", with("name", nil), 422, "name is required"},
		{"a blank name is refused", "report", with("name", "   "), 422, "name is required"},
		{"a name with a slash is refused", "report", with("name", "a/b.pdf"), 422, `name must not contain '/' or '\'`},
		{"a name with a backslash is refused", "report", with("name", `a\b.pdf`), 422, `name must not contain '/' or '\'`},
		{"a name longer than 255 characters is refused", "report", with("name", strings.Repeat("é", 256)), 422, "name must be at most 255 characters long"},
		{"a name with a control character is refused", "report", with("name", "a\nb"), 422, "name must not contain control characters"},
		{"a name of two dots is refused", "report", with("name", ".."), 422, `name must not be "." or ".."`},
		{"a name that is not a string is refused", "report", with("name", 42), 422, "name must be a string"},
		{"altType is required", "report", with("altType", nil), 422, "altType is required"},
		{"altType must be account", "report", with("altType", "Location"), 422, "altType must be one of: account"},
		{"altId is required", "report", with("altId", nil), 422, "altId is required"},
		{"altId must be an id", "report", with("altId", "a b"), 422, "altId must be an id"},
		{"an unknown property is refused", "report", with("colour", "red"), 422, "property colour should not exist"},
		{"a malformed path id is refused", "a.b", renameBody("fine.pdf"), 422, "id must be an id"},
		{"a body that is not JSON is a 400", "report", "{name:", 400, "malformed JSON"},
		{"a missing body is a 400", "report", nil, 400, "JSON request body is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := rename(t, env, token, tc.id, tc.body).RequireError(t, tc.status)
			assert.Contains(t, msg, tc.want)
		})
	}
	t.Run("one answer names every broken rule", func(t *testing.T) {
		msg := rename(t, env, token, "a.b", map[string]any{"name": "x/y"}).RequireError(t, 422)
		for _, want := range []string{"id must be an id", "name must not contain", "altId is required", "altType is required"} {
			assert.Contains(t, msg, want)
		}
	})
	t.Run("a malformed path id is named with a property the body must not have", func(t *testing.T) {
		msg := rename(t, env, token, "a.b", with("colour", "red")).RequireError(t, 422)
		assert.Contains(t, msg, "id must be an id")
		assert.Contains(t, msg, "property colour should not exist")
	})
	t.Run("nothing was renamed", func(t *testing.T) {
		assert.Equal(t, "Report.pdf", stored(t, env, acctA, "report").Name)
	})
}

func TestRenameMediaRefusesForeignAndUnknownEntries(t *testing.T) {
	env, token := newEnv(t)
	seedTree(t, env)
	cases := []struct {
		name   string
		id     string
		body   map[string]any
		status int
		want   string
	}{
		{"an unknown id is a 404", "nosuchentry", renameBody("x.pdf"), http.StatusNotFound, "nosuchentry was not found"},
		{"another account's entry under the caller's altId is a 404", "theirs", renameBody("x.pdf"), http.StatusNotFound, "theirs was not found"},
		{"another account's folder under the caller's altId is a 404", "fldTheirs", renameBody("x"), http.StatusNotFound, "fldTheirs was not found"},
		{"another account's altId is a 403", "theirs", map[string]any{"name": "x.pdf", "altType": "account", "altId": acctB}, http.StatusForbidden, "does not have access"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := rename(t, env, token, tc.id, tc.body).RequireError(t, tc.status)
			assert.Contains(t, msg, tc.want)
		})
	}
	t.Run("another account's entries are unchanged", func(t *testing.T) {
		assert.Equal(t, "theirs.pdf", stored(t, env, acctB, "theirs").Name)
		assert.Equal(t, "Theirs", stored(t, env, acctB, "fldTheirs").Name)
	})
}

func TestRenameMediaAuth(t *testing.T) {
	env, _ := newEnv(t)
	seedTree(t, env)
	n := 0
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.UpdateMedia, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			n++
			return rename(t, env, token, "rootA", renameBody(fmt.Sprintf("renamed %d.pdf", n)))
		},
	})
}

func TestRenameMediaConcurrently(t *testing.T) {
	env, token := newEnv(t)
	seedTree(t, env)
	const n = 12
	statuses := make([]int, 2*n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			// Distinct entries: every rename lands.
			statuses[i] = rename(t, env, token, fmt.Sprintf("big%02d", i), renameBody(fmt.Sprintf("renamed-%02d.jpg", i))).Status
		}()
		go func() {
			defer wg.Done()
			// One entry: the last write wins, whole.
			statuses[n+i] = rename(t, env, token, "rootB", renameBody(fmt.Sprintf("contested-%02d.png", i))).Status
		}()
	}
	wg.Wait()
	for i, s := range statuses {
		assert.Equal(t, http.StatusOK, s, "request %d", i)
	}
	for i := range n {
		assert.Equal(t, fmt.Sprintf("renamed-%02d.jpg", i), stored(t, env, acctA, fmt.Sprintf("big%02d", i)).Name)
	}
	final := stored(t, env, acctA, "rootB").Name
	assert.Regexp(t, `^contested-\d\d\.png$`, final)
	files := list(t, env, token, listQuery("query", "contested"))
	require.Len(t, files, 1, "one entry, however many renames")
	assert.Equal(t, final, files[0].Name)
}
