package hardening

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/bizplatform/api/api"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/marketplace"
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
	return testenv.Events(t, d.Table, events.Owner{LocationID: demo.AccountAlpha})
}

// createsEachTime are the operations whose repeated request creates one
// more resource (under a new id).
var createsEachTime = map[string]bool{
	operations.CreateBrandBoard.ID(): true, operations.CreateEmailTemplate.ID(): true,
	operations.CreateTask.ID(): true, operations.CreateNote.ID(): true,
}

// readsSentAsPOST are the searches a client sends as POST: they change
// nothing and make no event.
var readsSentAsPOST = map[string]bool{
	operations.FilterUsersByEmail.ID(): true, operations.SearchContactsAdvanced.ID(): true,
}

// TestEachWriteOperationMakesOneEventOfEachKindOfChange sends each write
// operation's sample, which changes something on the demo data, twice with
// one Idempotency-Key and then once more without: the first makes one
// event of each kind of change it makes (one for most; a contact update
// that changes fields, tags and do-not-disturb makes ContactUpdate,
// ContactTagUpdate and ContactDndUpdate), each of a type its area
// registers, carrying the envelope; the replay makes none, and so does
// the repeat (which changes nothing or is refused) unless it creates
// another resource.
func TestEachWriteOperationMakesOneEventOfEachKindOfChange(t *testing.T) {
	d := newDemoEnv(t)
	registered := map[string]events.Type{}
	for _, typ := range catalog.EventTypes() {
		registered[typ.Name] = typ
	}
	seen := map[string]bool{}
	for _, op := range operations.All {
		if !op.Changes() || readsSentAsPOST[op.ID()] {
			continue
		}
		s, ok := samples.Of(op)
		require.True(t, ok, "%s has a sample", op.ID())
		t.Run(op.ID()+" makes one event of each kind of change, and its replay and repeat none", func(t *testing.T) {
			before := d.accountEvents(t)
			req := d.sampleRequest(t, s)
			req.Headers = map[string]string{idempotency.HeaderKey: "events-" + op.Name}
			first := d.Do(t, req)
			require.Equal(t, s.Status, first.Status, "body: %s", first.Body)
			made := d.accountEvents(t)
			fresh := newEvents(before, made)
			require.NotEmpty(t, fresh, "the change has its event")
			replay := d.Do(t, req)
			require.Equal(t, s.Status, replay.Status, "the replay answers as the first did: %s", replay.Body)
			after := d.accountEvents(t)
			require.Len(t, after, len(made), "none for the replay")
			req.Headers = nil
			again := d.Do(t, req)
			afterAgain := d.accountEvents(t)
			if createsEachTime[op.ID()] {
				require.Equal(t, s.Status, again.Status, "body: %s", again.Body)
				assert.Len(t, afterAgain, len(after)+len(fresh), "the repeat creates another, with its own events")
			} else {
				assert.Len(t, afterAgain, len(after), "the repeat changes nothing (answer %d) and makes no event", again.Status)
			}
			types := map[string]bool{}
			for _, ev := range fresh {
				assert.False(t, types[ev.Type], "one event of each type: %s twice", ev.Type)
				types[ev.Type] = true
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
				assert.NoError(t, webhookSchema(t, ev.Type).VisitJSON(body), "the body fits api/openapi.yaml's webhook %s", ev.Type)
				seen[ev.Type] = true
			}
		})
	}
	for name := range registered {
		if name == "UserCreate" || slices.ContainsFunc(marketplace.InstallEvents, func(typ events.Type) bool { return typ.Name == name }) {
			continue // the portal's and the CLI's, or an install's: not an operation's
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

// TestConcurrentChangesMakeOneEventPerCommittedChange races requests on one
// resource: of eight deletes of one task, or eight creations of one
// relation, exactly one succeeds and makes the one event; eight renames of
// one folder to eight names all commit, one after the other, each with its
// event. A refused request (a token without the scope) makes none.
func TestConcurrentChangesMakeOneEventPerCommittedChange(t *testing.T) {
	d := newDemoEnv(t)
	const racers = 8
	race := func(t *testing.T, req func(i int) testenv.Request) []int {
		t.Helper()
		statuses := make([]int, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() { statuses[i] = d.Do(t, req(i)).Status })
		}
		wg.Wait()
		return statuses
	}
	count := func(statuses []int, status int) int {
		n := 0
		for _, s := range statuses {
			if s == status {
				n++
			}
		}
		return n
	}
	cases := []struct {
		name     string
		op       operations.Operation
		body     func(i int) string
		wins     int
		eventsOf string
	}{
		{"eight deletes of one task: one succeeds, one event", operations.DeleteTask, nil, 1, "TaskDelete"},
		{"eight creations of one relation: one succeeds, one event", operations.CreateRelation, nil, 1, "RelationCreate"},
		{"eight renames of one folder: all commit, an event each", operations.UpdateMedia, func(i int) string {
			return fmt.Sprintf(`{"name":"Leaflets %d","altType":"account","altId":"%s"}`, i, demo.AccountAlpha)
		}, racers, "MediaFolderUpdate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := samples.Of(tc.op)
			before := d.accountEvents(t)
			statuses := race(t, func(i int) testenv.Request {
				req := d.sampleRequest(t, s)
				if tc.body != nil {
					req.Body = tc.body(i)
				}
				return req
			})
			assert.Equal(t, tc.wins, count(statuses, s.Status), "statuses: %v", statuses)
			fresh := newEvents(before, d.accountEvents(t))
			require.Len(t, fresh, tc.wins, "one event per committed change")
			for _, ev := range fresh {
				assert.Equal(t, tc.eventsOf, ev.Type)
			}
		})
	}

	t.Run("a request refused for its token's scopes makes none", func(t *testing.T) {
		s, _ := samples.Of(operations.DeleteCoupon)
		before := d.accountEvents(t)
		token, _ := d.Token(t, demo.AccountAlpha, "contacts.readonly")
		req := d.sampleRequest(t, s)
		req.Token = token
		resp := d.Do(t, req)
		require.Equal(t, http.StatusForbidden, resp.Status, "body: %s", resp.Body)
		assert.Len(t, d.accountEvents(t), len(before))
	})
}

// webhookSchema is the body schema of the event's webhook in api/openapi.yaml.
func webhookSchema(t *testing.T, name string) *openapi3.Schema {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(api.YAML())
	require.NoError(t, err)
	hook := doc.Webhooks[name]
	require.NotNil(t, hook, "the document has the webhook %s", name)
	return hook.Post.RequestBody.Value.Content.Get("application/json").Schema.Value
}

// INSTALL and UNINSTALL are written by the code exchange and the
// uninstall, not by an operation: their body fits the document's webhook
// as every operation's event does, naming the app and both owners.
func TestAnInstallsEventsFitTheirDocumentedWebhooks(t *testing.T) {
	fields := marketplace.InstallFields{AppID: "app1", VersionID: "app1", InstallType: marketplace.UserLocation, CompanyID: "co1", UserID: "usr1", CompanyName: "Hook & Sons"}
	for _, typ := range marketplace.InstallEvents {
		t.Run(typ.Name, func(t *testing.T) {
			raw, err := events.Body(typ, events.Owner{LocationID: "acct1", CompanyID: "co1"}, fields, "w1", testenv.Start)
			require.NoError(t, err)
			var body map[string]any
			require.NoError(t, json.Unmarshal(raw, &body))
			assert.Equal(t, map[string]any{"type": typ.Name, "locationId": "acct1", "companyId": "co1", "appId": "app1", "versionId": "app1",
				"installType": "Location", "userId": "usr1", "companyName": "Hook & Sons", "isWhitelabelCompany": false,
				"webhookId": "w1", "timestamp": clock.Timestamp(testenv.Start), "version": float64(1)}, body)
			assert.NoError(t, webhookSchema(t, typ.Name).VisitJSON(body))
		})
	}
}
