package contacts

import (
	"net/http"
	"strings"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

type duplicateRequest struct {
	locationID string
	email      string
	phone      string
}

func parseDuplicate(q interface {
	RequiredID(string) string
	Has(string) bool
	String(string) string
}, v *validate.Errors) duplicateRequest {
	req := duplicateRequest{locationID: q.RequiredID("locationId")}
	if q.Has("email") {
		email, problem := emailRule(strings.TrimSpace(q.String("email")))
		if v.Check(problem == "" && email != "", "email "+orEmpty(problem, "must be an e-mail address (name@example.com)")) {
			req.email = email
		}
	}
	if q.Has("number") {
		phone, problem := phoneRule(strings.TrimSpace(q.String("number")))
		if v.Check(problem == "" && phone != "", "number "+orEmpty(problem, "must be a phone number")) {
			req.phone = phone
		}
	}
	v.Check(q.Has("email") || q.Has("number"), "email or number is required: the contact is looked up by them")
	return req
}

// orEmpty is problem, or fallback when it is empty.
func orEmpty(problem, fallback string) string {
	if problem == "" {
		return fallback
	}
	return problem
}

type lookupAnswer struct {
	Contact *contactView `json:"contact"`
}

// getDuplicateContact answers the contact of the account an e-mail address
// or a phone number finds, in the order of the account's duplicate
// settings, or null.
func (h *handler) getDuplicateContact(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	req := parseDuplicate(in.Query(), in.Errors())
	if _, err := in.Account(&req.locationID); err != nil {
		return err
	}
	rec, err := h.store.FindDuplicate(r.Context(), req.locationID, req.email, req.phone)
	if err != nil {
		return err
	}
	var answer lookupAnswer
	if rec != nil {
		v := viewOf(*rec)
		answer.Contact = &v
	}
	return httpio.WriteJSON(w, http.StatusOK, answer)
}
