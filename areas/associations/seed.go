package associations

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the associations part of a demo dataset.
type SeedData struct {
	CustomObjects []SeedCustomObject `json:"customObjects"`
	Associations  []SeedAssociation  `json:"associations"`
	Relations     []Relation         `json:"relations"`
}

// SeedCustomObject is a custom object definition and its records.
type SeedCustomObject struct {
	CustomObject
	Records []CustomRecord `json:"records"`
}

// SeedAssociation is an association and when it was created.
type SeedAssociation struct {
	Association
	CreatedAt string `json:"createdAt"`
}

// seed writes the data as given. Associations are written as both their
// items (key claim and id item) at once; relations are written under the key
// the API would use, so a seeded relation counts as a duplicate. Records the
// relations point at are not checked: the contacts part may load later.
func seed(ctx context.Context, d app.Deps, data SeedData) error {
	s := NewGraph(d.Table)
	var l storage.Loading
	for _, o := range data.CustomObjects {
		storage.Load(&l, s.customObjects, []CustomObject{o.CustomObject}, checkSeedObject)
		for i := range o.Records {
			rec := &o.Records[i]
			rec.LocationID, rec.ObjectKey = o.LocationID, o.Key
			if rec.Properties == nil {
				rec.Properties = map[string]string{}
			}
			if rec.CreatedAt == "" {
				rec.CreatedAt = o.CreatedAt
			}
		}
		storage.Load(&l, s.customRecords, o.Records, func(rec *CustomRecord) error {
			return errorOf(validate.IDProblem("custom record id", rec.ID))
		})
	}
	if dup := duplicateKey(data.Associations); dup != "" {
		return fmt.Errorf("key %s is used twice in one account", dup)
	}
	associations := make([]storedAssociation, len(data.Associations))
	byID := map[string]Association{}
	for i, a := range data.Associations {
		if a.AssociationType == "" {
			a.AssociationType = AssociationTypeUserDefined
		}
		associations[i] = storedAssociation{Association: a.Association, CreatedAt: a.CreatedAt}
		byID[a.LocationID+"/"+a.ID] = a.Association
	}
	storage.Load(&l, s.byKey, associations, checkSeedAssociation)
	storage.Load(&l, s.byID, associations, nil)
	for _, r := range data.Relations {
		msg := validate.IDProblem("relation id", r.ID) + validate.IDProblem("relation firstRecordId", r.FirstRecordID) + validate.IDProblem("relation secondRecordId", r.SecondRecordID)
		if msg != "" {
			return errors.New(msg)
		}
		a, ok := byID[r.LocationID+"/"+r.AssociationID]
		if !ok {
			return fmt.Errorf("relation %s: association %s of %s is not in the data", r.ID, r.AssociationID, r.LocationID)
		}
		l.Add(s.relationItem(a, r))
	}
	return l.Write(ctx, d.Table)
}

func checkSeedObject(o *CustomObject) error {
	ref, problem := parseObjectKey("custom object key", o.Key)
	if problem == "" && ref.isContact() {
		problem = "custom object key must start with " + CustomObjectPrefix
	}
	return errorOf(validate.IDProblem("locationId", o.LocationID) + problem)
}

func checkSeedAssociation(a *storedAssociation) error {
	if msg := validate.IDProblem("association id", a.ID) + validate.IDProblem("locationId", a.LocationID) + validate.IDProblem("association key", a.Key); msg != "" {
		return errors.New(msg)
	}
	for _, k := range []string{a.FirstObjectKey, a.SecondObjectKey} {
		if _, problem := parseObjectKey("association "+a.ID+" object key", k); problem != "" {
			return errors.New(problem)
		}
	}
	return nil
}

// errorOf is the error of a rule's message ("": none).
func errorOf(msg string) error {
	if msg == "" {
		return nil
	}
	return errors.New(msg)
}

func duplicateKey(list []SeedAssociation) string {
	seen := map[string]bool{}
	for _, a := range list {
		k := a.LocationID + "/" + strings.ToLower(a.Key)
		if seen[k] {
			return a.Key
		}
		seen[k] = true
	}
	return ""
}
