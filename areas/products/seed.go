package products

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
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

func seed(ctx context.Context, d app.Deps, raw json.RawMessage) error {
	var data SeedData
	if err := app.DecodeSeed("products", raw, &data); err != nil {
		return err
	}
	now := clock.Timestamp(d.Clock.Now())
	var items []any
	for _, p := range data.Products {
		if err := checkSeedIDs("product", p.ID, p.LocationID); err != nil {
			return err
		}
		if err := stamp("product", p.ID, &p.CreatedAt, &p.UpdatedAt, now); err != nil {
			return err
		}
		items = append(items, productItem{Key: productKey(p.LocationID, p.ID), Product: p.Product})
		for _, pr := range p.Prices {
			if err := checkSeedIDs("price", pr.ID, p.LocationID); err != nil {
				return err
			}
			if pr.AvailableQuantity != nil && (*pr.AvailableQuantity < 0 || *pr.AvailableQuantity > MaxAvailableQuantity) {
				return fmt.Errorf("products: price %s: availableQuantity out of range", pr.ID)
			}
			pr.ProductID, pr.LocationID = p.ID, p.LocationID
			if err := stamp("price", pr.ID, &pr.CreatedAt, &pr.UpdatedAt, now); err != nil {
				return err
			}
			items = append(items, priceItem{Key: priceKey(p.LocationID, pr.ID), Price: pr})
		}
	}
	return d.Table.BatchPut(ctx, items)
}

// checkSeedIDs checks a record's 24-hex id (stored lower case, as requests
// are normalised) and its account id.
func checkSeedIDs(kind, id, accountID string) error {
	if !validate.IsHexID(id) || strings.ToLower(id) != id {
		return fmt.Errorf("products: %s id %q must be a lower-case 24-character hexadecimal id", kind, id)
	}
	if msg := validate.IDProblem("locationId", accountID); msg != "" {
		return fmt.Errorf("products: %s %s: %s", kind, id, msg)
	}
	return nil
}

// stamp fills missing timestamps with now and checks given ones.
func stamp(kind, id string, created, updated *string, now string) error {
	for _, ts := range []*string{created, updated} {
		if *ts == "" {
			*ts = now
		} else if _, err := time.Parse(time.RFC3339, *ts); err != nil {
			return fmt.Errorf("products: %s %s: %w", kind, id, err)
		}
	}
	return nil
}
