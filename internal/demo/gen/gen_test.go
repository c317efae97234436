package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bizplatform/api/shared/operations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed demo data and sample events are what the generator makes:
// edit the generator and run `go generate ./internal/demo`, never the files.
func TestTheCommittedFilesAreWhatTheGeneratorMakes(t *testing.T) {
	root, err := moduleRoot()
	require.NoError(t, err)
	files, err := generate()
	require.NoError(t, err)
	for _, f := range files {
		t.Run(f.path, func(t *testing.T) {
			committed, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.path)))
			require.NoError(t, err, "run go generate ./internal/demo")
			if diff := firstDifference(string(committed), f.content); diff != "" {
				t.Errorf("%s is not what the generator makes (run go generate ./internal/demo): %s", f.path, diff)
			}
		})
	}
	stale, err := staleEvents(root, files)
	require.NoError(t, err)
	assert.Empty(t, stale, "event files no operation's sample makes: run go generate ./internal/demo")
}

// firstDifference names the first line where committed and made differ, or
// returns "" when they are the same.
func firstDifference(committed, made string) string {
	if committed == made {
		return ""
	}
	a, b := strings.Split(committed, "\n"), strings.Split(made, "\n")
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y || i >= len(a) || i >= len(b) {
			return fmt.Sprintf("line %d is\n\t%q\nand should be\n\t%q", i+1, x, y)
		}
	}
	return "they differ"
}

func TestEveryOperationHasOneSampleEventInItsAreasFolder(t *testing.T) {
	files, err := events()
	require.NoError(t, err)
	byRoute := map[string][]string{}
	for _, f := range files {
		if f.path == "events/env.json" || strings.HasPrefix(f.path, "events/portal/") {
			continue // sam local's environment; the portal's page event
		}
		var ev struct {
			RouteKey string `json:"routeKey"`
		}
		require.NoError(t, json.Unmarshal([]byte(f.content), &ev), f.path)
		byRoute[ev.RouteKey] = append(byRoute[ev.RouteKey], f.path)
	}
	for _, op := range operations.All {
		require.Len(t, byRoute[op.ID()], 1, "%s has one sample event", op.ID())
		assert.True(t, strings.HasPrefix(byRoute[op.ID()][0], "events/"+op.Area+"/"), "%s's event is in its area's folder", op.ID())
	}
	assert.Len(t, byRoute, len(operations.All), "no event names a route the operations table does not have")
}

func TestPathValuesFillTheRoutesNamesInOrder(t *testing.T) {
	for _, c := range []struct {
		name, route string
		values      []string
		want        string
		params      obj
		err         bool
	}{
		{"a route without names takes no value", "/payments/coupon", nil, "/payments/coupon", nil, false},
		{"two names take two values in order", "/contacts/{contactId}/tasks/{taskId}", []string{"c1", "t1"},
			"/contacts/c1/tasks/t1", obj{{"contactId", "c1"}, {"taskId", "t1"}}, false},
		{"a missing value is an error", "/contacts/{contactId}/tasks/{taskId}", []string{"c1"}, "", nil, true},
		{"a value too many is an error", "/medias/{id}", []string{"a", "b"}, "", nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path, params, err := fillPath(c.route, c.values)
			if c.err {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, path)
			assert.Equal(t, c.params, params)
		})
	}
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
			indented, err := jsonFile(c.in)
			require.NoError(t, err)
			got := oneLineObjects(indented)
			assert.Equal(t, c.want, got)
			assert.JSONEq(t, indented, got)
		})
	}
}
