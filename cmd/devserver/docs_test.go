package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"

	"github.com/bizplatform/api/api"
)

func TestDevserverServesTheAPIReferenceWithoutAToken(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the local server")
	}
	// The test runs in cmd/devserver; the bundle is npm's, in the root.
	if bundle := api.BundleIn(filepath.Join("..", "..")); !fileExists(bundle) {
		t.Skipf("the Node tools are not installed (no %s): run npm ci (or make deps) to test /docs", bundle)
	}
	bin := buildDevserver(t)
	d, _ := start(t, bin, []string{
		fmt.Sprintf("PORT=%d", freePort(t)), "DYNAMODB_LOCAL_PORT=0", "DYNAMODB_LOCAL_DATA_DIR=" + testenv.DataDir(t),
		"TABLE_NAME=platform", "DYNAMODB_ENDPOINT=",
	})
	defer d.stop(t)
	for path, contentType := range map[string]string{
		api.YAMLPath:   "application/yaml; charset=utf-8",
		api.JSONPath:   "application/json; charset=utf-8",
		api.YAML30Path: "application/yaml; charset=utf-8",
		api.JSON30Path: "application/json; charset=utf-8",
		api.DocsPath:   "text/html; charset=utf-8",
		api.AssetPath:  "text/javascript; charset=utf-8",
	} {
		resp, err := http.Get(d.url + path)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.Equal(t, contentType, resp.Header.Get("Content-Type"), path)
	}
	req, err := http.NewRequest("GET", d.url+"/contacts/?locationId=demoLocAlpha00000001", nil)
	require.NoError(t, err)
	req.Header.Set("Version", "2021-07-28")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the API itself still needs a token")
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
