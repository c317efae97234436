package contacts

import (
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
)

// getContact answers a contact of the token's account. Another account's
// contact is not found, like a missing one: 422, the status the operation
// lists for it.
func (h *handler) getContact(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	id := in.ID("contactId")
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	rec, err := h.store.GetRecord(r.Context(), p.AccountID, id)
	if err != nil {
		return err
	}
	if rec == nil {
		return notFound(id)
	}
	return httpio.WriteJSON(w, http.StatusOK, contactAnswer{Contact: viewOf(*rec)})
}

// notFound answers a contact id the token's account does not have: 404, as
// every record a path names that is not the account's (docs/design.md).
func notFound(id string) error {
	return apierror.NotFound("Contact %s was not found", id)
}
