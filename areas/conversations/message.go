package conversations

import (
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
)

func (h *handler) getMessage(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	id := in.ID("id")
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	// Looked up in the token's own account only: another account's message
	// is indistinguishable from a missing one.
	m, err := h.store.Get(r.Context(), p.AccountID, id)
	if err != nil {
		return err
	}
	if m == nil {
		return apierror.NotFound("Message %s was not found", id)
	}
	return httpio.WriteJSON(w, http.StatusOK, present(*m))
}

// present is the message as the API shows it: attachments always present,
// and always empty for calls and voicemails (whatever an older writer may
// have stored), whose recordings have an operation of their own.
func present(m Message) Message {
	if m.Attachments == nil || m.Type == typeCall || m.Type == typeVoicemail {
		m.Attachments = []string{}
	}
	return m
}
