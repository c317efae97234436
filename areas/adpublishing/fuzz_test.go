package adpublishing_test

import (
	"testing"

	"github.com/bizplatform/api/areas/adpublishing"
	"github.com/bizplatform/api/internal/fuzzapi"
	"github.com/bizplatform/api/shared/operations"
)

// Fuzz targets, one per operation, named Fuzz<operation>: fuzzed path,
// query and body through the whole pipeline to the real handler on the
// demo data (internal/fuzzapi). Seeds: the operation's sample request and
// variants of it, and testdata/fuzz/<FuzzName>/; they also run as plain
// tests in make test.

// FuzzSearchAdsReportingList is the fuzz target of GET /ad-publishing/searchads/reporting/list.
func FuzzSearchAdsReportingList(f *testing.F) {
	fuzzapi.Operation(f, operations.SearchAdsReportingList, adpublishing.Area)
}

// FuzzDeleteSocialAdsIntegration is the fuzz target of DELETE /ad-publishing/socialads/integration.
func FuzzDeleteSocialAdsIntegration(f *testing.F) {
	fuzzapi.Operation(f, operations.DeleteSocialAdsIntegration, adpublishing.Area)
}
