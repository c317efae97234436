package contacts

import (
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
)

// deleteTaskResponse keeps the public API's spelling of "succeeded".
type deleteTaskResponse struct {
	Succeded bool `json:"succeded"`
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
		return apierror.NotFound("Task %s of contact %s was not found", taskID, contactID)
	}
	return httpio.WriteJSON(w, http.StatusOK, deleteTaskResponse{Succeded: true})
}
