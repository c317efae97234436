package customfields_test

import (
	"testing"

	"github.com/bizplatform/api/areas/customfields"
	"github.com/bizplatform/api/internal/fuzzapi"
)

// Fuzz targets, one per operation: fuzzed path, query and body through the
// whole pipeline to the real handler on the demo data (see tools/fuzzapi).
// Seeds: testdata/fuzz/<FuzzName>/ (the operation's sample event and
// malformed variants); they also run as plain tests in make test.

// FuzzUpdateCustomField fuzzes PUT /custom-fields/{id}.
func FuzzUpdateCustomField(f *testing.F) {
	fuzzapi.New(f, customfields.Area).Fuzz(f, "PUT", fuzzapi.Token(0))
}
