package store

import (
	"context"
	"fmt"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/validate"
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
// at version 0.
func seed(ctx context.Context, d app.Deps, data SeedData) error {
	now := clock.Timestamp(d.Clock.Now())
	var items []any
	for _, z := range data.ShippingZones {
		if z.AltType == "" {
			z.AltType = validate.AltType
		}
		var v validate.Errors
		checkSeedIDs(&v, "shipping zone", z.ID, z.AltID, z.AltType)
		checkName(&v, "name", z.Name)
		checkCountries(&v, z.Countries)
		v.Merge(validate.Stamp(now, &z.CreatedAt, &z.UpdatedAt))
		if err := v.Err(); err != nil {
			return fmt.Errorf("shipping zone %s: %w", z.ID, err)
		}
		z.normalize()
		items = append(items, zoneItem{Key: zoneKey(z.AltID, z.ID), Zone: z.Zone})
		for _, r := range z.ShippingRates {
			r.AltID, r.AltType, r.ShippingZoneID = z.AltID, z.AltType, z.ID
			checkSeedIDs(&v, "shipping rate", r.ID, r.AltID, r.AltType)
			checkRate(&v, r)
			v.Merge(validate.Stamp(now, &r.CreatedAt, &r.UpdatedAt))
			if err := v.Err(); err != nil {
				return fmt.Errorf("shipping rate %s: %w", r.ID, err)
			}
			r.normalize()
			items = append(items, rateItem{Key: rateKey(r.AltID, z.ID, r.ID), Rate: r})
		}
	}
	return d.Table.BatchPut(ctx, items)
}

// checkSeedIDs checks a record's id (as requests are normalised) and its
// account.
func checkSeedIDs(v *validate.Errors, kind, id, altID, altType string) {
	if msg := validate.LowerHexIDProblem(kind+" id", id); msg != "" {
		v.Add(msg)
	}
	v.ID("altId", altID)
	v.OneOf("altType", altType, validate.AltType)
}
