package associations

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bizplatform/api/shared/app"
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
func seed(ctx context.Context, d app.Deps, raw json.RawMessage) error {
	var data SeedData
	if err := app.DecodeSeed("associations", raw, &data); err != nil {
		return err
	}
	var items []any
	for _, o := range data.CustomObjects {
		ref, problem := parseObjectKey("custom object key", o.Key)
		if problem == "" && ref.isContact() {
			problem = "custom object key must start with " + CustomObjectPrefix
		}
		if msg := validate.IDProblem("locationId", o.LocationID) + problem; msg != "" {
			return fmt.Errorf("associations: %s", msg)
		}
		items = append(items, customObjectItem{Key: customObjectKey(o.LocationID, ref.customObject), CustomObject: o.CustomObject})
		for _, rec := range o.Records {
			if msg := validate.IDProblem("custom record id", rec.ID); msg != "" {
				return fmt.Errorf("associations: %s", msg)
			}
			rec.LocationID, rec.ObjectKey = o.LocationID, o.Key
			if rec.Properties == nil {
				rec.Properties = map[string]string{}
			}
			if rec.CreatedAt == "" {
				rec.CreatedAt = o.CreatedAt
			}
			items = append(items, customRecordItem{Key: customRecordKey(o.LocationID, ref.customObject, rec.ID), CustomRecord: rec})
		}
	}
	byID := map[string]Association{}
	for _, a := range data.Associations {
		if msg := validate.IDProblem("association id", a.ID) + validate.IDProblem("locationId", a.LocationID) + validate.IDProblem("association key", a.Key); msg != "" {
			return fmt.Errorf("associations: %s", msg)
		}
		for _, k := range []string{a.FirstObjectKey, a.SecondObjectKey} {
			if _, problem := parseObjectKey("association "+a.ID+" object key", k); problem != "" {
				return fmt.Errorf("associations: %s", problem)
			}
		}
		if a.AssociationType == "" {
			a.AssociationType = AssociationTypeUserDefined
		}
		items = append(items,
			associationItem{Key: associationKeyClaimKey(a.LocationID, a.Key), Association: a.Association, CreatedAt: a.CreatedAt},
			associationItem{Key: associationKey(a.LocationID, a.ID), Association: a.Association, CreatedAt: a.CreatedAt})
		byID[a.LocationID+"/"+a.ID] = a.Association
	}
	for _, r := range data.Relations {
		msg := validate.IDProblem("relation id", r.ID) + validate.IDProblem("relation firstRecordId", r.FirstRecordID) + validate.IDProblem("relation secondRecordId", r.SecondRecordID)
		if msg != "" {
			return fmt.Errorf("associations: %s", msg)
		}
		a, ok := byID[r.LocationID+"/"+r.AssociationID]
		if !ok {
			return fmt.Errorf("associations: relation %s: association %s of %s is not in the data", r.ID, r.AssociationID, r.LocationID)
		}
		items = append(items, relationItem{Key: relationKey(r.LocationID, a, r.FirstRecordID, r.SecondRecordID), Relation: r})
	}
	if dup := duplicateKey(data.Associations); dup != "" {
		return fmt.Errorf("associations: key %s is used twice in one account", dup)
	}
	return d.Table.BatchPut(ctx, items)
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
