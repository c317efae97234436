package contacts_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/internal/fuzzapi"
	"github.com/bizplatform/api/shared/operations"
)

// Fuzz targets, one per operation, named Fuzz<operation>: fuzzed path,
// query and body through the whole pipeline to the real handler on the
// demo data (internal/fuzzapi). Seeds: the operation's sample request and
// variants of it, and testdata/fuzz/<FuzzName>/; they also run as plain
// tests in make test.

// FuzzListContacts is the fuzz target of GET /contacts/.
func FuzzListContacts(f *testing.F) {
	fuzzapi.Operation(f, operations.ListContacts, contacts.Area)
}

// FuzzDeleteTask is the fuzz target of DELETE /contacts/{contactId}/tasks/{taskId}.
func FuzzDeleteTask(f *testing.F) {
	fuzzapi.Operation(f, operations.DeleteTask, contacts.Area)
}

// FuzzGetAllTasks is the fuzz target of GET /contacts/{contactId}/tasks.
func FuzzGetAllTasks(f *testing.F) {
	fuzzapi.Operation(f, operations.GetAllTasks, contacts.Area)
}

// FuzzCreateTask is the fuzz target of POST /contacts/{contactId}/tasks.
func FuzzCreateTask(f *testing.F) {
	fuzzapi.Operation(f, operations.CreateTask, contacts.Area)
}

// FuzzGetTask is the fuzz target of GET /contacts/{contactId}/tasks/{taskId}.
func FuzzGetTask(f *testing.F) {
	fuzzapi.Operation(f, operations.GetTask, contacts.Area)
}

// FuzzUpdateTask is the fuzz target of PUT /contacts/{contactId}/tasks/{taskId}.
func FuzzUpdateTask(f *testing.F) {
	fuzzapi.Operation(f, operations.UpdateTask, contacts.Area)
}

// FuzzUpdateTaskCompleted is the fuzz target of PUT /contacts/{contactId}/tasks/{taskId}/completed.
func FuzzUpdateTaskCompleted(f *testing.F) {
	fuzzapi.Operation(f, operations.UpdateTaskCompleted, contacts.Area)
}

// FuzzGetAllNotes is the fuzz target of GET /contacts/{contactId}/notes.
func FuzzGetAllNotes(f *testing.F) {
	fuzzapi.Operation(f, operations.GetAllNotes, contacts.Area)
}

// FuzzCreateNote is the fuzz target of POST /contacts/{contactId}/notes.
func FuzzCreateNote(f *testing.F) {
	fuzzapi.Operation(f, operations.CreateNote, contacts.Area)
}

// FuzzGetNote is the fuzz target of GET /contacts/{contactId}/notes/{id}.
func FuzzGetNote(f *testing.F) {
	fuzzapi.Operation(f, operations.GetNote, contacts.Area)
}

// FuzzUpdateNote is the fuzz target of PUT /contacts/{contactId}/notes/{id}.
func FuzzUpdateNote(f *testing.F) {
	fuzzapi.Operation(f, operations.UpdateNote, contacts.Area)
}

// FuzzDeleteNote is the fuzz target of DELETE /contacts/{contactId}/notes/{id}.
func FuzzDeleteNote(f *testing.F) {
	fuzzapi.Operation(f, operations.DeleteNote, contacts.Area)
}

// FuzzContactsCursor fuzzes the list's cursor (startAfter, startAfterId)
// and page size: every answer is sound, and when a page has a next one,
// following meta.nextPageUrl answers 200 with contacts that come strictly
// after the page (never one of its contacts again).
func FuzzContactsCursor(f *testing.F) {
	env := fuzzapi.New(f, contacts.Area)
	token := fuzzapi.Token(0)
	f.Fuzz(func(t *testing.T, startAfter, startAfterID, limit string) {
		q := url.Values{"locationId": {"demoLocAlpha00000001"}}
		for k, v := range map[string]string{"startAfter": startAfter, "startAfterId": startAfterID, "limit": limit} {
			if v != "" {
				q.Set(k, v)
			}
		}
		status, raw := env.Check(t, "GET", token, "/contacts/", q.Encode(), nil)
		if status != http.StatusOK {
			return
		}
		var page struct {
			Contacts []struct {
				ID string `json:"id"`
			} `json:"contacts"`
			Meta struct {
				NextPageURL *string `json:"nextPageUrl"`
			} `json:"meta"`
		}
		require.NoError(t, json.Unmarshal(raw, &page))
		if page.Meta.NextPageURL == nil {
			return
		}
		next, err := url.Parse(*page.Meta.NextPageURL)
		require.NoError(t, err)
		status, raw = env.Check(t, "GET", token, next.Path, next.RawQuery, nil)
		require.Equal(t, http.StatusOK, status, "following nextPageUrl %s: %s", *page.Meta.NextPageURL, raw)
		seen := map[string]bool{}
		for _, c := range page.Contacts {
			seen[c.ID] = true
		}
		var after struct {
			Contacts []struct {
				ID string `json:"id"`
			} `json:"contacts"`
		}
		require.NoError(t, json.Unmarshal(raw, &after))
		for _, c := range after.Contacts {
			assert.False(t, seen[c.ID], "contact %s repeats on the next page", c.ID)
		}
	})
}
