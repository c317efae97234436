package contactstore

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/ids"
)

// The events of a task's life besides its deletion (TaskDeleted). Each
// carries the task as the change's answer shows it.
var (
	TaskCreated = events.Type{
		Name: "TaskCreate", Scope: "contacts.readonly", Version: 1,
		Summary: "A task was added to a contact (POST /contacts/{contactId}/tasks).",
		Fields:  Task{},
	}
	TaskCompleted = events.Type{
		Name: "TaskComplete", Scope: "contacts.readonly", Version: 1,
		Summary: "A contact's task was completed (PUT /contacts/{contactId}/tasks/{taskId}/completed, or an update setting completed).",
		Fields:  Task{},
	}
	// TaskUpdated is this platform's own: the public platform has no event
	// for a task changed but not completed, and here every change makes one.
	TaskUpdated = events.Type{
		Name: "TaskUpdate", Scope: "contacts.readonly", Version: 1,
		Summary: "A contact's task was changed other than by completing it, or reopened (PUT /contacts/{contactId}/tasks/{taskId}, or .../completed with completed false). This platform's own: the public platform has no such event.",
		Fields:  Task{},
	}
)

func (t Task) listOrder() string { return t.DateAdded + "#" + t.ID }

func (s *Contacts) tasks() children[Task] { return children[Task]{table: s.table, key: taskKey} }

// ListTasks returns the tasks of the account's contact, in the order they
// were added; ErrContactNotFound when the account has no such contact.
func (s *Contacts) ListTasks(ctx context.Context, accountID, contactID string) ([]Task, error) {
	return s.tasks().list(ctx, accountID, contactID)
}

// CreateTask adds t to the account's contact under a new id, with its
// TaskCreate event, and returns it as stored; ErrContactNotFound, writing
// nothing, when the account has no such contact.
func (s *Contacts) CreateTask(ctx context.Context, accountID, contactID string, t Task, now time.Time) (Task, error) {
	t.ID, t.ContactID, t.DateAdded = ids.Alnum20(), contactID, clock.Timestamp(now)
	return t, s.tasks().create(ctx, accountID, contactID, t.ID, t, TaskCreated, now)
}

// UpdateTask applies apply (the request's changes) to the stored task and
// writes it with its event: TaskComplete when the change completes it,
// TaskUpdate for any other change, nothing when it changes nothing. It
// returns the task as it is, or nil when there is no such task.
func (s *Contacts) UpdateTask(ctx context.Context, accountID, contactID, taskID string, apply func(*Task), now time.Time) (*Task, error) {
	return s.tasks().update(ctx, accountID, contactID, taskID, func(t *Task) events.Type {
		wasCompleted := t.Completed
		apply(t)
		if t.Completed && !wasCompleted {
			return TaskCompleted
		}
		return TaskUpdated
	}, now)
}
