package contacts_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
)

const (
	notesPath = "/contacts/%s/notes"
	notePath  = "/contacts/%s/notes/%s"
)

type noteAnswer struct {
	Note contactstore.Note `json:"note"`
}

func TestCreateNote(t *testing.T) {
	env, token := newEnv(t)
	seedChildren(t, env, acctA, "c1", `[]`, `[]`)
	seedChildren(t, env, acctB, "b1", `[]`, `[]`)
	store := contactstore.NewContacts(env.Table)

	t.Run("creates the note under a new id, with its event, and answers 201 with it", func(t *testing.T) {
		seen := eventsNow(t, env, acctA)
		resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(notesPath, "c1"), Token: token, Body: map[string]any{
			"userId": "u1", "body": "Prefers mornings.\nCall before 10.", "title": "Preferences", "color": "#ffaa00", "pinned": true,
		}})
		require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
		var got noteAnswer
		resp.JSON(t, &got)
		assert.Regexp(t, newIDs, got.Note.ID)
		assert.Equal(t, contactstore.Note{ID: got.Note.ID, ContactID: "c1", UserID: "u1", Body: "Prefers mornings.\nCall before 10.",
			Title: "Preferences", Color: "#ffaa00", Pinned: true, DateAdded: clock.Timestamp(env.Clock.Now())}, got.Note)
		stored, err := store.GetNote(context.Background(), acctA, "c1", got.Note.ID)
		require.NoError(t, err)
		assert.Equal(t, &got.Note, stored)
		fresh := seen.since(t, env, acctA)
		require.Len(t, fresh, 1)
		assert.Equal(t, "NoteCreate", fresh[0].Type)
		body := eventFields(t, fresh[0])
		for k, v := range map[string]any{"id": got.Note.ID, "contactId": "c1", "body": got.Note.Body, "dateAdded": got.Note.DateAdded} {
			assert.Equal(t, v, body[k], k)
		}
	})
	t.Run("a note needs only its body, and is not pinned then", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(notesPath, "c1"), Token: token, Body: `{"body":"Short."}`})
		require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
		var got noteAnswer
		resp.JSON(t, &got)
		assert.False(t, got.Note.Pinned)
		assert.Empty(t, got.Note.UserID+got.Note.Title+got.Note.Color)
	})
	for _, tc := range []struct{ name, contact string }{{"a contact that does not exist", "c404"}, {"another account's contact", "b1"}} {
		t.Run(tc.name+" is 404 and nothing is written", func(t *testing.T) {
			seen := eventsNow(t, env, acctA)
			resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(notesPath, tc.contact), Token: token, Body: `{"body":"x"}`})
			assert.Equal(t, "Contact "+tc.contact+" was not found", resp.RequireError(t, http.StatusNotFound))
			assert.Empty(t, seen.since(t, env, acctA))
			notes, err := store.ListNotes(context.Background(), acctB, "b1")
			require.NoError(t, err)
			assert.Empty(t, notes, "nothing added to Bravo's contact")
		})
	}
	t.Run("every broken rule is named in one answer", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(notesPath, "c1"), Token: token, Body: map[string]any{
			"userId": "u/1", "body": " ", "title": strings.Repeat("t", 256), "color": "orange",
		}})
		msg := resp.RequireError(t, http.StatusUnprocessableEntity)
		for _, want := range []string{"userId must be an id", "body is required", "title must be at most 255", "color must be a color as #rgb or #rrggbb"} {
			assert.Contains(t, msg, want)
		}
	})
	for _, tc := range []struct{ name, body, names string }{
		{"a body left out", `{"title":"x"}`, "body is required"},
		{"a body over 2,000 characters", `{"body":"` + strings.Repeat("b", 2001) + `"}`, "body must be at most 2000"},
		{"a colour of five digits", `{"body":"x","color":"#12345"}`, "color must be a color"},
		{"pinned as a number", `{"body":"x","pinned":1}`, "pinned must be a boolean"},
		{"a blank title", `{"body":"x","title":"  "}`, "title must not be blank"},
	} {
		t.Run(tc.name+" is refused naming it", func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(notesPath, "c1"), Token: token, Body: tc.body})
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), tc.names)
		})
	}
}

