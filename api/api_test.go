package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/shared/operations"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "go.mod not found above the test")
		dir = parent
	}
}

// installedBundle is the Redoc bundle npm installed; the test skips,
// saying what to run, where the Node tools are not installed.
func installedBundle(t *testing.T) string {
	t.Helper()
	bundle := api.BundleIn(repoRoot(t))
	if _, err := os.Stat(bundle); err != nil {
		t.Skipf("the Node tools are not installed (%s is missing): run make deps, or npm ci, to test the docs page with Redoc", bundle)
	}
	return bundle
}

func serve(t *testing.T, bundle string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	api.Mount(mux, api.Options{RedocBundle: bundle})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

// normalized decodes JSON text into plain values, so that documents read
// from YAML and from JSON compare equal when they say the same.
func normalized(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}

func TestTheDocumentIsServedWithoutAToken(t *testing.T) {
	srv := serve(t, api.BundleIn(repoRoot(t)))

	t.Run("the YAML is the embedded document", func(t *testing.T) {
		resp, body := get(t, srv.URL+api.YAMLPath)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "application/yaml; charset=utf-8", resp.Header.Get("Content-Type"))
		assert.Equal(t, api.YAML(), body)
		onDisk, err := os.ReadFile(filepath.Join(repoRoot(t), "api", "openapi.yaml"))
		require.NoError(t, err)
		assert.Equal(t, onDisk, body)
	})

	t.Run("the JSON parses and says exactly what the YAML says", func(t *testing.T) {
		resp, body := get(t, srv.URL+api.JSONPath)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"))
		var fromJSON map[string]any
		require.NoError(t, json.Unmarshal(body, &fromJSON))
		var fromYAML map[string]any
		require.NoError(t, yaml.Unmarshal(api.YAML(), &fromYAML))
		assert.Equal(t, normalized(t, fromYAML), normalized(t, fromJSON))
		assert.Equal(t, "3.1.0", fromJSON["openapi"])
		paths := map[string]bool{}
		for _, op := range operations.All {
			paths[op.Path] = true
		}
		assert.Len(t, fromJSON["paths"], len(paths), "one path item per path of the operations table")
	})

	t.Run("the JSON keeps the YAML's order of keys", func(t *testing.T) {
		_, body := get(t, srv.URL+api.JSONPath)
		text := string(body)
		assert.Less(t, strings.Index(text, `"openapi"`), strings.Index(text, `"info"`))
		assert.Less(t, strings.Index(text, `"/contacts/"`), strings.Index(text, `"/ad-publishing/socialads/integration"`))
	})
}

func TestThe30RenditionIsServedBesideTheDocument(t *testing.T) {
	srv := serve(t, api.BundleIn(repoRoot(t)))

	t.Run("the YAML is the committed rendition", func(t *testing.T) {
		resp, body := get(t, srv.URL+api.YAML30Path)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "application/yaml; charset=utf-8", resp.Header.Get("Content-Type"))
		onDisk, err := os.ReadFile(filepath.Join(repoRoot(t), "api", "openapi-3.0.yaml"))
		require.NoError(t, err)
		assert.Equal(t, onDisk, body)
	})

	t.Run("the JSON says what the YAML says, in OpenAPI 3.0 with the same paths", func(t *testing.T) {
		resp, body := get(t, srv.URL+api.JSON30Path)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"))
		var fromJSON, fromYAML, full map[string]any
		require.NoError(t, json.Unmarshal(body, &fromJSON))
		require.NoError(t, yaml.Unmarshal(api.YAML30(), &fromYAML))
		assert.Equal(t, normalized(t, fromYAML), normalized(t, fromJSON))
		assert.Equal(t, "3.0.3", fromJSON["openapi"])
		require.NoError(t, yaml.Unmarshal(api.YAML(), &full))
		assert.Equal(t, keys(full["paths"]), keys(fromJSON["paths"]), "every operation of the 3.1 document")
		assert.Equal(t, keys(full["webhooks"]), keys(fromJSON["x-webhooks"]), "every event, under x-webhooks")
	})
}

