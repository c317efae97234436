package users_test

import (
	"testing"

	"github.com/bizplatform/api/areas/users"
	"github.com/bizplatform/api/internal/fuzzapi"
)

// Fuzz targets, one per operation: fuzzed path, query and body through the
// whole pipeline to the real handler on the demo data (see tools/fuzzapi).
// Seeds: testdata/fuzz/<FuzzName>/ (the operation's sample event and
// malformed variants); they also run as plain tests in make test.

// FuzzFilterUsersByEmail fuzzes POST /users/search/filter-by-email.
func FuzzFilterUsersByEmail(f *testing.F) {
	fuzzapi.New(f, users.Area).Fuzz(f, "POST", fuzzapi.Token(0))
}
