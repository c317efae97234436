package payments_test

import (
	"testing"

	"github.com/bizplatform/api/areas/payments"
	"github.com/bizplatform/api/internal/fuzzapi"
	"github.com/bizplatform/api/shared/operations"
)

// Fuzz targets, one per operation, named Fuzz<operation>: fuzzed path,
// query and body through the whole pipeline to the real handler on the
// demo data (internal/fuzzapi). Seeds: the operation's sample request and
// variants of it, and testdata/fuzz/<FuzzName>/; they also run as plain
// tests in make test.

// FuzzCreateWhitelabelProvider is the fuzz target of POST /payments/integrations/provider/whitelabel.
func FuzzCreateWhitelabelProvider(f *testing.F) {
	fuzzapi.Operation(f, operations.CreateWhitelabelProvider, payments.Area)
}

// FuzzDeleteCoupon is the fuzz target of DELETE /payments/coupon.
func FuzzDeleteCoupon(f *testing.F) {
	fuzzapi.Operation(f, operations.DeleteCoupon, payments.Area)
}
