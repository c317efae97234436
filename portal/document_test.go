package portal_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/api"
)

// Deployed, the portal's function publishes the API's contract: the
// synthetic probe reads it at the public URL.
func TestThePortalPublishesTheOpenAPIDocument(t *testing.T) {
	b := newSite(t).browser(t)
	doc := b.get(api.JSONPath)
	require.Equal(t, http.StatusOK, doc.status)
	assert.Contains(t, doc.header.Get("Content-Type"), "application/json")
	var body struct {
		OpenAPI string `json:"openapi"`
	}
	require.NoError(t, json.Unmarshal([]byte(doc.body), &body))
	assert.Equal(t, "3.1.0", body.OpenAPI)
	assert.NotEmpty(t, doc.header.Get("X-Request-Id"), "served like every page, with its log line")

	yaml := b.get(api.YAMLPath)
	require.Equal(t, http.StatusOK, yaml.status)
	assert.Contains(t, yaml.header.Get("Content-Type"), "application/yaml")
	assert.Equal(t, string(api.YAML()), yaml.body)
}
