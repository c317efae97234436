package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDriftNamesEachStaleFileAndItsFirstDifferentLine(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "same.txt"), []byte("a\nb\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "old.txt"), []byte("a\nold\n"), 0o644))
	tests := []struct {
		name string
		made File
		want string
	}{
		{"a file as the generator makes it passes", File{"same.txt", "a\nb\n"}, ""},
		{"an edited file is named with its first different line", File{"old.txt", "a\nnew\n"}, "old.txt is not what its generator makes (run go generate ./...): line 2 is\n\t\"old\"\nand should be\n\t\"new\""},
		{"a missing file is named", File{"gone.txt", "x"}, "gone.txt: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Drift(root, []File{tt.made})
			if tt.want == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Contains(t, got[0], tt.want)
		})
	}
}
