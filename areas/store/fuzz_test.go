package store_test

import (
	"testing"

	"github.com/bizplatform/api/areas/store"
	"github.com/bizplatform/api/internal/fuzzapi"
)

// Fuzz targets, one per operation: fuzzed path, query and body through the
// whole pipeline to the real handler on the demo data (see tools/fuzzapi).
// Seeds: testdata/fuzz/<FuzzName>/ (the operation's sample event and
// malformed variants); they also run as plain tests in make test.

// FuzzUpdateShippingZone fuzzes PUT /store/shipping-zone/{shippingZoneId}.
func FuzzUpdateShippingZone(f *testing.F) {
	fuzzapi.New(f, store.Area).Fuzz(f, "PUT", fuzzapi.Token(0))
}

// FuzzUpdateShippingRate fuzzes PUT /store/shipping-zone/{shippingZoneId}/shipping-rate/{shippingRateId}.
func FuzzUpdateShippingRate(f *testing.F) {
	fuzzapi.New(f, store.Area).Fuzz(f, "PUT", fuzzapi.Token(0))
}
