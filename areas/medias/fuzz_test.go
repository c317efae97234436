package medias_test

import (
	"testing"

	"github.com/bizplatform/api/areas/medias"
	"github.com/bizplatform/api/internal/fuzzapi"
)

// Fuzz targets, one per operation: fuzzed path, query and body through the
// whole pipeline to the real handler on the demo data (see tools/fuzzapi).
// Seeds: testdata/fuzz/<FuzzName>/ (the operation's sample event and
// malformed variants); they also run as plain tests in make test.

// FuzzListFiles fuzzes GET /medias/files.
func FuzzListFiles(f *testing.F) {
	fuzzapi.New(f, medias.Area).Fuzz(f, "GET", fuzzapi.Token(0))
}

// FuzzRename fuzzes POST /medias/{id}.
func FuzzRename(f *testing.F) {
	fuzzapi.New(f, medias.Area).Fuzz(f, "POST", fuzzapi.Token(0))
}
