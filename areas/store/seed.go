package store

import (
	"context"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the store part of a demo dataset.
type SeedData struct {
	ShippingZones []SeedZone `json:"shippingZones"`
}

// SeedZone is a zone and its rates. A rate's altId, altType and
// shippingZoneId come from the zone; altType defaults to "account".
type SeedZone struct {
	Zone
	ShippingRates []Rate `json:"shippingRates"`
}

// seed writes the zones and rates, checked by the same rules as updates,
// at version 0. What the file leaves out is filled in: altType account,
// createdAt now, updatedAt createdAt, a rate's conditionType none.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	now := clock.Timestamp(d.Clock.Now())
	var items []any
	err := app.CheckRecords("shippingZones", data.ShippingZones, func(z *SeedZone) (string, string) { return z.AltID, z.ID }, func(z *SeedZone) error {
		if z.AltType == "" {
			z.AltType = validate.AltType
		}
		var v validate.Errors
		checkSeedIDs(&v, z.ID, z.AltID, z.AltType)
		checkName(&v, "name", z.Name)
		checkCountries(&v, z.Countries)
		v.Time("createdAt", &z.CreatedAt, now)
		v.Time("updatedAt", &z.UpdatedAt, z.CreatedAt)
		if err := v.Err(); err != nil {
			return err
		}
		z.normalize()
		items = append(items, zoneItem{Key: zoneKey(z.AltID, z.ID), Zone: z.Zone})
		return app.CheckRecords("shippingRates", z.ShippingRates, func(r *Rate) (string, string) { return "", r.ID }, func(r *Rate) error {
			r.AltID, r.AltType, r.ShippingZoneID = z.AltID, z.AltType, z.ID
			if r.ConditionType == "" {
				r.ConditionType = "none"
			}
			var v validate.Errors
			checkSeedIDs(&v, r.ID, r.AltID, r.AltType)
			checkRate(&v, *r)
			v.Time("createdAt", &r.CreatedAt, now)
			v.Time("updatedAt", &r.UpdatedAt, r.CreatedAt)
			if err := v.Err(); err != nil {
				return err
			}
			r.normalize()
			items = append(items, rateItem{Key: rateKey(r.AltID, z.ID, r.ID), Rate: *r})
			return nil
		})
	})
	if err != nil {
		return err
	}
	return d.Table.BatchPut(ctx, items)
}

// checkSeedIDs checks a record's id (as requests are normalised) and its
// account.
func checkSeedIDs(v *validate.Errors, id, altID, altType string) {
	if msg := validate.LowerHexIDProblem("_id", id); msg != "" {
		v.Add(msg)
	}
	v.ID("altId", altID)
	v.OneOf("altType", altType, validate.AltType)
}
