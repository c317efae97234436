package contacts

import (
	"net/http"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/validate"
)

// upsertBody is the body of POST /contacts/upsert (UpsertContactDto).
type upsertBody struct {
	createBody
	CreateNewIfDuplicateAllowed *bool `json:"createNewIfDuplicateAllowed"`
}

type upsertAnswer struct {
	New     bool        `json:"new"`
	Contact contactView `json:"contact"`
	TraceID string      `json:"traceId"`
}

// upsertContact updates the contact the request's e-mail or phone finds,
// as the account's duplicate settings say (contactstore.DuplicateSettings),
// or creates one; new says which. Two upserts of one new e-mail at once
// make one contact.
func (h *handler) upsertContact(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	body := upsertBody{createBody: createBody{nulls: readNulls(r)}}
	in.Body(&body, func(v *validate.Errors) { body.check(v) })
	if _, err := in.Account(body.LocationID); err != nil {
		return err
	}
	now := h.clock.Now()
	// The request's values, as the contact they make would hold them.
	sent := newRecord("", *body.LocationID, "")
	if err := body.change.apply(&sent, nil); err != nil {
		return err
	}
	u := contactstore.Upsert{
		AccountID:          *body.LocationID,
		Values:             contactstore.ClaimValues(sent),
		CreateNewIfAllowed: body.CreateNewIfDuplicateAllowed != nil && *body.CreateNewIfDuplicateAllowed,
		New: func(id string) contactstore.Record {
			rec := newRecord(id, *body.LocationID, clock.Timestamp(now))
			_ = body.change.apply(&rec, nil) // applied once above without error: a new record has no values to exceed
			return rec
		},
		Apply: func(rec *contactstore.Record, skip []string) error { return body.change.apply(rec, skip) },
	}
	rec, created, err := h.store.Upsert(r.Context(), u, now)
	if err != nil {
		return duplicateAnswer(err)
	}
	return httpio.WriteJSON(w, http.StatusOK, upsertAnswer{New: created, Contact: viewOf(*rec), TraceID: httpserve.RequestID(r.Context())})
}
