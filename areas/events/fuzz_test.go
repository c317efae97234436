package events_test

import (
	"testing"

	"github.com/bizplatform/api/areas/events"
	"github.com/bizplatform/api/internal/fuzzapi"
	"github.com/bizplatform/api/shared/operations"
)

// FuzzListEvents is the fuzz target of GET /events: fuzzed path, query and
// body through the whole pipeline to the real handler on the demo data
// (internal/fuzzapi). Seeds: the sample request and variants of it.
func FuzzListEvents(f *testing.F) {
	fuzzapi.Operation(f, operations.ListEvents, events.Area)
}
