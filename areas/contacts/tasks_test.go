package contacts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
)

const (
	tasksPath     = "/contacts/%s/tasks"
	completedPath = "/contacts/%s/tasks/%s/completed"
)

// newIDs are the ids the API gives new tasks and notes: the public API's
// 20 letters and digits.
var newIDs = regexp.MustCompile(`^[A-Za-z0-9]{20}$`)

type taskAnswer struct {
	Task contactstore.Task `json:"task"`
}

// seedChildren seeds one contact of account with the tasks and notes given
// as JSON lists.
func seedChildren(t *testing.T, env *testenv.Env, account, contactID, tasks, notes string) {
	t.Helper()
	env.Seed(t, contacts.Area, fmt.Sprintf(`{"contacts":[{"id":%q,"locationId":%q,"dateAdded":%q,"tasks":%s,"notes":%s}]}`,
		contactID, account, epoch, tasks, notes))
}

// eventSet is what an account's events were at some point, to tell the
// events made since (events of one instant are ordered by their random id,
// not by when they were made).
type eventSet map[string]bool

func accountEvents(t *testing.T, env *testenv.Env, account string) []events.Recorded {
	t.Helper()
	all := testenv.Events(t, env.Table, events.Owner{LocationID: account})
	return all
}

func eventsNow(t *testing.T, env *testenv.Env, account string) eventSet {
	t.Helper()
	seen := eventSet{}
	for _, ev := range accountEvents(t, env, account) {
		seen[ev.ID] = true
	}
	return seen
}

// since returns the account's events that seen does not hold.
func (seen eventSet) since(t *testing.T, env *testenv.Env, account string) []events.Recorded {
	t.Helper()
	var fresh []events.Recorded
	for _, ev := range accountEvents(t, env, account) {
		if !seen[ev.ID] {
			fresh = append(fresh, ev)
		}
	}
	return fresh
}

// eventFields decodes an event's body.
func eventFields(t *testing.T, ev events.Recorded) map[string]any {
	t.Helper()
	var body map[string]any
	require.NoError(t, json.Unmarshal([]byte(ev.Body), &body))
	return body
}

