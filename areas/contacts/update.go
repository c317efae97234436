package contacts

import (
	"net/http"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// updateBody is the body of PUT /contacts/{contactId} (UpdateContactDto):
// only the fields sent change; null clears a field the published schema
// lets be null.
type updateBody struct {
	fieldsBody

	nulls  map[string]bool
	change patch
}

func (b *updateBody) check(v *validate.Errors) {
	rules := bodyRules{v: v, nulls: b.nulls, nullable: updateNullable, clear: true}
	rules.fields(&b.fieldsBody)
	b.change = rules.p
}

type updateAnswer struct {
	Succeded bool        `json:"succeded"` // the public API's spelling
	Contact  contactView `json:"contact"`
}

// updateContact changes the fields sent of a contact of the token's
// account, its index and claims with it, in one transaction on condition
// that the contact is as read (a concurrent update is applied after it,
// never lost). A request that changes nothing writes nothing.
func (h *handler) updateContact(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	id := in.ID("contactId")
	body := updateBody{nulls: readNulls(r)}
	in.Body(&body, body.check)
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	rec, err := h.store.Update(r.Context(), p.AccountID, id, h.clock.Now(), func(rec *contactstore.Record) error {
		return body.change.apply(rec, nil)
	})
	if err != nil {
		return duplicateAnswer(err)
	}
	if rec == nil {
		return notFound(id)
	}
	return httpio.WriteJSON(w, http.StatusOK, updateAnswer{Succeded: true, Contact: viewOf(*rec)})
}
