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
			for _, pkg := range linked(t, root, target) {
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
			links := slices.ContainsFunc(linked(t, root, "./functions/"+dir), func(pkg string) bool { return strings.HasPrefix(pkg, "github.com/ory/") })
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
			for _, pkg := range linked(t, root, "./functions/"+dir) {
				assert.False(t, strings.HasPrefix(pkg, "github.com/bizplatform/api/portal"), "%s links %s", dir, pkg)
			}
		})
	}
}

// A binary that serves no API request links none of the API's HTTP
// assembly: the deliverer (a task on the table's stream), CodeDeploy's
// hook and the admin CLI build on shared/wiring, not on shared/apiserver,
// and pay for no request pipeline, router, rate limiter or API Gateway
// adapter in size and cold start. (The CLI revokes tokens through the
// rate limiter's admission state, and seeds the areas, whose routes it
// links: it uses those.)
func TestTheBinariesBehindNoAPILinkOnlyWhatTheyUse(t *testing.T) {
	root := repoRoot(t)
	const module = "github.com/bizplatform/api/"
	assembly := []string{module + "shared/apiserver", module + "shared/pipeline", module + "shared/failures", "github.com/awslabs/aws-lambda-go-api-proxy"}
	serving := append(assembly, module+"shared/app", module+"shared/route", module+"shared/ratelimit", module+"shared/idempotency", module+"shared/lambdaapp", module+"areas/")
	for target, forbidden := range map[string][]string{
		"./functions/" + catalog.Webhooks: serving,
		"./functions/pretraffic":          append(serving, module+"shared/auth", module+"shared/events", module+"shared/marketplace"),
		"./cmd/platformctl":               append(assembly, module+"shared/lambdaapp", "github.com/aws/aws-lambda-go"),
	} {
		t.Run(target+" links none of the API's assembly", func(t *testing.T) {
			for _, pkg := range linked(t, root, target) {
				for _, f := range forbidden {
					assert.False(t, pkg == f || strings.HasPrefix(pkg, strings.TrimSuffix(f, "/")+"/"), "%s links %s", target, pkg)
				}
			}
		})
	}
}

// linked are the packages target (a package pattern) links, as a Lambda
// build (lambda.norpc) links them.
func linked(t *testing.T, root, target string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-tags", "lambda.norpc", target)
	cmd.Dir = root
	out, err := cmd.Output()
	require.NoError(t, err)
	pkgs := strings.Fields(string(out))
	require.NotEmpty(t, pkgs)
	return pkgs
}
