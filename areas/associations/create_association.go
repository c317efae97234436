package associations

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/validate"
)

// maxLabelLength bounds an object label.
const maxLabelLength = 100

// createAssociationRequest is the body of POST /associations/. The public API
// declares the four label and key fields as objects, but they carry text:
// only strings are accepted.
type createAssociationRequest struct {
	LocationID        *string `json:"locationId"`
	Key               *string `json:"key"`
	FirstObjectLabel  *string `json:"firstObjectLabel"`
	FirstObjectKey    *string `json:"firstObjectKey"`
	SecondObjectLabel *string `json:"secondObjectLabel"`
	SecondObjectKey   *string `json:"secondObjectKey"`

	first, second objectRef // the two sides, once checked
}

// check records every rule the request breaks and keeps its two sides in
// req.first and req.second.
func (req *createAssociationRequest) check(v *validate.Errors) {
	if v.Required("locationId", req.LocationID) {
		v.ID("locationId", *req.LocationID)
	}
	if v.Required("key", req.Key) && validate.IDProblem("key", *req.Key) != "" {
		v.Addf("key must be 1 to %d letters, digits, '_' or '-' (for example pet_owner)", validate.MaxIDLength)
	}
	label := func(field string, val *string) {
		if v.Required(field, val) {
			v.MaxLen(field, *val, maxLabelLength)
		}
	}
	objectKey := func(field string, val *string) (objectRef, bool) {
		if !v.Required(field, val) {
			return objectRef{}, false
		}
		ref, problem := parseObjectKey(field, *val)
		return ref, v.Check(problem == "", problem)
	}
	label("firstObjectLabel", req.FirstObjectLabel)
	first, okFirst := objectKey("firstObjectKey", req.FirstObjectKey)
	label("secondObjectLabel", req.SecondObjectLabel)
	second, okSecond := objectKey("secondObjectKey", req.SecondObjectKey)
	if okFirst && okSecond && !first.isContact() && !second.isContact() {
		v.Add("firstObjectKey and secondObjectKey must include a contact: the supported pairs are contact to contact and contact to custom object")
	}
	req.first, req.second = first, second
}

func (h *handler) createAssociation(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	var body createAssociationRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.LocationID)
	if err != nil {
		return err
	}
	ctx := r.Context()
	// At most one side is a custom object; it must be one of this account's.
	for _, side := range []struct {
		field string
		ref   objectRef
	}{{"firstObjectKey", body.first}, {"secondObjectKey", body.second}} {
		if side.ref.isContact() {
			continue
		}
		obj, err := h.store.CustomObject(ctx, p.AccountID, side.ref.customObject)
		if err != nil {
			return err
		}
		if obj == nil {
			return apierror.Invalid(fmt.Sprintf("%s names the custom object %q, which this account does not have", side.field, side.ref.customObject))
		}
	}

	a := Association{
		LocationID:        p.AccountID,
		ID:                ids.Alnum20(),
		Key:               *body.Key,
		FirstObjectLabel:  *body.FirstObjectLabel,
		FirstObjectKey:    *body.FirstObjectKey,
		SecondObjectLabel: *body.SecondObjectLabel,
		SecondObjectKey:   *body.SecondObjectKey,
		AssociationType:   AssociationTypeUserDefined,
	}
	err = h.store.CreateAssociation(ctx, a, h.clock.Now())
	if errors.Is(err, ErrKeyTaken) {
		return apierror.Invalid(fmt.Sprintf("key %q is already used by another association of this account (keys compare case-insensitively)", a.Key))
	}
	if err != nil {
		return err
	}
	return httpio.WriteJSON(w, http.StatusCreated, a)
}