func TestListGetAndDeleteNotes(t *testing.T) {
	env, token := newEnv(t)
	seedChildren(t, env, acctA, "c1", `[]`, `[{"id":"N1","body":"Seeded","dateAdded":"2025-01-01T00:00:00Z"}]`)
	seedChildren(t, env, acctA, "c2", `[]`, `[]`)
	seedChildren(t, env, acctB, "b1", `[]`, `[{"id":"N1","body":"Bravo's"}]`)
	store := contactstore.NewContacts(env.Table)
	var made []string
	for i := range 2 {
		env.Clock.Advance(time.Minute)
		var got noteAnswer
		env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(notesPath, "c1"), Token: token, Body: fmt.Sprintf(`{"body":"Note %d"}`, i)}).JSON(t, &got)
		made = append(made, got.Note.ID)
	}

	t.Run("the list holds the contact's notes in the order they were added", func(t *testing.T) {
		var got struct {
			Notes []contactstore.Note `json:"notes"`
		}
		resp := env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(notesPath, "c1"), Token: token})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		resp.JSON(t, &got)
		var ids []string
		for _, n := range got.Notes {
			ids = append(ids, n.ID)
		}
		assert.Equal(t, append([]string{"N1"}, made...), ids)
		assert.JSONEq(t, `{"notes":[]}`, string(env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(notesPath, "c2"), Token: token}).Body))
	})
	t.Run("a note is answered as stored, its time as the API writes times", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(notePath, "c1", "N1"), Token: token})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.JSONEq(t, `{"note":{"id":"N1","contactId":"c1","body":"Seeded","pinned":false,"dateAdded":"2025-01-01T00:00:00.000Z"}}`, string(resp.Body))
	})
	for _, tc := range []struct{ name, method, path, message string }{
		{"listing a contact that does not exist", "GET", fmt.Sprintf(notesPath, "c404"), "Contact c404 was not found"},
		{"listing another account's contact", "GET", fmt.Sprintf(notesPath, "b1"), "Contact b1 was not found"},
		{"getting a note that does not exist", "GET", fmt.Sprintf(notePath, "c1", "N404"), "Note N404 of contact c1 was not found"},
		{"getting a note under another contact", "GET", fmt.Sprintf(notePath, "c2", "N1"), "Note N1 of contact c2 was not found"},
		{"getting another account's note", "GET", fmt.Sprintf(notePath, "b1", "N1"), "Note N1 of contact b1 was not found"},
		{"deleting another account's note", "DELETE", fmt.Sprintf(notePath, "b1", "N1"), "Note N1 of contact b1 was not found"},
	} {
		t.Run(tc.name+" is 404", func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: tc.method, Path: tc.path, Token: token})
			assert.Equal(t, tc.message, resp.RequireError(t, http.StatusNotFound))
		})
	}
	t.Run("a deleted note is gone, with a NoteDelete event showing it as it was; a second delete is 404", func(t *testing.T) {
		seen := eventsNow(t, env, acctA)
		resp := env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(notePath, "c1", "N1"), Token: token})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.JSONEq(t, `{"succeded":true}`, string(resp.Body))
		note, err := store.GetNote(context.Background(), acctA, "c1", "N1")
		require.NoError(t, err)
		assert.Nil(t, note)
		fresh := seen.since(t, env, acctA)
		require.Len(t, fresh, 1)
		assert.Equal(t, "NoteDelete", fresh[0].Type)
		assert.Equal(t, "Seeded", eventFields(t, fresh[0])["body"])
		env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(notePath, "c1", "N1"), Token: token}).RequireError(t, http.StatusNotFound)
		assert.Len(t, seen.since(t, env, acctA), 1, "no event for the second delete")
		bravo, err := store.GetNote(context.Background(), acctB, "b1", "N1")
		require.NoError(t, err)
		assert.NotNil(t, bravo, "Bravo's note of the same id stays")
	})
	t.Run("a delete takes no body, and malformed ids are named in a 422", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(notePath, "c1", made[0]), Token: token, Body: `{}`})
		assert.Contains(t, resp.RequireError(t, http.StatusBadRequest), "takes no request body")
		msg := env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(notePath, "c%231", "N%231"), Token: token}).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "contactId must be an id")
		assert.Contains(t, msg, "id must be an id")
	})
}

