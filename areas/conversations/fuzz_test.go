package conversations_test

import (
	"testing"

	"github.com/bizplatform/api/areas/conversations"
	"github.com/bizplatform/api/internal/fuzzapi"
)

// Fuzz targets, one per operation: fuzzed path, query and body through the
// whole pipeline to the real handler on the demo data (see tools/fuzzapi).
// Seeds: testdata/fuzz/<FuzzName>/ (the operation's sample event and
// malformed variants); they also run as plain tests in make test.

// FuzzGetMessage fuzzes GET /conversations/messages/{id}.
func FuzzGetMessage(f *testing.F) {
	fuzzapi.New(f, conversations.Area).Fuzz(f, "GET", fuzzapi.Token(0))
}
