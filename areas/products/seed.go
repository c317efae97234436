package products

import (
	"context"
	"fmt"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the products part of a demo dataset.
type SeedData struct {
	Products []SeedProduct `json:"products"`
}

// SeedProduct is a product and its prices. A price's product and locationId
// come from the product.
type SeedProduct struct {
	Product
	Prices []Price `json:"prices"`
}

// seed checks every product and price, and fills in what the file leaves
// out (createdAt: now; updatedAt: createdAt), before it writes any.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	s := NewCatalog(d.Table)
	now := clock.Timestamp(d.Clock.Now())
	var prices []Price
	err := app.CheckRecords("products", data.Products, func(p *SeedProduct) (string, string) { return p.LocationID, p.ID }, func(p *SeedProduct) error {
		if err := checkSeedRecord(p.ID, p.LocationID, now, &p.CreatedAt, &p.UpdatedAt); err != nil {
			return err
		}
		return app.CheckRecords("prices", p.Prices, func(pr *Price) (string, string) { return "", pr.ID }, func(pr *Price) error {
			pr.ProductID, pr.LocationID = p.ID, p.LocationID
			if q := pr.AvailableQuantity; q != nil && (*q < 0 || *q > MaxAvailableQuantity) {
				return fmt.Errorf("availableQuantity must be from 0 to %d", MaxAvailableQuantity)
			}
			if err := checkSeedRecord(pr.ID, pr.LocationID, now, &pr.CreatedAt, &pr.UpdatedAt); err != nil {
				return err
			}
			prices = append(prices, *pr)
			return nil
		})
	})
	if err != nil {
		return err
	}
	products := make([]Product, len(data.Products))
	for i, p := range data.Products {
		products[i] = p.Product
	}
	var l storage.Loading
	storage.Load(&l, s.products, products, nil)
	storage.Load(&l, s.prices, prices, nil)
	return l.Write(ctx, d.Table)
}

// checkSeedRecord checks a record's id (as requests are normalised) and
// account, and fills in its timestamps.
func checkSeedRecord(id, accountID, now string, createdAt, updatedAt *string) error {
	var v validate.Errors
	if msg := validate.LowerHexIDProblem("_id", id); msg != "" {
		v.Add(msg)
	}
	v.ID("locationId", accountID)
	v.Time("createdAt", createdAt, now)
	v.Time("updatedAt", updatedAt, *createdAt)
	return v.Err()
}
