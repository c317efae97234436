package hardening

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
)

// sampleRequest is op's sample as a request of the account's token.
func (d *demoEnv) sampleRequest(t *testing.T, s samples.Request) testenv.Request {
	t.Helper()
	path := s.Path
	if s.Query != "" {
		path += "?" + s.Query
	}
	req := testenv.Request{Method: s.Op.Method, Path: path, Token: d.tokenFor(demo.AccountAlpha, s.Op.MarketplaceOnly)}
	if s.Body != "" {
		req.Body = s.Body
	}
	return req
}

// accountEvents reads the demo account's events, oldest first.
func (d *demoEnv) accountEvents(t *testing.T) []events.Recorded {
	t.Helper()
	got, err := events.List(context.Background(), d.Table, events.Owner{LocationID: demo.AccountAlpha})
	require.NoError(t, err)
	return got
}

// createsEachTime are the operations whose repeated request creates one
// more resource (under a new id).
var createsEachTime = map[string]bool{
	operations.CreateBrandBoard.ID(): true, operations.CreateEmailTemplate.ID(): true,
}

// TestEachWriteOperationMakesExactlyOneEvent sends each write operation's
// sample, which changes something on the demo data, twice with one
// Idempotency-Key and then once more without: the first makes exactly one
// event of a type its area registers, carrying the envelope; the replay
// makes none, and so does the repeat (which changes nothing or is refused)
// unless it creates another resource.
func TestEachWriteOperationMakesExactlyOneEvent(t *testing.T) {
	d := newDemoEnv(t)
	registered := map[string]events.Type{}
	for _, typ := range catalog.EventTypes() {
		registered[typ.Name] = typ
	}
	seen := map[string]bool{}
	for _, op := range operations.All {
		if !op.Changes() || op == operations.FilterUsersByEmail { // a search sent as POST
			continue
		}
		s, ok := samples.Of(op)
		require.True(t, ok, "%s has a sample", op.ID())
		t.Run(op.ID()+" makes one event, and its replay and repeat none", func(t *testing.T) {
			before := d.accountEvents(t)
			req := d.sampleRequest(t, s)
			req.Headers = map[string]string{idempotency.HeaderKey: "events-" + op.Name}
			first := d.Do(t, req)
			require.Equal(t, s.Status, first.Status, "body: %s", first.Body)
			replay := d.Do(t, req)
			require.Equal(t, s.Status, replay.Status, "the replay answers as the first did: %s", replay.Body)
			after := d.accountEvents(t)
			require.Len(t, after, len(before)+1, "exactly one event; none for the replay")
			req.Headers = nil
			again := d.Do(t, req)
			afterAgain := d.accountEvents(t)
			if createsEachTime[op.ID()] {
				require.Equal(t, s.Status, again.Status, "body: %s", again.Body)
				assert.Len(t, afterAgain, len(after)+1, "the repeat creates another, with its own event")
			} else {
				assert.Len(t, afterAgain, len(after), "the repeat changes nothing (answer %d) and makes no event", again.Status)
			}
			ev := newEvents(before, after)[0]
			typ, ok := registered[ev.Type]
			require.True(t, ok, "the event's type %s is in the registry", ev.Type)
			assert.Equal(t, typ.Scope, ev.Scope)
			var body map[string]any
			require.NoError(t, json.Unmarshal([]byte(ev.Body), &body))
			assert.Equal(t, ev.Type, body[events.FieldType])
			assert.Equal(t, demo.AccountAlpha, body[events.FieldLocationID])
			assert.Equal(t, ev.ID, body[events.FieldWebhookID])
			assert.Equal(t, ev.CreatedAt, body[events.FieldTimestamp])
			assert.EqualValues(t, typ.Version, body[events.FieldVersion])
			assert.Greater(t, len(body), 5, "the resource's fields are there too")
			seen[ev.Type] = true
		})
	}
	for name := range registered {
		if name == "UserCreate" {
			continue // the portal's and the CLI's, not an operation's
		}
		// One operation renames files and folders; the sample, a folder.
		assert.True(t, seen[name] || name == "MediaFileUpdate" && seen["MediaFolderUpdate"], "some operation makes %s", name)
	}
}

// newEvents returns the events of after that before does not hold.
func newEvents(before, after []events.Recorded) []events.Recorded {
	had := map[string]bool{}
	for _, e := range before {
		had[e.ID] = true
	}
	var out []events.Recorded
	for _, e := range after {
		if !had[e.ID] {
			out = append(out, e)
		}
	}
	return out
}
