package eventdocs_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/eventdocs"
	"github.com/bizplatform/api/shared/scopes"
)

const (
	catalogue = "../../docs/events.md"
	document  = "../../api/openapi.yaml"
	registry  = "../../" + eventdocs.RegistryFile
)

func TestTheCatalogueAndTheWebhooksAreDerivedFromTheRegistry(t *testing.T) {
	types := catalog.EventTypes()
	wantDoc := eventdocs.Markdown(types)
	wantRegistry := eventdocs.Registry(types)
	raw, err := os.ReadFile(document)
	require.NoError(t, err)
	spec := string(raw)
	head, _, _ := strings.Cut(spec, eventdocs.WebhooksBegin)
	wantSpec := strings.TrimRight(head, "\n") + "\n" + eventdocs.Webhooks(types)
	t.Run("events.Registry, which every binary reads, is the registry's types", func(t *testing.T) {
		got, err := os.ReadFile(registry)
		require.NoError(t, err)
		assert.Equal(t, wantRegistry, string(got), "run go generate ./...")
	})
	t.Run("docs/events.md is the registry's catalogue", func(t *testing.T) {
		got, err := os.ReadFile(catalogue)
		require.NoError(t, err)
		assert.Equal(t, wantDoc, string(got), "run go generate ./...")
	})
	t.Run("api/openapi.yaml ends with the registry's webhooks", func(t *testing.T) {
		assert.Equal(t, wantSpec, spec, "run go generate ./...")
	})
}

func TestEachEventTypeHasOneNameAKnownReadScopeAndAVersion(t *testing.T) {
	seen := map[string]bool{}
	for _, typ := range catalog.EventTypes() {
		t.Run(typ.Name, func(t *testing.T) {
			assert.False(t, seen[typ.Name], "named once")
			seen[typ.Name] = true
			assert.True(t, scopes.Known(typ.Scope), "%s is a scope of the vocabulary", typ.Scope)
			read, isWrite := strings.CutSuffix(typ.Scope, ".write")
			assert.True(t, strings.HasSuffix(typ.Scope, ".readonly") || isWrite && !scopes.Known(read+".readonly"),
				"the read scope, or the write scope where the vocabulary has no read scope")
			assert.GreaterOrEqual(t, typ.Version, 1)
			assert.NotEmpty(t, typ.Summary)
			assert.NotEmpty(t, eventdocs.EventSchema(typ).Properties)
		})
	}
}