func TestCreateTask(t *testing.T) {
	env, token := newEnv(t)
	seedChildren(t, env, acctA, "c1", `[]`, `[]`)
	seedChildren(t, env, acctB, "b1", `[]`, `[]`)
	store := contactstore.NewContacts(env.Table)
	ctx := context.Background()

	t.Run("creates the task under a new id, with its event, and answers 201 with it", func(t *testing.T) {
		seen := eventsNow(t, env, acctA)
		resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(tasksPath, "c1"), Token: token, Body: map[string]any{
			"title": "Call back", "body": "About the\nquote", "dueDate": "2026-12-01T10:30:00+01:00", "completed": false, "assignedTo": "user_1",
		}})
		require.Equal(t, http.StatusCreated, resp.Status, "body: %s", resp.Body)
		var got taskAnswer
		resp.JSON(t, &got)
		assert.Regexp(t, newIDs, got.Task.ID)
		assert.Equal(t, contactstore.Task{
			ID: got.Task.ID, ContactID: "c1", Title: "Call back", Body: "About the\nquote", DueDate: "2026-12-01T09:30:00.000Z",
			AssignedTo: "user_1", DateAdded: clock.Timestamp(env.Clock.Now()),
		}, got.Task, "the due date in UTC with milliseconds")

		stored, err := store.GetTask(ctx, acctA, "c1", got.Task.ID)
		require.NoError(t, err)
		assert.Equal(t, &got.Task, stored)

		fresh := seen.since(t, env, acctA)
		require.Len(t, fresh, 1)
		assert.Equal(t, "TaskCreate", fresh[0].Type)
		body := eventFields(t, fresh[0])
		for k, v := range map[string]any{"id": got.Task.ID, "contactId": "c1", "title": "Call back", "dueDate": "2026-12-01T09:30:00.000Z",
			"assignedTo": "user_1", "dateAdded": got.Task.DateAdded, "locationId": acctA} {
			assert.Equal(t, v, body[k], k)
		}
	})
	t.Run("a completed task may be created, and each create makes another task", func(t *testing.T) {
		req := testenv.Request{Method: "POST", Path: fmt.Sprintf(tasksPath, "c1"), Token: token,
			Body: `{"title":"Done already","dueDate":"2026-12-01T09:00:00Z","completed":true}`}
		var first, second taskAnswer
		env.Do(t, req).JSON(t, &first)
		env.Do(t, req).JSON(t, &second)
		assert.True(t, first.Task.Completed)
		assert.NotEqual(t, first.Task.ID, second.Task.ID)
		assert.Empty(t, first.Task.Body, "no body: none stored")
	})
	for _, tc := range []struct{ name, contact string }{
		{"a contact that does not exist", "c404"},
		{"another account's contact", "b1"},
	} {
		t.Run(tc.name+" is 404 and nothing is written", func(t *testing.T) {
			seen := eventsNow(t, env, acctA)
			resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(tasksPath, tc.contact), Token: token,
				Body: `{"title":"Call","dueDate":"2026-12-01T09:00:00Z","completed":false}`})
			assert.Equal(t, "Contact "+tc.contact+" was not found", resp.RequireError(t, http.StatusNotFound))
			assert.Empty(t, seen.since(t, env, acctA))
			for _, account := range []string{acctA, acctB} {
				list, err := store.ListTasks(ctx, account, tc.contact)
				if err == nil {
					assert.Empty(t, list, "no task under %s of %s", tc.contact, account)
				}
			}
		})
	}
	t.Run("every broken rule is named in one answer, and nothing is written", func(t *testing.T) {
		seen := eventsNow(t, env, acctA)
		resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(tasksPath, "c1"), Token: token, Body: map[string]any{
			"title": " ", "body": strings.Repeat("x", 2001), "dueDate": "next Monday", "assignedTo": "user#1",
		}})
		msg := resp.RequireError(t, http.StatusUnprocessableEntity)
		for _, want := range []string{"title is required", "body must be at most 2000 characters long",
			"dueDate must be an RFC 3339 date and time", "completed is required", "assignedTo must be an id"} {
			assert.Contains(t, msg, want)
		}
		assert.Empty(t, seen.since(t, env, acctA))
	})
	for _, tc := range []struct {
		name, body, names string
	}{
		{"a title with a control character", `{"title":"Call\u0007","dueDate":"2026-12-01T09:00:00Z","completed":false}`, "title must not contain control characters"},
		{"a title over 255 characters", `{"title":"` + strings.Repeat("t", 256) + `","dueDate":"2026-12-01T09:00:00Z","completed":false}`, "title must be at most 255"},
		{"a title of the wrong type", `{"title":7,"dueDate":"2026-12-01T09:00:00Z","completed":false}`, "title must be a string"},
		{"a due date without its time", `{"title":"Call","dueDate":"2026-12-01","completed":false}`, "dueDate must be an RFC 3339"},
		{"completed as a string", `{"title":"Call","dueDate":"2026-12-01T09:00:00Z","completed":"no"}`, "completed must be a boolean"},
		{"an unknown property", `{"title":"Call","dueDate":"2026-12-01T09:00:00Z","completed":false,"status":"open"}`, "property status should not exist"},
		{"a body with a right-to-left override", `{"title":"Call","body":"a\u202eb","dueDate":"2026-12-01T09:00:00Z","completed":false}`, "body must not contain a text-direction control"},
	} {
		t.Run(tc.name+" is refused naming it", func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(tasksPath, "c1"), Token: token, Body: tc.body})
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), tc.names)
		})
	}
	t.Run("a malformed contact id is named with the body's broken rules", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(tasksPath, "c%231"), Token: token, Body: `{"title":"Call"}`})
		msg := resp.RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "contactId must be an id")
		assert.Contains(t, msg, "dueDate is required")
	})
}

