package voiceai_test

import (
	"testing"

	"github.com/bizplatform/api/areas/voiceai"
	"github.com/bizplatform/api/internal/fuzzapi"
)

// Fuzz targets, one per operation: fuzzed path, query and body through the
// whole pipeline to the real handler on the demo data (see tools/fuzzapi).
// Seeds: testdata/fuzz/<FuzzName>/ (the operation's sample event and
// malformed variants); they also run as plain tests in make test.

// FuzzUpdateAction fuzzes PUT /voice-ai/actions/{actionId}.
func FuzzUpdateAction(f *testing.F) {
	fuzzapi.New(f, voiceai.Area).Fuzz(f, "PUT", fuzzapi.Token(0))
}
