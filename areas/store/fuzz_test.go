package store_test

import (
	"testing"

	"github.com/bizplatform/api/areas/store"
	"github.com/bizplatform/api/internal/fuzzapi"
	"github.com/bizplatform/api/shared/operations"
)

// Fuzz targets, one per operation, named Fuzz<operation>: fuzzed path,
// query and body through the whole pipeline to the real handler on the
// demo data (internal/fuzzapi). Seeds: the operation's sample request and
// variants of it, and testdata/fuzz/<FuzzName>/; they also run as plain
// tests in make test.

// FuzzUpdateShippingZone is the fuzz target of PUT /store/shipping-zone/{shippingZoneId}.
func FuzzUpdateShippingZone(f *testing.F) {
	fuzzapi.Operation(f, operations.UpdateShippingZone, store.Area)
}

// FuzzUpdateShippingRate is the fuzz target of PUT /store/shipping-zone/{shippingZoneId}/shipping-rate/{shippingRateId}.
func FuzzUpdateShippingRate(f *testing.F) {
	fuzzapi.Operation(f, operations.UpdateShippingRate, store.Area)
}
