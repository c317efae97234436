package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
