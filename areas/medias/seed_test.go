package medias_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/medias"
)

func TestSeedRefusesEntriesTheAPICouldNotServe(t *testing.T) {
	env, _ := newEnv(t)
	seedTree(t, env)
	file := func(change func(e *medias.Entry)) []medias.Entry {
		e := entry(acctA, "newFile", medias.TypeFile, "new.pdf", "fldDocs", 1, 0)
		change(&e)
		return []medias.Entry{e}
	}
	cases := []struct {
		name    string
		entries []medias.Entry
		want    string
	}{
		{"a malformed id", file(func(e *medias.Entry) { e.ID = "a/b" }), "_id must be an id"},
		{"an altType other than account", file(func(e *medias.Entry) { e.AltType = "location" }), "altType must be account"},
		{"an unknown type", file(func(e *medias.Entry) { e.Type = "image" }), "type must be one of: file, folder"},
		{"a name with a slash", file(func(e *medias.Entry) { e.Name = "a/b" }), `name must not contain '/' or '\'`},
		{"a name with outer spaces", file(func(e *medias.Entry) { e.Name = " a " }), "name must not start or end with spaces"},
		{"a file without an https url", file(func(e *medias.Entry) { e.URL = "http://x.example.com/a" }), "url of a file must be an https URL with a public host: it uses http, not https"},
		{"a folder with a url", []medias.Entry{{ID: "f", AltID: acctA, AltType: "account", Name: "F", Type: medias.TypeFolder, URL: "https://x.example.com/f", CreatedAt: "2025-01-01T00:00:00Z", UpdatedAt: "2025-01-01T00:00:00Z"}}, "url must be empty for a folder"},
		{"a createdAt that is not a timestamp", file(func(e *medias.Entry) { e.CreatedAt = "today" }), "createdAt must be an RFC 3339 time"},
		{"an update before the creation", file(func(e *medias.Entry) { e.UpdatedAt = "2000-01-01T00:00:00Z" }), "updatedAt must not be before createdAt"},
		{"a parent that does not exist", file(func(e *medias.Entry) { e.ParentID = "nowhere" }), "parentId nowhere is not a folder of account acctAlpha"},
		{"a parent that is a file", file(func(e *medias.Entry) { e.ParentID = "report" }), "parentId report is not a folder"},
		{"a parent of another account", file(func(e *medias.Entry) { e.ParentID = "fldTheirs" }), "parentId fldTheirs is not a folder of account acctAlpha"},
		{"an id stored already in another folder", file(func(e *medias.Entry) { e.ID = "report"; e.ParentID = "fldSub" }), "files[0] (id report): _id already names a stored entry"},
		{"an id given twice", append(file(func(*medias.Entry) {}), file(func(*medias.Entry) {})...), "files[1] (id newFile): id is taken by files[0] in account acctAlpha"},
		{"folders that form a cycle", []medias.Entry{
			entry(acctA, "loopA", medias.TypeFolder, "A", "loopB", 1, 0),
			entry(acctA, "loopB", medias.TypeFolder, "B", "loopA", 1, 0),
		}, "or its folders form a cycle"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(medias.SeedData{Files: tc.entries})
			require.NoError(t, err)
			err = medias.Area.Seed(context.Background(), env.Deps, raw)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	t.Run("a derived path in the data is an unknown property", func(t *testing.T) {
		err := medias.Area.Seed(context.Background(), env.Deps, []byte(`{"files":[{"_id":"x","path":"a/b"}]}`))
		require.Error(t, err)
		assert.Contains(t, err.Error(), `unknown field "path"`)
	})
	t.Run("nothing was written by the refused loads", func(t *testing.T) {
		e, err := medias.NewLibrary(env.Table).Get(context.Background(), acctA, "newFile")
		require.NoError(t, err)
		assert.Nil(t, e)
		assert.Equal(t, "fldDocs", stored(t, env, acctA, "report").ParentID)
	})
}

func TestSeedAcceptsParentsStoredEarlierAndLoadsTwiceTheSame(t *testing.T) {
	env, token := newEnv(t)
	seedTree(t, env)
	later := entry(acctA, "later", medias.TypeFile, "later.pdf", "fldDeep", 500, 0)
	seedEntries(t, env, later)
	seedEntries(t, env, later)
	files := list(t, env, token, listQuery("parentId", "fldDeep"))
	assert.Equal(t, []string{"deep", "later"}, ids(files))
	assert.Equal(t, "2025-02-03T17:20:00.000Z", stored(t, env, acctA, "later").CreatedAt, "timestamps are stored in the API's format")
}
