package medias_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/medias"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"
	bigSize = 30
)

var epoch = time.Date(2025, 2, 3, 9, 0, 0, 0, time.UTC)

func newEnv(t *testing.T) (*testenv.Env, string) {
	env := testenv.New(t, []app.Area{medias.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	token, _ := env.Token(t, acctA)
	return env, token
}

// entry is an entry of account created minute minutes after epoch and
// updated edited minutes later.
func entry(account, id, typ, name, parent string, minute, edited int) medias.Entry {
	e := medias.Entry{
		ID: id, AltID: account, AltType: "account", Name: name, ParentID: parent, Type: typ,
		CreatedAt: epoch.Add(time.Duration(minute) * time.Minute).Format(time.RFC3339),
		UpdatedAt: epoch.Add(time.Duration(minute+edited) * time.Minute).Format(time.RFC3339),
	}
	if typ == medias.TypeFile {
		e.URL = "https://media.example.com/" + account + "/" + id
	}
	return e
}

func seedEntries(t *testing.T, env *testenv.Env, entries ...medias.Entry) {
	t.Helper()
	raw, err := json.Marshal(medias.SeedData{Files: entries})
	require.NoError(t, err)
	env.Seed(t, medias.Area, string(raw))
}

// seedTree writes the test library:
//
//	acctA: Docs/ {Report.pdf, notes.txt, Sub/ {sub.txt, Deep/ {deep.txt}}},
//	       Big/ {big00..big29}, rootA.pdf, rootB.png
//	acctB: Theirs/ {theirs.pdf}, theirsRoot.pdf
//
// Big's files were uploaded in batches: every third shares its
// predecessor's creation time, so date sorting needs the tie-break.
func seedTree(t *testing.T, env *testenv.Env) []medias.Entry {
	t.Helper()
	all := []medias.Entry{
		entry(acctA, "fldDocs", medias.TypeFolder, "Docs", "", 1, 0),
		entry(acctA, "fldSub", medias.TypeFolder, "Sub", "fldDocs", 2, 0),
		entry(acctA, "fldDeep", medias.TypeFolder, "Deep", "fldSub", 3, 0),
		entry(acctA, "fldBig", medias.TypeFolder, "Big", "", 4, 0),
		entry(acctA, "rootB", medias.TypeFile, "rootB.png", "", 5, 50),
		entry(acctA, "rootA", medias.TypeFile, "rootA.pdf", "", 6, 10),
		entry(acctA, "report", medias.TypeFile, "Report.pdf", "fldDocs", 7, 0),
		entry(acctA, "notes", medias.TypeFile, "notes.txt", "fldDocs", 8, 0),
		entry(acctA, "sub", medias.TypeFile, "sub.txt", "fldSub", 9, 0),
		entry(acctA, "deep", medias.TypeFile, "deep.txt", "fldDeep", 10, 0),
		entry(acctB, "fldTheirs", medias.TypeFolder, "Theirs", "", 1, 0),
		entry(acctB, "theirs", medias.TypeFile, "theirs.pdf", "fldTheirs", 2, 0),
		entry(acctB, "theirsRoot", medias.TypeFile, "theirsRoot.pdf", "", 3, 0),
	}
	minute := 100
	for i := range bigSize {
		if i%3 != 2 {
			minute++
		}
		// Ids run against creation order within a batch, names against ids.
		id := fmt.Sprintf("big%02d", bigSize-1-i)
		all = append(all, entry(acctA, id, medias.TypeFile, fmt.Sprintf("Photo %02d.jpg", i), "fldBig", minute, (i*7)%11))
	}
	seedEntries(t, env, all...)
	return all
}

// listQuery is a valid listing of acctA's root files, changed by kv pairs
// (an empty value removes the parameter).
func listQuery(kv ...string) url.Values {
	q := url.Values{"sortBy": {"createdAt"}, "sortOrder": {"asc"}, "type": {"file"}, "altType": {"account"}, "altId": {acctA}}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			q.Del(kv[i])
		} else {
			q.Set(kv[i], kv[i+1])
		}
	}
	return q
}

type listBody struct {
	Files []medias.File `json:"files"`
}

func list(t *testing.T, env *testenv.Env, token string, q url.Values) []medias.File {
	t.Helper()
	resp := env.Do(t, testenv.Request{Method: "GET", Path: "/medias/files?" + q.Encode(), Token: token})
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	require.Contains(t, string(resp.Body), `"files":[`, "files is always a list")
	var body listBody
	resp.JSON(t, &body)
	return body.Files
}

