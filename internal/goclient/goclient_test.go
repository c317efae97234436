package goclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/associations"
	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/conversations"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/gen"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

// module is the Go module a developer would write: go.mod with the two
// generators as tools (pinned), and the driver. The test works on a copy.
const module = "testdata/module"

// document is the rendition the generators read.
const document = "api/openapi-3.0.yaml"

// TestAGoClientGeneratedFromTheDocumentWorksAgainstTheServer generates a
// client with oapi-codegen from the 3.0 rendition, builds a program on it
// and runs it against the API on DynamoDB Local: lists with paging, a
// record, a 404's error body, a write and the 422 of writing it again, all
// read through the generated types. ogen's client of the same document
// must build too.
func TestAGoClientGeneratedFromTheDocumentWorksAgainstTheServer(t *testing.T) {
	goTool := goCommand(t)
	root, err := gen.ModuleRoot()
	require.NoError(t, err)
	doc := filepath.Join(root, filepath.FromSlash(document))
	dir := copyModule(t)

	t.Run("oapi-codegen generates a client that builds into a program", func(t *testing.T) {
		run(t, dir, goTool, "tool", "oapi-codegen", "-generate", "types,client", "-package", "platformapi", "-o", "platformapi/client.gen.go", doc)
		run(t, dir, goTool, "build", "-trimpath", "-o", "driver.bin", "./driver")
	})
	t.Run("ogen generates a client that builds", func(t *testing.T) {
		run(t, dir, goTool, "tool", "ogen", "-target", "ogenapi", "-package", "ogenapi", "-clean", doc)
		run(t, dir, goTool, "build", "-trimpath", "./ogenapi")
	})
	driver := filepath.Join(dir, "driver.bin")
	if _, err := os.Stat(driver); err != nil {
		t.Fatalf("the driver was not built: %v", err)
	}

	areas := []app.Area{contacts.Area, conversations.Area, associations.Area}
	env := testenv.New(t, areas, testenv.WithLimits(100, 10*time.Second, 200_000))
	ds, err := demo.Default()
	require.NoError(t, err)
	part := demo.Dataset{demo.AccountsPart: ds[demo.AccountsPart], "contacts": ds["contacts"], "conversations": ds["conversations"], "associations": ds["associations"]}
	_, err = demo.Load(context.Background(), env.Deps, part, areas)
	require.NoError(t, err)
	token, _ := env.Token(t, demo.AccountAlpha)

	cmd := exec.Command(driver)
	cmd.Env = append(os.Environ(), "API_URL="+env.HTTP.URL, "API_TOKEN="+token, "API_ACCOUNT="+demo.AccountAlpha)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "the driver: %s", stderr.String())

	var got struct {
		FirstPage, SecondPage       []string
		Total                       int
		NextPageURL                 string
		MessageType, MessageContact string
		MissingStatus               int
		MissingMessage              string
		CreatedStatus, AgainStatus  int
		CreatedKey, CreatedType     string
		AgainMessages               []string
		RateLimitMax                string
	}
	require.NoError(t, json.Unmarshal(out, &got), "the driver's report: %s", out)

	t.Run("a list and its next page read through the cursor it gives", func(t *testing.T) {
		assert.Len(t, got.FirstPage, 3)
		assert.Len(t, got.SecondPage, 3)
		assert.NotContains(t, got.SecondPage, got.FirstPage[0], "the second page follows the first")
		assert.Equal(t, 300, got.Total, "Alpha's demo contacts")
		assert.Contains(t, got.NextPageURL, "startAfterId=")
		assert.Equal(t, "100", got.RateLimitMax, "the rate-limit headers reach the caller")
	})
	t.Run("a record decodes into its generated type", func(t *testing.T) {
		assert.Equal(t, "TYPE_SMS", got.MessageType)
		assert.Equal(t, "demoCtcAlpha00000001", got.MessageContact)
	})
	t.Run("an error answer decodes into the status's error type", func(t *testing.T) {
		assert.Equal(t, 404, got.MissingStatus)
		assert.NotEmpty(t, got.MissingMessage)
	})
	t.Run("a write answers its record, and again the rule it breaks", func(t *testing.T) {
		assert.Equal(t, 201, got.CreatedStatus)
		assert.Equal(t, "vehicle_driver", got.CreatedKey)
		assert.Equal(t, "USER_DEFINED", got.CreatedType)
		assert.Equal(t, 422, got.AgainStatus)
		require.NotEmpty(t, got.AgainMessages)
		assert.True(t, strings.HasPrefix(got.AgainMessages[0], "key "), "the rule names its field: %q", got.AgainMessages)
	})
}

// goCommand is the go command that runs this test.
func goCommand(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: the client cannot be generated")
	}
	return path
}

// copyModule copies the developer's module into a temporary folder, where
// the clients are generated and built: nothing is written in the
// repository.
func copyModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir(module, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(module, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), raw, 0o644)
	})
	require.NoError(t, err)
	return dir
}

// run runs a go command in dir, outside this module and any workspace,
// and fails the test with its output when it fails.
func run(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %s:\n%s", filepath.Base(name), strings.Join(args, " "), out)
}
