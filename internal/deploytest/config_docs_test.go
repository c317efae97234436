package deploytest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// How the code reads an environment variable: os.Getenv and LookupEnv, a
// getenv function handed in (config.Load and the commands), config's
// positiveInt(getenv, "NAME", ...), and process.env.NAME in the browser
// test.
var envRead = regexp.MustCompile(`(?:[Gg]etenv|LookupEnv)\("([A-Z][A-Z0-9_]+)"\)|positiveInt\(getenv, "([A-Z][A-Z0-9_]+)"|process\.env\.([A-Z][A-Z0-9_]+)`)

// docs/configuration.md says it lists every environment variable: each one
// the code reads is there, in backticks.
func TestTheConfigurationDocListsEveryEnvironmentVariableTheCodeReads(t *testing.T) {
	root := repoRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "configuration.md"))
	require.NoError(t, err)
	read := map[string]string{}
	for _, rel := range repoFiles(t, root, ".go", ".mjs") {
		if strings.HasSuffix(rel, "_test.go") {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		for _, m := range envRead.FindAllStringSubmatch(string(raw), -1) {
			read[m[1]+m[2]+m[3]] = rel
		}
	}
	require.Contains(t, read, "PORTAL_URL", "the scan finds the variables")
	require.Contains(t, read, "RATE_LIMIT_BURST", "the scan finds config's own reads")
	for name, rel := range read {
		assert.Contains(t, string(doc), "`"+name+"`", "%s reads %s, which docs/configuration.md does not list", rel, name)
	}
}