func TestUpdateNote(t *testing.T) {
	env, token := newEnv(t)
	seedChildren(t, env, acctA, "c1", `[]`, `[{"id":"N1","userId":"u1","body":"Call her","title":"Todo","color":"#abc","dateAdded":"2025-01-01T00:00:00.000Z"}]`)
	seedChildren(t, env, acctB, "b1", `[]`, `[{"id":"N1","body":"Bravo's"}]`)
	store := contactstore.NewContacts(env.Table)
	stored := func(t *testing.T) contactstore.Note {
		n, err := store.GetNote(context.Background(), acctA, "c1", "N1")
		require.NoError(t, err)
		require.NotNil(t, n)
		return *n
	}
	path := fmt.Sprintf(notePath, "c1", "N1")
	for _, tc := range []struct {
		name, body string
		want       func(*contactstore.Note)
		event      bool
	}{
		{"changing the body keeps every other field", `{"body":"Called her"}`, func(n *contactstore.Note) { n.Body = "Called her" }, true},
		{"pinning it", `{"pinned":true}`, func(n *contactstore.Note) { n.Pinned = true }, true},
		{"null removes the user, the title and the colour", `{"userId":null,"title":null,"color":null}`,
			func(n *contactstore.Note) { n.UserID, n.Title, n.Color = "", "", "" }, true},
		{"sending what is stored changes nothing and makes no event", `{"body":"Called her","pinned":true,"title":null}`, func(*contactstore.Note) {}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, seen := stored(t), eventsNow(t, env, acctA)
			resp := env.Do(t, testenv.Request{Method: "PUT", Path: path, Token: token, Body: tc.body})
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			want := before
			tc.want(&want)
			var got noteAnswer
			resp.JSON(t, &got)
			assert.Equal(t, want, got.Note)
			assert.Equal(t, want, stored(t))
			fresh := seen.since(t, env, acctA)
			if !tc.event {
				assert.Empty(t, fresh)
				return
			}
			require.Len(t, fresh, 1)
			assert.Equal(t, "NoteUpdate", fresh[0].Type)
			assert.Equal(t, want.Body, eventFields(t, fresh[0])["body"])
		})
	}
	t.Run("null is refused for the body and pinned, and a blank body too", func(t *testing.T) {
		msg := env.Do(t, testenv.Request{Method: "PUT", Path: path, Token: token, Body: `{"body":null,"pinned":null}`}).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "body must not be null")
		assert.Contains(t, msg, "pinned must not be null")
		msg = env.Do(t, testenv.Request{Method: "PUT", Path: path, Token: token, Body: `{"body":" "}`}).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "body is required")
	})
	for _, tc := range []struct{ name, path string }{
		{"a note that does not exist", fmt.Sprintf(notePath, "c1", "N404")},
		{"another account's note", fmt.Sprintf(notePath, "b1", "N1")},
	} {
		t.Run(tc.name+" is 404 and is not created", func(t *testing.T) {
			env.Do(t, testenv.Request{Method: "PUT", Path: tc.path, Token: token, Body: `{"body":"x"}`}).RequireError(t, http.StatusNotFound)
			bravo, err := store.GetNote(context.Background(), acctB, "b1", "N1")
			require.NoError(t, err)
			assert.Equal(t, "Bravo's", bravo.Body)
			missing, err := store.GetNote(context.Background(), acctA, "c1", "N404")
			require.NoError(t, err)
			assert.Nil(t, missing)
		})
	}
}

// TestNoteOperationsAuth runs the authentication and authorization matrix
// on each note operation: another account's token finds no such contact
// or note in its own account (404).
func TestNoteOperationsAuth(t *testing.T) {
	env, _ := newEnv(t)
	n := 0
	fresh := func(t *testing.T) string {
		n++
		id := fmt.Sprintf("auth%d", n)
		seedChildren(t, env, acctA, id, `[]`, `[{"id":"N","body":"x"}]`)
		return id
	}
	calls := []struct {
		op   operations.Operation
		ok   int
		call func(t *testing.T, token string) *testenv.Response
	}{
		{operations.GetAllNotes, http.StatusOK, func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(notesPath, fresh(t)), Token: token})
		}},
		{operations.CreateNote, http.StatusCreated, func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(notesPath, fresh(t)), Token: token, Body: `{"body":"y"}`})
		}},
		{operations.GetNote, http.StatusOK, func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(notePath, fresh(t), "N"), Token: token})
		}},
		{operations.UpdateNote, http.StatusOK, func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "PUT", Path: fmt.Sprintf(notePath, fresh(t), "N"), Token: token, Body: `{"body":"y"}`})
		}},
		{operations.DeleteNote, http.StatusOK, func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "DELETE", Path: fmt.Sprintf(notePath, fresh(t), "N"), Token: token})
		}},
	}
	for _, c := range calls {
		t.Run(c.op.Name, func(t *testing.T) {
			env.CheckAuth(t, testenv.AuthCheck{Op: c.op, Account: acctA, OK: c.ok, ForeignStatus: http.StatusNotFound, Call: c.call})
		})
	}
}