func ids(files []medias.File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.ID
	}
	return out
}

func TestListMediaShowsOneFolder(t *testing.T) {
	env, token := newEnv(t)
	seedTree(t, env)
	cases := []struct {
		name  string
		query url.Values
		want  []string
		paths []string
	}{
		{"without parentId the root's files are listed", listQuery(), []string{"rootB", "rootA"}, []string{"rootB.png", "rootA.pdf"}},
		{"without parentId the root's folders are listed", listQuery("type", "folder"), []string{"fldDocs", "fldBig"}, []string{"Docs", "Big"}},
		{"fetchAll=false lists the root too", listQuery("fetchAll", "false"), []string{"rootB", "rootA"}, nil},
		{"a folder's files are listed with their paths", listQuery("parentId", "fldDocs"), []string{"report", "notes"}, []string{"Docs/Report.pdf", "Docs/notes.txt"}},
		{"a nested folder's folders are listed with their paths", listQuery("parentId", "fldSub", "type", "folder"), []string{"fldDeep"}, []string{"Docs/Sub/Deep"}},
		{"a folder without folders lists none", listQuery("parentId", "fldDeep", "type", "folder"), []string{}, nil},
		{"query matches names case-insensitively", listQuery("parentId", "fldDocs", "query", "REPORT"), []string{"report"}, nil},
		{"query matches any part of the name", listQuery("query", ".pd"), []string{"rootA"}, nil},
		{"query is trimmed", listQuery("query", "  rootb  "), []string{"rootB"}, nil},
		{"a query nothing matches lists none", listQuery("query", "zebra"), []string{}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := list(t, env, token, tc.query)
			assert.Equal(t, tc.want, ids(files))
			if tc.paths != nil {
				var paths []string
				for _, f := range files {
					paths = append(paths, f.Path)
				}
				assert.Equal(t, tc.paths, paths)
			}
		})
	}
	t.Run("each entry carries the file fields", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/medias/files?" + listQuery("parentId", "fldDocs", "query", "report").Encode(), Token: token})
		require.Equal(t, http.StatusOK, resp.Status)
		assert.JSONEq(t, `{"files":[{
			"_id": "report", "altId": "acctAlpha", "altType": "account", "name": "Report.pdf",
			"parentId": "fldDocs", "url": "https://media.example.com/acctAlpha/report", "path": "Docs/Report.pdf",
			"type": "file", "createdAt": "2025-02-03T09:07:00.000Z", "updatedAt": "2025-02-03T09:07:00.000Z"}]}`, string(resp.Body))
	})
	t.Run("a root folder has neither parentId nor url", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/medias/files?" + listQuery("type", "folder", "query", "docs").Encode(), Token: token})
		require.Equal(t, http.StatusOK, resp.Status)
		assert.JSONEq(t, `{"files":[{
			"_id": "fldDocs", "altId": "acctAlpha", "altType": "account", "name": "Docs", "path": "Docs",
			"type": "folder", "createdAt": "2025-02-03T09:01:00.000Z", "updatedAt": "2025-02-03T09:01:00.000Z"}]}`, string(resp.Body))
	})
}

func TestListMediaFetchAllListsTheWholeTree(t *testing.T) {
	env, token := newEnv(t)
	all := seedTree(t, env)
	var allFilesA []string
	for _, e := range all {
		if e.AltID == acctA && e.Type == medias.TypeFile {
			allFilesA = append(allFilesA, e.ID)
		}
	}
	cases := []struct {
		name  string
		query url.Values
		want  []string
	}{
		{"every file of the account, in every folder", listQuery("fetchAll", "true", "limit", "100"), allFilesA},
		{"every folder of the account, at every depth", listQuery("fetchAll", "true", "type", "folder"), []string{"fldDocs", "fldSub", "fldDeep", "fldBig"}},
		{"with parentId, every file below that folder", listQuery("fetchAll", "true", "parentId", "fldDocs"), []string{"report", "notes", "sub", "deep"}},
		{"with parentId, every folder below that folder", listQuery("fetchAll", "true", "parentId", "fldDocs", "type", "folder"), []string{"fldSub", "fldDeep"}},
		{"fetchAll pages like any listing", listQuery("fetchAll", "true", "offset", "2", "limit", "3"), allFilesA[2:5]},
		{"fetchAll filters by query", listQuery("fetchAll", "true", "query", "DEEP"), []string{"deep"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := list(t, env, token, tc.query)
			assert.ElementsMatch(t, tc.want, ids(files))
			for _, f := range files {
				assert.Equal(t, acctA, f.AltID, "only the caller's entries")
			}
		})
	}
	t.Run("paths show the whole folder chain", func(t *testing.T) {
		files := list(t, env, token, listQuery("fetchAll", "true", "query", "deep.txt"))
		require.Len(t, files, 1)
		assert.Equal(t, "Docs/Sub/Deep/deep.txt", files[0].Path)
	})
}

