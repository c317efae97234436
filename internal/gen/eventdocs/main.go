// Command eventdocs writes what the event registry (catalog.EventTypes)
// says: the catalogue docs/events.md, the webhooks at the end of
// api/openapi.yaml (after the openapi generator's part) and
// shared/events/registry.go, the registry as every binary reads it. go
// generate ./... runs it; internal/eventdocs' test catches drift.
package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/eventdocs"
	"github.com/bizplatform/api/internal/gen"
)

func main() {
	gen.Main("eventdocs", func(root string) ([]gen.File, error) {
		types := catalog.EventTypes()
		raw, err := os.ReadFile(filepath.Join(root, "api/openapi.yaml"))
		if err != nil {
			return nil, err
		}
		head, _, _ := strings.Cut(string(raw), eventdocs.WebhooksBegin)
		return []gen.File{
			{Path: "docs/events.md", Content: eventdocs.Markdown(types)},
			{Path: "api/openapi.yaml", Content: strings.TrimRight(head, "\n") + "\n" + eventdocs.Webhooks(types)},
			{Path: eventdocs.RegistryFile, Content: eventdocs.Registry(types)},
		}, nil
	}, nil)
}