func keys(v any) []string {
	m, _ := v.(map[string]any)
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

var assetRef = regexp.MustCompile(`(?i)(?:src|href|spec-url)\s*=\s*"([^"]*)"`)

func TestTheDocsPageUsesOnlyThisServersAssets(t *testing.T) {
	srv := serve(t, installedBundle(t))
	resp, body := get(t, srv.URL+api.DocsPath)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'self'")
	page := string(body)
	assert.Contains(t, page, "<redoc")

	refs := assetRef.FindAllStringSubmatch(page, -1)
	require.NotEmpty(t, refs, "the page loads the document and the bundle")
	var paths []string
	for _, m := range refs {
		ref := m[1]
		if ref == "data:," {
			continue // the empty icon, which loads nothing
		}
		assert.True(t, strings.HasPrefix(ref, "/") && !strings.HasPrefix(ref, "//"), "%s is a path on this server, not another host", ref)
		paths = append(paths, ref)
	}
	assert.ElementsMatch(t, []string{api.JSONPath, api.AssetPath}, paths)

	t.Run("the Redoc bundle is served", func(t *testing.T) {
		resp, body := get(t, srv.URL+api.AssetPath)
		require.Equal(t, http.StatusOK, resp.StatusCode, "run npm ci: %s", body)
		assert.Equal(t, "text/javascript; charset=utf-8", resp.Header.Get("Content-Type"))
		assert.Greater(t, len(body), 100_000, "the standalone bundle")
		assert.NotContains(t, string(body[:200]), "<html")
		assert.NotContains(t, string(body), "https://cdn.redoc.ly", "Redoc's logo from its CDN, which the page's policy refuses")
	})
}

func TestTheBundleIsServedWithoutAnImageFromAnotherHost(t *testing.T) {
	logo := `n.createElement("img",{alt:"redocly logo",src:"%s"})`
	cdn := fmt.Sprintf(logo, "https://cdn.redoc.ly/redoc/logo-mini.svg")
	blank := fmt.Sprintf(logo, "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E")
	cases := []struct {
		name, bundle, want string
	}{
		{"Redoc's logo from its CDN becomes a blank image the policy allows", "/* redoc */" + cdn + ";x();" + cdn, "/* redoc */" + blank + ";x();" + blank},
		{"a bundle without it is served as it is", "/* redoc */ render();", "/* redoc */ render();"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bundle := filepath.Join(t.TempDir(), "redoc.standalone.js")
			require.NoError(t, os.WriteFile(bundle, []byte(tc.bundle), 0o644))
			resp, body := get(t, serve(t, bundle).URL+api.AssetPath)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, tc.want, string(body))
		})
	}
}

func TestAMissingBundleSaysHowToInstallIt(t *testing.T) {
	bundle := filepath.Join(t.TempDir(), "redoc.standalone.js")
	srv := serve(t, bundle)
	t.Run("the script's path says it", func(t *testing.T) {
		resp, body := get(t, srv.URL+api.AssetPath)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
		assert.Contains(t, string(body), "npm ci")
	})
	t.Run("the docs page says it instead of staying blank", func(t *testing.T) {
		resp, body := get(t, srv.URL+api.DocsPath)
		assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
		assert.Contains(t, string(body), "Run <code>npm ci</code> in the repository")
		assert.Contains(t, string(body), "<code>make run</code>\nand <code>make deps</code> run it when npm is installed", "what installs it, truly")
		assert.NotContains(t, string(body), "<redoc")
	})
	t.Run("once installed, the page works without a restart", func(t *testing.T) {
		require.NoError(t, os.WriteFile(bundle, []byte("/* redoc */"), 0o644))
		resp, body := get(t, srv.URL+api.DocsPath)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, string(body), "<redoc")
	})
}

func TestDocsWithASlashLeadsToTheDocs(t *testing.T) {
	srv := serve(t, api.BundleIn(repoRoot(t)))
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(srv.URL + api.DocsPath + "/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusFound, resp.StatusCode)
	assert.Equal(t, api.DocsPath, resp.Header.Get("Location"))
}
