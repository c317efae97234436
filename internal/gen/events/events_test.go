package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bizplatform/api/internal/gen"
	"github.com/bizplatform/api/shared/operations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed sample events are what this generator makes: edit the
// generator and run `go generate ./...`, never the files.
func TestTheCommittedFilesAreWhatTheGeneratorMakes(t *testing.T) {
	root, err := gen.ModuleRoot()
	require.NoError(t, err)
	files, err := events()
	require.NoError(t, err)
	require.NotEmpty(t, files)
	assert.Empty(t, gen.Drift(root, files))
	stale, err := staleEvents(root, files)
	require.NoError(t, err)
	assert.Empty(t, stale, "event files no operation's sample makes: run go generate ./...")
}

func TestEveryOperationHasOneSampleEventInItsAreasFolder(t *testing.T) {
	files, err := events()
	require.NoError(t, err)
	byRoute := map[string][]string{}
	for _, f := range files {
		if f.Path == "events/env.json" || strings.HasPrefix(f.Path, "events/portal/") {
			continue // sam local's environment; the portal's page event
		}
		var ev struct {
			RouteKey string `json:"routeKey"`
		}
		require.NoError(t, json.Unmarshal([]byte(f.Content), &ev), f.Path)
		byRoute[ev.RouteKey] = append(byRoute[ev.RouteKey], f.Path)
	}
	for _, op := range operations.All {
		require.Len(t, byRoute[op.ID()], 1, "%s has one sample event", op.ID())
		assert.True(t, strings.HasPrefix(byRoute[op.ID()][0], "events/"+op.Area+"/"), "%s's event is in its area's folder", op.ID())
	}
	assert.Len(t, byRoute, len(operations.All), "no event names a route the operations table does not have")
}
