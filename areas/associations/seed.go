package associations

import (
	"context"
	"fmt"
	"strings"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
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

// seed writes the data, filling in what the file leaves out: createdAt is
// now (a custom record's: its object's), an association's type
// USER_DEFINED. Associations are written as both their items (key claim and
// id item) at once; relations are written under the key the API would use,
// so a seeded relation counts as a duplicate. Records the relations point at
// are not checked: the contacts part may load later.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	s := NewGraph(d.Table)
	now := clock.Timestamp(d.Clock.Now())
	var l storage.Loading
	noID := func(*SeedCustomObject) (string, string) { return "", "" } // named by their key, checked below
	err := app.CheckRecords("customObjects", data.CustomObjects, noID, func(o *SeedCustomObject) error {
		if err := checkSeedObject(&o.CustomObject, now); err != nil {
			return err
		}
		err := app.CheckRecords("records", o.Records, func(rec *CustomRecord) (string, string) { return "", rec.ID }, func(rec *CustomRecord) error {
			rec.LocationID, rec.ObjectKey = o.LocationID, o.Key
			if rec.Properties == nil {
				rec.Properties = map[string]string{}
			}
			var v validate.Errors
			v.ID("id", rec.ID)
			v.Time("createdAt", &rec.CreatedAt, o.CreatedAt)
			return v.Err()
		})
		if err != nil {
			return err
		}
		storage.Load(&l, s.customObjects, []CustomObject{o.CustomObject}, nil)
		storage.Load(&l, s.customRecords, o.Records, nil)
		return nil
	})
	if err != nil {
		return err
	}
	associations := make([]storedAssociation, len(data.Associations))
	byID := map[string]Association{}
	keys := map[string]int{} // account/lower-case key -> index
	err = app.CheckRecords("associations", data.Associations, func(a *SeedAssociation) (string, string) { return a.LocationID, a.ID }, func(a *SeedAssociation) error {
		if err := checkSeedAssociation(a, now); err != nil {
			return err
		}
		k := a.LocationID + "/" + strings.ToLower(a.Key)
		if j, taken := keys[k]; taken {
			return fmt.Errorf("key %s is associations[%d]'s too, in account %s", a.Key, j, a.LocationID)
		}
		keys[k] = len(keys) // this record's index: every record before it added one key
		return nil
	})
	if err != nil {
		return err
	}
	for i, a := range data.Associations {
		associations[i] = storedAssociation{Association: a.Association, CreatedAt: a.CreatedAt}
		byID[a.LocationID+"/"+a.ID] = a.Association
	}
	storage.Load(&l, s.byKey, associations, nil)
	storage.Load(&l, s.byID, associations, nil)
	err = app.CheckRecords("relations", data.Relations, func(r *Relation) (string, string) { return r.LocationID, r.ID }, func(r *Relation) error {
		var v validate.Errors
		v.ID("id", r.ID)
		v.ID("firstRecordId", r.FirstRecordID)
		v.ID("secondRecordId", r.SecondRecordID)
		v.Time("createdAt", &r.CreatedAt, now)
		a, ok := byID[r.LocationID+"/"+r.AssociationID]
		v.Check(ok, fmt.Sprintf("associationId %s is not an association of %s in the data", r.AssociationID, r.LocationID))
		if err := v.Err(); err != nil {
			return err
		}
		l.Add(s.relationItem(a, *r))
		return nil
	})
	if err != nil {
		return err
	}
	return l.Write(ctx, d.Table)
}

func checkSeedObject(o *CustomObject, now string) error {
	var v validate.Errors
	v.ID("locationId", o.LocationID)
	ref, problem := parseObjectKey("key", o.Key)
	if problem == "" && ref.isContact() {
		problem = "key must start with " + CustomObjectPrefix
	}
	if problem != "" {
		v.Add(problem)
	}
	v.Time("createdAt", &o.CreatedAt, now)
	return v.Err()
}

func checkSeedAssociation(a *SeedAssociation, now string) error {
	if a.AssociationType == "" {
		a.AssociationType = AssociationTypeUserDefined
	}
	var v validate.Errors
	v.ID("id", a.ID)
	v.ID("locationId", a.LocationID)
	v.ID("key", a.Key)
	for _, side := range []struct{ keyField, key, labelField, label string }{
		{"firstObjectKey", a.FirstObjectKey, "firstObjectLabel", a.FirstObjectLabel},
		{"secondObjectKey", a.SecondObjectKey, "secondObjectLabel", a.SecondObjectLabel},
	} {
		if _, problem := parseObjectKey(side.keyField, side.key); problem != "" {
			v.Add(problem)
		}
		v.Required(side.labelField, &side.label)
	}
	v.Time("createdAt", &a.CreatedAt, now)
	return v.Err()
}
