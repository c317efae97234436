package contacts

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// createBody is the body of POST /contacts/ (CreateContactDto).
type createBody struct {
	LocationID  *string `json:"locationId"`
	Gender      *string `json:"gender"`
	CompanyName *string `json:"companyName"`
	fieldsBody

	nulls  map[string]bool
	change patch // the fields sent, once checked
}

// check records every rule the body breaks and keeps what it sets. null
// is no value: a new contact has none to clear.
func (b *createBody) check(v *validate.Errors) {
	if v.Required("locationId", b.LocationID) {
		v.ID("locationId", *b.LocationID)
	}
	rules := bodyRules{v: v, nulls: b.nulls, nullable: createNullable}
	rules.text("gender", b.Gender, maxGenderLen, nil, func(r *contactstore.Record, s string) { r.Gender = s })
	rules.text("companyName", b.CompanyName, maxCompanyLen, nil, func(r *contactstore.Record, s string) { r.CompanyName = s })
	rules.fields(&b.fieldsBody)
	b.change = rules.p
}

type contactAnswer struct {
	Contact contactView `json:"contact"`
}

// createContact creates a contact in the account locationId names, with
// the fields sent, indexed for the list and the search in the transaction
// that stores it.
func (h *handler) createContact(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	body := createBody{nulls: readNulls(r)}
	in.Body(&body, body.check)
	if _, err := in.Account(body.LocationID); err != nil {
		return err
	}
	now := h.clock.Now()
	rec := newRecord(contactstore.NewID(), *body.LocationID, clock.Timestamp(now))
	if err := body.change.apply(&rec, nil); err != nil {
		return err
	}
	if err := h.store.Create(r.Context(), rec, now); err != nil {
		return duplicateAnswer(err)
	}
	return httpio.WriteJSON(w, http.StatusCreated, contactAnswer{Contact: viewOf(rec)})
}

// newRecord is a new contact before its fields: added and updated now,
// with empty lists.
func newRecord(id, accountID, now string) contactstore.Record {
	return contactstore.Record{
		Contact: contactstore.Contact{ID: id, LocationID: accountID, DateAdded: now, Tags: []string{},
			CustomFields: []contactstore.CustomValue{}, Followers: []string{}},
		Details: contactstore.Details{DateUpdated: now},
	}
}

// duplicateAnswer is the answer to a write refused because another
// contact has a value the account's settings make unique (422, naming
// the contact, as the public API's "does not allow duplicated contacts"
// does); other errors pass as they are.
func duplicateAnswer(err error) error {
	var dup *contactstore.DuplicateError
	if !errors.As(err, &dup) {
		return err
	}
	return apierror.Invalid(fmt.Sprintf("%s: this location does not allow duplicated contacts, and contact %s has this %s",
		dup.Field, strings.Join(dup.ContactIDs, ", "), dup.Field))
}
