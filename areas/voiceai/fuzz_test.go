package voiceai_test

import (
	"testing"

	"github.com/bizplatform/api/areas/voiceai"
	"github.com/bizplatform/api/internal/fuzzapi"
	"github.com/bizplatform/api/shared/operations"
)

// Fuzz targets, one per operation, named Fuzz<operation>: fuzzed path,
// query and body through the whole pipeline to the real handler on the
// demo data (internal/fuzzapi). Seeds: the operation's sample request and
// variants of it, and testdata/fuzz/<FuzzName>/; they also run as plain
// tests in make test.

// FuzzUpdateVoiceAction is the fuzz target of PUT /voice-ai/actions/{actionId}.
func FuzzUpdateVoiceAction(f *testing.F) {
	fuzzapi.Operation(f, operations.UpdateVoiceAction, voiceai.Area)
}
