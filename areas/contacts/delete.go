package contacts

import (
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/httpio"
)

type deleteAnswer struct {
	Succeded bool `json:"succeded"` // the public API's spelling
}

// deleteContact deletes a contact of the token's account with its tasks
// and notes (contactstore.Delete says how none is left behind).
func (h *handler) deleteContact(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	id := in.ID("contactId")
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	deleted, err := h.store.Delete(r.Context(), p.AccountID, id, h.clock.Now())
	if err != nil {
		return err
	}
	if !deleted {
		return notFound(id)
	}
	return httpio.WriteJSON(w, http.StatusOK, deleteAnswer{Succeded: true})
}
