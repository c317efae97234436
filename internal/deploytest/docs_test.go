package deploytest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/demo"
)

// repoFiles lists the repository's own text files (no dependencies, build
// output or local data), relative to root.
func repoFiles(t *testing.T, root string, exts ...string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skippedDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		for _, ext := range exts {
			if strings.HasSuffix(path, ext) {
				rel, err := filepath.Rel(root, path)
				if err != nil {
					return err
				}
				out = append(out, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, out)
	return out
}

var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// A clone holds everything its docs and comments point at: relative links
// resolve, and nothing names the files the project was designed from, which
// live outside the repository.
func TestTheDocsAndCommentsPointOnlyAtWhatACloneHas(t *testing.T) {
	root := repoRoot(t)
	outside := []string{"/work/" + "shared", "../" + "shared/", "api-" + "spec", "official-" + "openapi", "style" + ".md"}
	bareDesign := regexp.MustCompile(`(^|[^/])design\.md`)
	self := filepath.ToSlash(filepath.Join("internal", "deploytest", "docs_test.go"))
	for _, rel := range repoFiles(t, root, ".md", ".go", ".yaml", ".toml", "Makefile", ".sh") {
		if rel == self {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		text := string(raw)
		for _, s := range outside {
			assert.False(t, strings.Contains(text, s), "%s names %q, outside the repository", rel, s)
		}
		if strings.HasSuffix(rel, ".go") {
			for _, m := range bareDesign.FindAllString(text, -1) {
				t.Errorf("%s mentions %q: say docs/design.md", rel, m)
			}
		}
		if !strings.HasSuffix(rel, ".md") {
			continue
		}
		for _, m := range markdownLink.FindAllStringSubmatch(text, -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			_, err := os.Stat(filepath.Join(root, filepath.Dir(rel), filepath.FromSlash(target)))
			assert.NoError(t, err, "%s links %s, which the repository lacks", rel, m[1])
		}
	}
}

// The README's facts a newcomer acts on: the Go version to install and the
// demo tokens that work on a local engine.
func TestTheReadmeStatesTheGoVersionAndTheDemoTokens(t *testing.T) {
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod)
	require.NotNil(t, m, "go.mod has a go line")
	assert.Contains(t, string(readme), "Go "+string(m[1]), "the README names the Go version go.mod requires")
	for _, tok := range demo.Tokens {
		assert.Contains(t, string(readme), tok.Value(), "the README lists the demo token %s", tok.ID)
	}
}