func TestListAndGetTasks(t *testing.T) {
	env, token := newEnv(t)
	seedChildren(t, env, acctA, "c1", `[{"id":"T1","title":"Seeded","dueDate":"2026-01-01T00:00:00Z","dateAdded":"2025-01-01T00:00:00Z"}]`, `[]`)
	seedChildren(t, env, acctA, "c2", `[]`, `[]`)
	seedChildren(t, env, acctB, "b1", `[{"id":"T1","title":"Bravo's"}]`, `[]`)
	var made []string
	for i := range 3 {
		env.Clock.Advance(time.Minute)
		resp := env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(tasksPath, "c1"), Token: token,
			Body: fmt.Sprintf(`{"title":"Task %d","dueDate":"2026-12-01T09:00:00Z","completed":false}`, i)})
		var got taskAnswer
		resp.JSON(t, &got)
		made = append(made, got.Task.ID)
	}

	t.Run("the list holds the contact's tasks in the order they were added", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(tasksPath, "c1"), Token: token})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		var got struct {
			Tasks []contactstore.Task `json:"tasks"`
		}
		resp.JSON(t, &got)
		var ids []string
		for _, task := range got.Tasks {
			ids = append(ids, task.ID)
		}
		assert.Equal(t, append([]string{"T1"}, made...), ids)
	})
	t.Run("a contact without tasks lists none", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(tasksPath, "c2"), Token: token})
		require.Equal(t, http.StatusOK, resp.Status)
		assert.JSONEq(t, `{"tasks":[]}`, string(resp.Body))
	})
	for _, tc := range []struct{ name, contact string }{{"a contact that does not exist", "c404"}, {"another account's contact", "b1"}} {
		t.Run("the list of "+tc.name+" is 404", func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(tasksPath, tc.contact), Token: token})
			assert.Equal(t, "Contact "+tc.contact+" was not found", resp.RequireError(t, http.StatusNotFound))
		})
	}
	t.Run("a task is answered as stored", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(taskPath, "c1", "T1"), Token: token})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.JSONEq(t, `{"task":{"id":"T1","contactId":"c1","title":"Seeded","dueDate":"2026-01-01T00:00:00.000Z","completed":false,"dateAdded":"2025-01-01T00:00:00.000Z"}}`, string(resp.Body),
			"the seed's times as the API writes them")
	})
	for _, tc := range []struct{ name, contact, task string }{
		{"a task that does not exist", "c1", "T404"},
		{"a task under another contact", "c2", "T1"},
		{"another account's task", "b1", "T1"},
	} {
		t.Run(tc.name+" is 404", func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(taskPath, tc.contact, tc.task), Token: token})
			assert.Equal(t, fmt.Sprintf("Task %s of contact %s was not found", tc.task, tc.contact), resp.RequireError(t, http.StatusNotFound))
		})
	}
	t.Run("malformed ids are named in one 400", func(t *testing.T) {
		msg := env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(taskPath, "c%231", "T%231"), Token: token}).RequireError(t, http.StatusBadRequest)
		assert.Contains(t, msg, "contactId must be an id")
		assert.Contains(t, msg, "taskId must be an id")
		msg = env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(tasksPath, strings.Repeat("c", 65)), Token: token}).RequireError(t, http.StatusBadRequest)
		assert.Contains(t, msg, "contactId must be an id")
	})
}

