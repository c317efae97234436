package payments_test

import (
	"testing"

	"github.com/bizplatform/api/areas/payments"
	"github.com/bizplatform/api/internal/fuzzapi"
)

// Fuzz targets, one per operation: fuzzed path, query and body through the
// whole pipeline to the real handler on the demo data (see tools/fuzzapi).
// Seeds: testdata/fuzz/<FuzzName>/ (the operation's sample event and
// malformed variants); they also run as plain tests in make test.

// FuzzCreateWhitelabelProvider fuzzes POST /payments/integrations/provider/whitelabel.
func FuzzCreateWhitelabelProvider(f *testing.F) {
	fuzzapi.New(f, payments.Area).Fuzz(f, "POST", fuzzapi.Token(1))
}

// FuzzDeleteCoupon fuzzes DELETE /payments/coupon.
func FuzzDeleteCoupon(f *testing.F) {
	fuzzapi.New(f, payments.Area).Fuzz(f, "DELETE", fuzzapi.Token(0))
}
