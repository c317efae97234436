package deploytest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
)

// The measuring tools (tools/: bench, load with faults, fuzz and fault
// harnesses, the Lambda Runtime API stand-in, the IAM check) and what only
// they need stay out of everything that ships or that a user runs: the
// functions, the local server and the admin CLI.
func TestNothingThatShipsLinksTheMeasuringTools(t *testing.T) {
	root := repoRoot(t)
	forbidden := []string{
		"github.com/bizplatform/api/tools/",
		"golang.org/x/tools",
	}
	for _, target := range []string{"./functions/...", "./cmd/..."} {
		t.Run("the packages of "+target+" link none of them", func(t *testing.T) {
			cmd := exec.Command("go", "list", "-deps", "-tags", "lambda.norpc", target)
			cmd.Dir = root
			out, err := cmd.Output()
			require.NoError(t, err)
			pkgs := strings.Fields(string(out))
			require.NotEmpty(t, pkgs)
			for _, pkg := range pkgs {
				for _, f := range forbidden {
					assert.False(t, strings.HasPrefix(pkg, f), "%s links %s", target, pkg)
				}
			}
		})
	}
}

// The OAuth library (fosite and what it brings: JWT, tracing) is the OAuth
// server's alone: no other function pays for it in size and cold start.
func TestOnlyTheOAuthFunctionLinksTheOAuthLibrary(t *testing.T) {
	root := repoRoot(t)
	for dir := range functionDirs() {
		t.Run(dir, func(t *testing.T) {
			cmd := exec.Command("go", "list", "-deps", "-tags", "lambda.norpc", "./functions/"+dir)
			cmd.Dir = root
			out, err := cmd.Output()
			require.NoError(t, err)
			links := slices.ContainsFunc(strings.Fields(string(out)), func(pkg string) bool { return strings.HasPrefix(pkg, "github.com/ory/") })
			assert.Equal(t, dir == catalog.OAuth, links, "functions/%s links github.com/ory/fosite only if it is the OAuth server", dir)
		})
	}
}

// The API's functions serve the API: none of them links the portal (its
// templates, sessions, password hashing), which only the portal function
// and the local tools need.
func TestNoAPIFunctionLinksThePortal(t *testing.T) {
	root := repoRoot(t)
	for dir := range functionDirs() {
		if dir == "portal" {
			continue
		}
		t.Run(dir+" links no portal package", func(t *testing.T) {
			cmd := exec.Command("go", "list", "-deps", "-tags", "lambda.norpc", "./functions/"+dir)
			cmd.Dir = root
			out, err := cmd.Output()
			require.NoError(t, err)
			for _, pkg := range strings.Fields(string(out)) {
				assert.False(t, strings.HasPrefix(pkg, "github.com/bizplatform/api/portal"), "%s links %s", dir, pkg)
			}
		})
	}
}