func TestListMediaPagesThroughABigFolderOnce(t *testing.T) {
	env, token := newEnv(t)
	all := seedTree(t, env)
	var want []medias.Entry
	for _, e := range all {
		if e.ParentID == "fldBig" {
			want = append(want, e)
		}
	}
	byCreated := func(a, b medias.Entry) int {
		return strings.Compare(a.CreatedAt+"#"+a.ID, b.CreatedAt+"#"+b.ID)
	}
	for _, order := range []string{"asc", "desc"} {
		t.Run("offset and limit walk every entry exactly once, "+order, func(t *testing.T) {
			expected := slices.Clone(want)
			slices.SortFunc(expected, byCreated)
			if order == "desc" {
				slices.Reverse(expected)
			}
			var seen []string
			for offset := 0; ; offset += 7 {
				page := list(t, env, token, listQuery("parentId", "fldBig", "sortOrder", order, "offset", fmt.Sprint(offset), "limit", "7"))
				if len(page) == 0 {
					break
				}
				assert.LessOrEqual(t, len(page), 7)
				seen = append(seen, ids(page)...)
			}
			require.Len(t, seen, bigSize)
			var expectedIDs []string
			for _, e := range expected {
				expectedIDs = append(expectedIDs, e.ID)
			}
			assert.Equal(t, expectedIDs, seen, "sorted by createdAt, ties by id")
		})
	}
	t.Run("without limit a page holds 20 entries", func(t *testing.T) {
		assert.Len(t, list(t, env, token, listQuery("parentId", "fldBig")), 20)
		assert.Len(t, list(t, env, token, listQuery("parentId", "fldBig", "offset", "20")), 10)
	})
	t.Run("an offset past the end lists none", func(t *testing.T) {
		assert.Empty(t, list(t, env, token, listQuery("parentId", "fldBig", "offset", "30")))
	})
}

func TestListMediaSortsByEachFieldBothWays(t *testing.T) {
	env, token := newEnv(t)
	all := seedTree(t, env)
	var big []medias.Entry
	for _, e := range all {
		if e.ParentID == "fldBig" {
			big = append(big, e)
		}
	}
	keys := map[string]func(e medias.Entry) string{
		"createdAt": func(e medias.Entry) string { return e.CreatedAt },
		"updatedAt": func(e medias.Entry) string { return e.UpdatedAt },
		"name":      func(e medias.Entry) string { return strings.ToLower(e.Name) },
	}
	for field, key := range keys {
		for _, order := range []string{"asc", "desc"} {
			t.Run(fmt.Sprintf("by %s %s", field, order), func(t *testing.T) {
				expected := slices.Clone(big)
				slices.SortStableFunc(expected, func(a, b medias.Entry) int {
					if c := strings.Compare(key(a), key(b)); c != 0 {
						return c
					}
					return strings.Compare(a.ID, b.ID)
				})
				if order == "desc" {
					slices.Reverse(expected)
				}
				var expectedIDs []string
				for _, e := range expected {
					expectedIDs = append(expectedIDs, e.ID)
				}
				got := list(t, env, token, listQuery("parentId", "fldBig", "sortBy", field, "sortOrder", order, "limit", "100"))
				assert.Equal(t, expectedIDs, ids(got))
			})
		}
	}
	t.Run("names sort regardless of case", func(t *testing.T) {
		got := list(t, env, token, listQuery("parentId", "fldDocs", "sortBy", "name"))
		assert.Equal(t, []string{"notes", "report"}, ids(got), "notes.txt before Report.pdf")
	})
}