func TestUpdateTask(t *testing.T) {
	env, token := newEnv(t)
	seedChildren(t, env, acctA, "c1", `[{"id":"T1","title":"Call","body":"About the quote","dueDate":"2026-01-01T00:00:00.000Z","assignedTo":"u1","dateAdded":"2025-01-01T00:00:00.000Z"}]`, `[]`)
	seedChildren(t, env, acctB, "b1", `[{"id":"T1","title":"Bravo's"}]`, `[]`)
	store := contactstore.NewContacts(env.Table)
	put := func(t *testing.T, path, body string) *testenv.Response {
		return env.Do(t, testenv.Request{Method: "PUT", Path: path, Token: token, Body: body})
	}
	task1 := fmt.Sprintf(taskPath, "c1", "T1")
	stored := func(t *testing.T) contactstore.Task {
		task, err := store.GetTask(context.Background(), acctA, "c1", "T1")
		require.NoError(t, err)
		require.NotNil(t, task)
		return *task
	}

	cases := []struct {
		name, body string
		want       func(*contactstore.Task)
		event      string // "": none
	}{
		{"changing the title keeps every other field", `{"title":"Call back"}`,
			func(t *contactstore.Task) { t.Title = "Call back" }, "TaskUpdate"},
		{"a due date is stored in UTC with milliseconds", `{"dueDate":"2026-02-01T08:00:00-05:00"}`,
			func(t *contactstore.Task) { t.DueDate = "2026-02-01T13:00:00.000Z" }, "TaskUpdate"},
		{"null removes the body and the assignee", `{"body":null,"assignedTo":null}`,
			func(t *contactstore.Task) { t.Body, t.AssignedTo = "", "" }, "TaskUpdate"},
		{"sending what is stored changes nothing and makes no event", `{"title":"Call back","body":null}`,
			func(*contactstore.Task) {}, ""},
		{"an empty body changes nothing", `{}`, func(*contactstore.Task) {}, ""},
		{"completing it makes TaskComplete", `{"completed":true,"assignedTo":"u2"}`,
			func(t *contactstore.Task) { t.Completed, t.AssignedTo = true, "u2" }, "TaskComplete"},
		{"reopening it is a TaskUpdate", `{"completed":false}`,
			func(t *contactstore.Task) { t.Completed = false }, "TaskUpdate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, seen := stored(t), eventsNow(t, env, acctA)
			resp := put(t, task1, tc.body)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			want := before
			tc.want(&want)
			var got taskAnswer
			resp.JSON(t, &got)
			assert.Equal(t, want, got.Task, "the answer")
			assert.Equal(t, want, stored(t), "what is stored")
			fresh := seen.since(t, env, acctA)
			if tc.event == "" {
				assert.Empty(t, fresh)
				return
			}
			require.Len(t, fresh, 1)
			assert.Equal(t, tc.event, fresh[0].Type)
			assert.Equal(t, want.Title, eventFields(t, fresh[0])["title"], "the event shows the task as changed")
		})
	}
	t.Run("null is refused for the fields a task must have", func(t *testing.T) {
		msg := put(t, task1, `{"title":null,"dueDate":null,"completed":null}`).RequireError(t, http.StatusUnprocessableEntity)
		for _, f := range []string{"title", "dueDate", "completed"} {
			assert.Contains(t, msg, f+" must not be null")
		}
	})
	t.Run("every broken rule is named and nothing changes", func(t *testing.T) {
		before := stored(t)
		msg := put(t, task1, `{"title":"","body":7,"assignedTo":"a b"}`).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "body must be a string")
		msg = put(t, task1, `{"title":"","dueDate":"2026-13-01T00:00:00Z","assignedTo":"a b"}`).RequireError(t, http.StatusUnprocessableEntity)
		for _, want := range []string{"title must not be blank", "dueDate must be an RFC 3339", "assignedTo must be an id"} {
			assert.Contains(t, msg, want)
		}
		assert.Equal(t, before, stored(t))
	})
	for _, tc := range []struct{ name, path string }{
		{"a task that does not exist", fmt.Sprintf(taskPath, "c1", "T404")},
		{"another account's task", fmt.Sprintf(taskPath, "b1", "T1")},
		{"a task that does not exist, through completed", fmt.Sprintf(completedPath, "c1", "T404")},
		{"another account's task, through completed", fmt.Sprintf(completedPath, "b1", "T1")},
	} {
		t.Run(tc.name+" is 404 and is not created", func(t *testing.T) {
			body := `{"title":"x"}`
			if strings.HasSuffix(tc.path, "/completed") {
				body = `{"completed":true}`
			}
			put(t, tc.path, body).RequireError(t, http.StatusNotFound)
			task, err := store.GetTask(context.Background(), acctA, "c1", "T404")
			require.NoError(t, err)
			assert.Nil(t, task)
			bravo, err := store.GetTask(context.Background(), acctB, "b1", "T1")
			require.NoError(t, err)
			assert.Equal(t, "Bravo's", bravo.Title)
			assert.False(t, bravo.Completed)
		})
	}
}

func TestUpdateTaskCompleted(t *testing.T) {
	env, token := newEnv(t)
	seedChildren(t, env, acctA, "c1", `[{"id":"T1","title":"Call","dueDate":"2026-01-01T00:00:00.000Z"}]`, `[]`)
	path := fmt.Sprintf(completedPath, "c1", "T1")
	for _, tc := range []struct {
		name, body string
		completed  bool
		event      string
	}{
		{"completing a task makes TaskComplete", `{"completed":true}`, true, "TaskComplete"},
		{"completing it again changes nothing and makes no event", `{"completed":true}`, true, ""},
		{"reopening it makes TaskUpdate", `{"completed":false}`, false, "TaskUpdate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := eventsNow(t, env, acctA)
			resp := env.Do(t, testenv.Request{Method: "PUT", Path: path, Token: token, Body: tc.body})
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			var got taskAnswer
			resp.JSON(t, &got)
			assert.Equal(t, tc.completed, got.Task.Completed)
			assert.Equal(t, "Call", got.Task.Title)
			fresh := seen.since(t, env, acctA)
			if tc.event == "" {
				assert.Empty(t, fresh)
				return
			}
			require.Len(t, fresh, 1)
			assert.Equal(t, tc.event, fresh[0].Type)
			assert.Equal(t, tc.completed, eventFields(t, fresh[0])["completed"])
		})
	}
	for _, tc := range []struct{ name, body, names string }{
		{"completed left out", `{}`, "completed is required"},
		{"completed as null", `{"completed":null}`, "completed is required"},
		{"completed as a string", `{"completed":"true"}`, "completed must be a boolean"},
		{"another property", `{"completed":true,"title":"x"}`, "property title should not exist"},
	} {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "PUT", Path: path, Token: token, Body: tc.body})
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), tc.names)
		})
	}
}

