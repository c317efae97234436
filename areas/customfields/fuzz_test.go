package customfields_test

import (
	"testing"

	"github.com/bizplatform/api/areas/customfields"
	"github.com/bizplatform/api/internal/fuzzapi"
	"github.com/bizplatform/api/shared/operations"
)

// Fuzz targets, one per operation, named Fuzz<operation>: fuzzed path,
// query and body through the whole pipeline to the real handler on the
// demo data (internal/fuzzapi). Seeds: the operation's sample request and
// variants of it, and testdata/fuzz/<FuzzName>/; they also run as plain
// tests in make test.

// FuzzUpdateCustomField is the fuzz target of PUT /custom-fields/{id}.
func FuzzUpdateCustomField(f *testing.F) {
	fuzzapi.Operation(f, operations.UpdateCustomField, customfields.Area)
}
