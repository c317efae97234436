package contacts

import (
	"errors"
	"net/http"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// A contact's tasks: list, create, get, update, complete, delete. Every
// operation names its contact and task by path only and acts in the token's
// account, so another account's contact or task is not found (404), like
// a missing one.

// taskAnswer is the public API's answer holding one task.
type taskAnswer struct {
	Task contactstore.Task `json:"task"`
}

// deleteTaskResponse keeps the public API's spelling of "succeeded".
type deleteTaskResponse struct {
	Succeded bool `json:"succeded"`
}

// createTaskRequest is the body of POST /contacts/{contactId}/tasks.
type createTaskRequest struct {
	Title      *string `json:"title"`
	Body       *string `json:"body"`
	DueDate    *string `json:"dueDate"`
	Completed  *bool   `json:"completed"`
	AssignedTo *string `json:"assignedTo"`

	task contactstore.Task // the task the request describes, once checked
}

func (req *createTaskRequest) check(v *validate.Errors) {
	t := &req.task
	if v.Required("title", req.Title) {
		t.Title = oneLineText(v, "title", *req.Title)
	}
	if req.Body != nil {
		t.Body = longText(v, "body", *req.Body)
	}
	if v.Required("dueDate", req.DueDate) {
		t.DueDate = dateTime(v, "dueDate", *req.DueDate)
	}
	if validate.RequiredPresent(v, "completed", req.Completed) {
		t.Completed = *req.Completed
	}
	if req.AssignedTo != nil && v.ID("assignedTo", *req.AssignedTo) {
		t.AssignedTo = *req.AssignedTo
	}
}

// updateTaskRequest is the body of PUT /contacts/{contactId}/tasks/{taskId}:
// the fields sent change, the others stay. null removes an optional value
// (body, assignedTo) and is refused for the others.
type updateTaskRequest struct {
	Title      httpio.Field[string] `json:"title"`
	Body       httpio.Field[string] `json:"body"`
	DueDate    httpio.Field[string] `json:"dueDate"`
	Completed  httpio.Field[bool]   `json:"completed"`
	AssignedTo httpio.Field[string] `json:"assignedTo"`

	apply []func(*contactstore.Task) // the changes, once checked
}

func (req *updateTaskRequest) check(v *validate.Errors) {
	change := func(f func(*contactstore.Task)) { req.apply = append(req.apply, f) }
	if s, ok := notNull(v, "title", req.Title); ok {
		title := oneLineText(v, "title", s)
		change(func(t *contactstore.Task) { t.Title = title })
	}
	if req.Body.Set {
		body := longText(v, "body", req.Body.V) // null: ""
		change(func(t *contactstore.Task) { t.Body = body })
	}
	if s, ok := notNull(v, "dueDate", req.DueDate); ok {
		due := dateTime(v, "dueDate", s)
		change(func(t *contactstore.Task) { t.DueDate = due })
	}
	if done, ok := notNull(v, "completed", req.Completed); ok {
		change(func(t *contactstore.Task) { t.Completed = done })
	}
	if req.AssignedTo.Set && (req.AssignedTo.Null || v.ID("assignedTo", req.AssignedTo.V)) {
		user := req.AssignedTo.V // null: "", unassigned
		change(func(t *contactstore.Task) { t.AssignedTo = user })
	}
}

// completedRequest is the body of PUT .../tasks/{taskId}/completed.
type completedRequest struct {
	Completed *bool `json:"completed"`
}

func (req *completedRequest) check(v *validate.Errors) {
	validate.RequiredPresent(v, "completed", req.Completed)
}

func (h *handler) listTasks(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID := in.ID("contactId")
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	tasks, err := h.store.ListTasks(r.Context(), p.AccountID, contactID)
	if err != nil {
		return contactError(err, contactID)
	}
	return httpio.WriteJSON(w, http.StatusOK, struct {
		Tasks []contactstore.Task `json:"tasks"`
	}{tasks})
}

func (h *handler) createTask(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID := in.ID("contactId")
	var body createTaskRequest
	in.Body(&body, body.check)
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	task, err := h.store.CreateTask(r.Context(), p.AccountID, contactID, body.task, h.clock.Now())
	if err != nil {
		return contactError(err, contactID)
	}
	return httpio.WriteJSON(w, http.StatusCreated, taskAnswer{task})
}

func (h *handler) getTask(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID, taskID := in.ID("contactId"), in.ID("taskId")
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	task, err := h.store.GetTask(r.Context(), p.AccountID, contactID, taskID)
	if err != nil {
		return err
	}
	if task == nil {
		return taskNotFound(contactID, taskID)
	}
	return httpio.WriteJSON(w, http.StatusOK, taskAnswer{*task})
}

func (h *handler) updateTask(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID, taskID := in.ID("contactId"), in.ID("taskId")
	var body updateTaskRequest
	in.Body(&body, body.check)
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	return h.changeTask(w, r, p.AccountID, contactID, taskID, body.apply...)
}

func (h *handler) completeTask(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID, taskID := in.ID("contactId"), in.ID("taskId")
	var body completedRequest
	in.Body(&body, body.check)
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	done := *body.Completed
	return h.changeTask(w, r, p.AccountID, contactID, taskID, func(t *contactstore.Task) { t.Completed = done })
}

// changeTask applies the changes to the stored task (its event: TaskComplete
// when they complete it, TaskUpdate otherwise, none when they change
// nothing) and answers the task as it is.
func (h *handler) changeTask(w http.ResponseWriter, r *http.Request, accountID, contactID, taskID string, changes ...func(*contactstore.Task)) error {
	task, err := h.store.UpdateTask(r.Context(), accountID, contactID, taskID, func(t *contactstore.Task) {
		for _, c := range changes {
			c(t)
		}
	}, h.clock.Now())
	if err != nil {
		return err
	}
	if task == nil {
		return taskNotFound(contactID, taskID)
	}
	return httpio.WriteJSON(w, http.StatusOK, taskAnswer{*task})
}

func (h *handler) deleteTask(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID, taskID := in.ID("contactId"), in.ID("taskId")
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	// The task is looked up in the token's own account only, so another
	// account's task is indistinguishable from a missing one: 404.
	deleted, err := h.store.DeleteTask(r.Context(), p.AccountID, contactID, taskID, h.clock.Now())
	if err != nil {
		return err
	}
	if !deleted {
		return taskNotFound(contactID, taskID)
	}
	return httpio.WriteJSON(w, http.StatusOK, deleteTaskResponse{Succeded: true})
}

func taskNotFound(contactID, taskID string) error {
	return apierror.NotFound("Task %s of contact %s was not found", taskID, contactID)
}

// contactError answers a list or a create naming a contact the account does
// not have with 404; other errors pass through.
func contactError(err error, contactID string) error {
	if errors.Is(err, contactstore.ErrContactNotFound) {
		return notFound(contactID)
	}
	return err
}
