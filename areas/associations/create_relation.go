package associations

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/validate"
)

// createRelationRequest is the body of POST /associations/relations.
type createRelationRequest struct {
	LocationID     *string `json:"locationId"`
	AssociationID  *string `json:"associationId"`
	FirstRecordID  *string `json:"firstRecordId"`
	SecondRecordID *string `json:"secondRecordId"`
}

// relationResponse is the association the relation was created under (the
// declared answer), followed by the relation's own id and records.
type relationResponse struct {
	Association
	RelationID     string `json:"relationId"`
	FirstRecordID  string `json:"firstRecordId"`
	SecondRecordID string `json:"secondRecordId"`
}

// check records every rule the request breaks.
func (req *createRelationRequest) check(v *validate.Errors) {
	for _, f := range []struct {
		name string
		val  *string
	}{
		{"locationId", req.LocationID},
		{"associationId", req.AssociationID},
		{"firstRecordId", req.FirstRecordID},
		{"secondRecordId", req.SecondRecordID},
	} {
		if v.Required(f.name, f.val) {
			v.ID(f.name, *f.val)
		}
	}
}

func (h *handler) createRelation(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	var body createRelationRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.LocationID)
	if err != nil {
		return err
	}
	ctx := r.Context()
	// Everything is looked up in the token's account only: another account's
	// association or records are simply not found (422, the status the
	// operation lists for a request it cannot carry out).
	a, err := h.store.Association(ctx, p.AccountID, *body.AssociationID)
	if err != nil {
		return err
	}
	if a == nil {
		return apierror.Invalid(fmt.Sprintf("associationId %q does not name an association of this account", *body.AssociationID))
	}
	firstID, secondID := *body.FirstRecordID, *body.SecondRecordID

	// The two records are looked up together: one round trip, not two.
	sides := []struct {
		field, objectKey, recordID string
		problem                    string
		err                        error
	}{
		{field: "firstRecordId", objectKey: a.FirstObjectKey, recordID: firstID},
		{field: "secondRecordId", objectKey: a.SecondObjectKey, recordID: secondID},
	}
	var wg sync.WaitGroup
	for i := range sides {
		s := &sides[i]
		wg.Go(func() { s.problem, s.err = h.recordProblem(ctx, p.AccountID, s.field, s.objectKey, s.recordID) })
	}
	wg.Wait()
	var v validate.Errors
	for _, s := range sides {
		if s.err != nil {
			return s.err
		}
		v.Check(s.problem == "", s.problem)
	}
	if a.FirstObjectKey == a.SecondObjectKey && firstID == secondID {
		v.Add("secondRecordId must differ from firstRecordId: a record is not related to itself")
	}
	if err := v.Err(); err != nil {
		return err
	}

	now := h.clock.Now()
	rel := Relation{
		ID:             ids.Alnum20(),
		LocationID:     p.AccountID,
		AssociationID:  a.ID,
		FirstRecordID:  firstID,
		SecondRecordID: secondID,
		CreatedAt:      clock.Timestamp(now),
	}
	err = h.store.CreateRelation(ctx, *a, rel, now)
	if errors.Is(err, ErrRelationExists) {
		order := ""
		if a.Symmetric() {
			order = " (in either order: its two sides carry the same label)"
		}
		return apierror.Invalid(fmt.Sprintf("firstRecordId %q and secondRecordId %q are already related under association %q%s", firstID, secondID, a.Key, order))
	}
	if err != nil {
		return err
	}
	return httpio.WriteJSON(w, http.StatusCreated, relationResponse{Association: *a, RelationID: rel.ID, FirstRecordID: firstID, SecondRecordID: secondID})
}

// recordProblem tells why recordID is not a record of the object on its side
// of the association ("" when it is one).
func (h *handler) recordProblem(ctx context.Context, accountID, field, objectKey, recordID string) (string, error) {
	ref, problem := parseObjectKey(field, objectKey)
	if problem != "" {
		return "", fmt.Errorf("stored association has object key %q", objectKey)
	}
	if ref.isContact() {
		c, err := h.contacts.Get(ctx, accountID, recordID)
		if err != nil || c != nil {
			return "", err
		}
		return fmt.Sprintf("%s %q does not name a contact of this account (this side of the association is %s)", field, recordID, objectKey), nil
	}
	rec, err := h.store.CustomRecord(ctx, accountID, ref.customObject, recordID)
	if err != nil || rec != nil {
		return "", err
	}
	return fmt.Sprintf("%s %q does not name a record of the custom object %s in this account", field, recordID, objectKey), nil
}