func TestListMediaRejectsBadParameters(t *testing.T) {
	env, token := newEnv(t)
	seedTree(t, env)
	cases := []struct {
		name  string
		query url.Values
		want  string
	}{
		{"a missing sortBy lists the sortable fields", listQuery("sortBy", ""), "sortBy is required (one of: createdAt, updatedAt, name)"},
		{"a blank sortBy lists the sortable fields", listQuery("sortBy", " "), "sortBy is required (one of: createdAt, updatedAt, name)"},
		{"sortBy must be a sortable field", listQuery("sortBy", "size"), "sortBy must be one of: createdAt, updatedAt, name"},
		{"a missing sortOrder lists asc and desc", listQuery("sortOrder", ""), "sortOrder is required (one of: asc, desc)"},
		{"sortOrder must be asc or desc", listQuery("sortOrder", "up"), "sortOrder must be one of: asc, desc"},
		{"a missing type lists file and folder", listQuery("type", ""), "type is required (one of: file, folder)"},
		{"type must be file or folder", listQuery("type", "image"), "type must be one of: file, folder"},
		{"a missing altType names account", listQuery("altType", ""), "altType is required (one of: account)"},
		{"altType must be account", listQuery("altType", "agency"), "altType must be one of: account"},
		{"altId is required", listQuery("altId", ""), "altId is required"},
		{"altId must be an id", listQuery("altId", "a#b"), "altId must be an id"},
		{"offset must be a number", listQuery("offset", "five"), "offset must be an integer"},
		{"offset must not be negative", listQuery("offset", "-1"), "offset must be between 0 and 1000000"},
		{"limit must be a number", listQuery("limit", "ten"), "limit must be an integer"},
		{"limit must be at least 1", listQuery("limit", "0"), "limit must be between 1 and 100"},
		{"limit must be at most 100", listQuery("limit", "101"), "limit must be between 1 and 100"},
		{"fetchAll must be true or false", listQuery("fetchAll", "yes"), "fetchAll must be true or false"},
		{"parentId must be an id", listQuery("parentId", "a.b"), "parentId must be an id"},
		{"parentId must not be empty", url.Values{"parentId": {""}, "sortBy": {"name"}, "sortOrder": {"asc"}, "type": {"file"}, "altType": {"account"}, "altId": {acctA}}, "parentId must not be empty"},
		{"query is at most 255 characters", listQuery("query", strings.Repeat("q", 256)), "query must be at most 255 characters long"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: "/medias/files?" + tc.query.Encode(), Token: token})
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), tc.want)
		})
	}
	t.Run("a parameter given twice is a bad request naming it", func(t *testing.T) {
		q := listQuery()
		q.Add("type", "folder")
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/medias/files?" + q.Encode(), Token: token})
		assert.Contains(t, resp.RequireError(t, http.StatusBadRequest), "type is given 2 times")
	})
	t.Run("one answer names every broken rule", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/medias/files?altType=account&altId=" + acctA, Token: token})
		msg := resp.RequireError(t, http.StatusUnprocessableEntity)
		for _, field := range []string{"sortBy", "sortOrder", "type"} {
			assert.Contains(t, msg, field+" is required")
		}
	})
}

func TestListMediaRefusesForeignAccountsAndUnknownFolders(t *testing.T) {
	env, token := newEnv(t)
	seedTree(t, env)
	cases := []struct {
		name   string
		query  url.Values
		status int
		want   string
	}{
		{"another account's altId is a 403", listQuery("altId", acctB), http.StatusForbidden, "does not have access"},
		{"an unknown folder is a 404", listQuery("parentId", "nosuchfolder"), http.StatusNotFound, "Folder nosuchfolder was not found"},
		{"another account's folder is a 404", listQuery("parentId", "fldTheirs"), http.StatusNotFound, "Folder fldTheirs was not found"},
		{"a file is not a folder: 404", listQuery("parentId", "report"), http.StatusNotFound, "Folder report was not found"},
		{"an unknown folder is a 404 with fetchAll too", listQuery("parentId", "fldTheirs", "fetchAll", "true"), http.StatusNotFound, "Folder fldTheirs was not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: "/medias/files?" + tc.query.Encode(), Token: token})
			assert.Contains(t, resp.RequireError(t, tc.status), tc.want)
		})
	}
}

func TestListMediaAuth(t *testing.T) {
	env, _ := newEnv(t)
	seedTree(t, env)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.ListMediaFiles, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "GET", Path: "/medias/files?" + listQuery().Encode(), Token: token})
		},
	})
}
