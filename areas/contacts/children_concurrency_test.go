package contacts_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
)

// race sends the requests at once and requires each to succeed.
func race(t *testing.T, env *testenv.Env, reqs ...testenv.Request) {
	t.Helper()
	statuses := make([]int, len(reqs))
	bodies := make([]string, len(reqs))
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Go(func() {
			resp := env.Do(t, req)
			statuses[i], bodies[i] = resp.Status, string(resp.Body)
		})
	}
	wg.Wait()
	for i := range reqs {
		require.Equal(t, http.StatusOK, statuses[i], "%s %s: %s", reqs[i].Method, reqs[i].Path, bodies[i])
	}
}

// Four updates of one task at once, each changing another field: every
// change is kept, each with its own event showing the field it changed.
func TestConcurrentUpdatesOfOneTaskLoseNoField(t *testing.T) {
	env, token := newEnv(t)
	seedChildren(t, env, acctA, "c1", `[{"id":"T1","title":"Call","body":"Quote","dueDate":"2026-01-01T00:00:00Z","assignedTo":"u0"}]`, `[]`)
	store := contactstore.NewContacts(env.Table)
	path := fmt.Sprintf(taskPath, "c1", "T1")
	for round := range 3 {
		seen := eventsNow(t, env, acctA)
		title, body, due, user := fmt.Sprintf("Call %d", round), fmt.Sprintf("Quote %d", round), fmt.Sprintf("2026-02-0%dT00:00:00.000Z", round+1), fmt.Sprintf("u%d", round+1)
		put := func(field, value string) testenv.Request {
			return testenv.Request{Method: "PUT", Path: path, Token: token, Body: map[string]string{field: value}}
		}
		race(t, env, put("title", title), put("body", body), put("dueDate", due), put("assignedTo", user))

		task, err := store.GetTask(context.Background(), acctA, "c1", "T1")
		require.NoError(t, err)
		assert.Equal(t, contactstore.Task{ID: "T1", ContactID: "c1", Title: title, Body: body, DueDate: due, AssignedTo: user,
			DateAdded: task.DateAdded}, *task, "round %d: every field kept", round)

		fresh := seen.since(t, env, acctA)
		require.Len(t, fresh, 4, "round %d: one event per update", round)
		changed := map[string]int{}
		for _, ev := range fresh {
			assert.Equal(t, "TaskUpdate", ev.Type)
			fields := eventFields(t, ev)
			for field, value := range map[string]string{"title": title, "body": body, "dueDate": due, "assignedTo": user} {
				if fields[field] == value {
					changed[field]++
				}
			}
		}
		for _, field := range []string{"title", "body", "dueDate", "assignedTo"} {
			// The update that made a field's change shows it, and so does
			// every update committed after it.
			assert.GreaterOrEqual(t, changed[field], 1, "round %d: an event shows the new %s", round, field)
		}
		assert.Equal(t, 1+2+3+4, changed["title"]+changed["body"]+changed["dueDate"]+changed["assignedTo"],
			"round %d: the events are the four updates applied one after the other", round)
	}
}

// Completing a task while another request updates it: both apply, in some
// order, and the events tell that order: one TaskComplete, one TaskUpdate,
// the second of them showing the task exactly as it is stored.
func TestCompletingAndUpdatingATaskAtOnceEndConsistent(t *testing.T) {
	env, token := newEnv(t)
	store := contactstore.NewContacts(env.Table)
	for round := range 3 {
		contact := fmt.Sprintf("c%d", round)
		seedChildren(t, env, acctA, contact, `[{"id":"T1","title":"Call","dueDate":"2026-01-01T00:00:00Z"}]`, `[]`)
		seen := eventsNow(t, env, acctA)
		race(t, env,
			testenv.Request{Method: "PUT", Path: fmt.Sprintf(completedPath, contact, "T1"), Token: token, Body: `{"completed":true}`},
			testenv.Request{Method: "PUT", Path: fmt.Sprintf(taskPath, contact, "T1"), Token: token, Body: `{"title":"Call back","body":"Mornings"}`},
		)
		task, err := store.GetTask(context.Background(), acctA, contact, "T1")
		require.NoError(t, err)
		assert.True(t, task.Completed, "round %d: completed", round)
		assert.Equal(t, "Call back", task.Title, "round %d: and updated", round)
		assert.Equal(t, "Mornings", task.Body)

		fresh := seen.since(t, env, acctA)
		require.Len(t, fresh, 2, "round %d", round)
		var types []string
		final := 0
		for _, ev := range fresh {
			types = append(types, ev.Type)
			f := eventFields(t, ev)
			if f["completed"] == true && f["title"] == "Call back" && f["body"] == "Mornings" {
				final++
			}
		}
		assert.ElementsMatch(t, []string{"TaskComplete", "TaskUpdate"}, types, "round %d", round)
		assert.Equal(t, 1, final, "round %d: exactly the later event shows the task as stored", round)
	}
}

// Two updates of one note at once, each changing other fields: both are
// kept, each with its event.
func TestConcurrentUpdatesOfOneNoteLoseNoField(t *testing.T) {
	env, token := newEnv(t)
	seedChildren(t, env, acctA, "c1", `[]`, `[{"id":"N1","body":"Call her","title":"Todo"}]`)
	store := contactstore.NewContacts(env.Table)
	path := fmt.Sprintf(notePath, "c1", "N1")
	for round := range 3 {
		seen := eventsNow(t, env, acctA)
		body, title, color := fmt.Sprintf("Called her %d", round), fmt.Sprintf("Done %d", round), fmt.Sprintf("#00%d", round)
		race(t, env,
			testenv.Request{Method: "PUT", Path: path, Token: token, Body: map[string]any{"body": body, "pinned": round%2 == 0}},
			testenv.Request{Method: "PUT", Path: path, Token: token, Body: map[string]any{"title": title, "color": color}},
		)
		note, err := store.GetNote(context.Background(), acctA, "c1", "N1")
		require.NoError(t, err)
		assert.Equal(t, contactstore.Note{ID: "N1", ContactID: "c1", Body: body, Title: title, Color: color, Pinned: round%2 == 0,
			DateAdded: note.DateAdded}, *note, "round %d: both updates kept", round)
		fresh := seen.since(t, env, acctA)
		require.Len(t, fresh, 2, "round %d: one event per update", round)
		for _, ev := range fresh {
			assert.Equal(t, "NoteUpdate", ev.Type)
		}
	}
}
