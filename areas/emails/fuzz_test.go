package emails_test

import (
	"testing"

	"github.com/bizplatform/api/areas/emails"
	"github.com/bizplatform/api/internal/fuzzapi"
)

// Fuzz targets, one per operation: fuzzed path, query and body through the
// whole pipeline to the real handler on the demo data (see tools/fuzzapi).
// Seeds: testdata/fuzz/<FuzzName>/ (the operation's sample event and
// malformed variants); they also run as plain tests in make test.

// FuzzCreateTemplate fuzzes POST /emails/builder.
func FuzzCreateTemplate(f *testing.F) {
	fuzzapi.New(f, emails.Area).Fuzz(f, "POST", fuzzapi.Token(0))
}
