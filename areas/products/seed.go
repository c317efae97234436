package products

import (
	"context"
	"errors"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
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

// seed checks every product and price before it writes any.
func seed(ctx context.Context, d app.Deps, data SeedData) error {
	s := NewCatalog(d.Table)
	now := clock.Timestamp(d.Clock.Now())
	products := make([]Product, len(data.Products))
	var prices []Price
	for i, p := range data.Products {
		products[i] = p.Product
		for _, pr := range p.Prices {
			pr.ProductID, pr.LocationID = p.ID, p.LocationID
			prices = append(prices, pr)
		}
	}
	var l storage.Loading
	storage.Load(&l, s.products, products, func(p *Product) error {
		return checkSeedRecord(p.ID, p.LocationID, now, &p.CreatedAt, &p.UpdatedAt)
	})
	storage.Load(&l, s.prices, prices, func(pr *Price) error {
		if q := pr.AvailableQuantity; q != nil && (*q < 0 || *q > MaxAvailableQuantity) {
			return errors.New("availableQuantity out of range")
		}
		return checkSeedRecord(pr.ID, pr.LocationID, now, &pr.CreatedAt, &pr.UpdatedAt)
	})
	return l.Write(ctx, d.Table)
}

// checkSeedRecord checks a record's id (as requests are normalised) and
// account, and stamps its missing timestamps with now.
func checkSeedRecord(id, accountID, now string, timestamps ...*string) error {
	if msg := validate.LowerHexIDProblem("id", id) + validate.IDProblem("locationId", accountID); msg != "" {
		return errors.New(msg)
	}
	return validate.Stamp(now, timestamps...)
}
