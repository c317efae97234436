package adpublishing_test

import (
	"testing"

	"github.com/bizplatform/api/areas/adpublishing"
	"github.com/bizplatform/api/internal/fuzzapi"
)

// Fuzz targets, one per operation: fuzzed path, query and body through the
// whole pipeline to the real handler on the demo data (see tools/fuzzapi).
// Seeds: testdata/fuzz/<FuzzName>/ (the operation's sample event and
// malformed variants); they also run as plain tests in make test.

// FuzzReportingList fuzzes GET /ad-publishing/searchads/reporting/list.
func FuzzReportingList(f *testing.F) {
	fuzzapi.New(f, adpublishing.Area).Fuzz(f, "GET", fuzzapi.Token(0))
}

// FuzzDeleteIntegration fuzzes DELETE /ad-publishing/socialads/integration.
func FuzzDeleteIntegration(f *testing.F) {
	fuzzapi.New(f, adpublishing.Area).Fuzz(f, "DELETE", fuzzapi.Token(0))
}
