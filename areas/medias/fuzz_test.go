package medias_test

import (
	"testing"

	"github.com/bizplatform/api/areas/medias"
	"github.com/bizplatform/api/internal/fuzzapi"
	"github.com/bizplatform/api/shared/operations"
)

// Fuzz targets, one per operation, named Fuzz<operation>: fuzzed path,
// query and body through the whole pipeline to the real handler on the
// demo data (internal/fuzzapi). Seeds: the operation's sample request and
// variants of it, and testdata/fuzz/<FuzzName>/; they also run as plain
// tests in make test.

// FuzzListMediaFiles is the fuzz target of GET /medias/files.
func FuzzListMediaFiles(f *testing.F) {
	fuzzapi.Operation(f, operations.ListMediaFiles, medias.Area)
}

// FuzzUpdateMedia is the fuzz target of POST /medias/{id}.
func FuzzUpdateMedia(f *testing.F) {
	fuzzapi.Operation(f, operations.UpdateMedia, medias.Area)
}
