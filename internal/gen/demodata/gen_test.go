package main

import (
	"testing"

	"github.com/bizplatform/api/internal/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed demo data parts are what this generator makes: edit the
// generator and run `go generate ./...`, never the files.
func TestTheCommittedFilesAreWhatTheGeneratorMakes(t *testing.T) {
	root, err := gen.ModuleRoot()
	require.NoError(t, err)
	files, err := generate(root)
	require.NoError(t, err)
	require.NotEmpty(t, files)
	assert.Empty(t, gen.Drift(root, files))
}

func TestOneLineObjectsChangesOnlyTheLayout(t *testing.T) {
	for _, c := range []struct {
		name string
		in   any
		want string
	}{
		{"an object of scalars goes on one line", obj{{"date", "2026-06-01"}, {"clicks", 3}, {"paused", false}, {"note", nil}},
			"{\"date\": \"2026-06-01\", \"clicks\": 3, \"paused\": false, \"note\": null}\n"},
		{"an object holding a list keeps a line per member, its flat items one line each",
			obj{{"id", "c1"}, {"daily", []obj{{{"clicks", 1}}, {{"clicks", 2}}}}},
			"{\n  \"id\": \"c1\",\n  \"daily\": [\n    {\"clicks\": 1},\n    {\"clicks\": 2}\n  ]\n}\n"},
		{"a string that looks like a container leaves its object as it was", obj{{"name", "Brand [exact]"}, {"clicks", 1}},
			"{\n  \"name\": \"Brand [exact]\",\n  \"clicks\": 1\n}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			indented, err := gen.JSONFile(c.in)
			require.NoError(t, err)
			got := oneLineObjects(indented)
			assert.Equal(t, c.want, got)
			assert.JSONEq(t, indented, got)
		})
	}
}