// TestTaskOperationsAuth runs the authentication and authorization matrix
// on each task operation: another account's token finds no such contact
// or task in its own account (404).
func TestTaskOperationsAuth(t *testing.T) {
	env, _ := newEnv(t)
	n := 0
	// fresh seeds a contact with a task of its own, for a call that
	// changes or deletes it.
	fresh := func(t *testing.T) string {
		n++
		id := fmt.Sprintf("auth%d", n)
		seedChildren(t, env, acctA, id, `[{"id":"T","title":"x","dueDate":"2026-01-01T00:00:00Z"}]`, `[]`)
		return id
	}
	calls := []struct {
		op   operations.Operation
		ok   int
		call func(t *testing.T, token string) *testenv.Response
	}{
		{operations.GetAllTasks, http.StatusOK, func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(tasksPath, fresh(t)), Token: token})
		}},
		{operations.CreateTask, http.StatusCreated, func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "POST", Path: fmt.Sprintf(tasksPath, fresh(t)), Token: token,
				Body: `{"title":"x","dueDate":"2026-01-01T00:00:00Z","completed":false}`})
		}},
		{operations.GetTask, http.StatusOK, func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "GET", Path: fmt.Sprintf(taskPath, fresh(t), "T"), Token: token})
		}},
		{operations.UpdateTask, http.StatusOK, func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "PUT", Path: fmt.Sprintf(taskPath, fresh(t), "T"), Token: token, Body: `{"title":"y"}`})
		}},
		{operations.UpdateTaskCompleted, http.StatusOK, func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "PUT", Path: fmt.Sprintf(completedPath, fresh(t), "T"), Token: token, Body: `{"completed":true}`})
		}},
	}
	for _, c := range calls {
		t.Run(c.op.Name, func(t *testing.T) {
			env.CheckAuth(t, testenv.AuthCheck{Op: c.op, Account: acctA, OK: c.ok, ForeignStatus: http.StatusNotFound, Call: c.call})
		})
	}
}

// A create retried with its Idempotency-Key (a client that lost the first
// answer) gets the first answer again and adds nothing: one task or note,
// one event.
func TestACreateRetriedWithItsKeyAddsOneTaskOrNote(t *testing.T) {
	env, token := newEnv(t)
	seedChildren(t, env, acctA, "c1", `[]`, `[]`)
	store := contactstore.NewContacts(env.Table)
	for _, tc := range []struct {
		path, body string
		count      func() int
	}{
		{fmt.Sprintf(tasksPath, "c1"), `{"title":"Call","dueDate":"2026-12-01T09:00:00Z","completed":false}`, func() int {
			list, err := store.ListTasks(context.Background(), acctA, "c1")
			require.NoError(t, err)
			return len(list)
		}},
		{fmt.Sprintf(notesPath, "c1"), `{"body":"Called."}`, func() int {
			list, err := store.ListNotes(context.Background(), acctA, "c1")
			require.NoError(t, err)
			return len(list)
		}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			seen := eventsNow(t, env, acctA)
			req := testenv.Request{Method: "POST", Path: tc.path, Token: token, Body: tc.body,
				Headers: map[string]string{idempotency.HeaderKey: "retry-" + tc.path}}
			first := env.Do(t, req)
			require.Equal(t, http.StatusCreated, first.Status, "body: %s", first.Body)
			again := env.Do(t, req)
			require.Equal(t, http.StatusCreated, again.Status)
			assert.Equal(t, "true", again.Header.Get(idempotency.HeaderReplayed))
			assert.JSONEq(t, string(first.Body), string(again.Body), "the first answer, with the first id")
			assert.Equal(t, 1, tc.count())
			assert.Len(t, seen.since(t, env, acctA), 1, "one event")
		})
	}
}
