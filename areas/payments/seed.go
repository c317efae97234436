package payments

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the payments part of a demo dataset.
type SeedData struct {
	Coupons   []Coupon       `json:"coupons"`
	Providers []SeedProvider `json:"providers"`
}

// SeedProvider is a white-label provider with the uniqueName it was created
// with; its route is derived from the uniqueName, as on creation.
type SeedProvider = NamedProvider

// seed checks every coupon and provider before it writes any.
func seed(ctx context.Context, d app.Deps, data SeedData) error {
	s := NewRecords(d.Table)
	var l storage.Loading
	storage.Load(&l, s.coupons, data.Coupons, checkSeedCoupon)
	storage.Load(&l, s.providers, data.Providers, checkSeedProvider)
	return l.Write(ctx, d.Table)
}

// checkSeedCoupon rejects a coupon the API could not have created, and fills
// in defaults.
func checkSeedCoupon(c *Coupon) error {
	if msg := validate.IDProblem("_id", c.ID) + validate.IDProblem("altId", c.AltID); msg != "" {
		return fmt.Errorf("%s", msg)
	}
	if c.AltType == "" {
		c.AltType = validate.AltType
	}
	switch {
	case c.AltType != validate.AltType:
		return fmt.Errorf("altType must be %s", validate.AltType)
	case c.Name == "" || c.Code == "":
		return fmt.Errorf("name and code are required")
	case !slices.Contains([]string{DiscountPercentage, DiscountAmount}, c.DiscountType):
		return fmt.Errorf("discountType must be %s or %s", DiscountPercentage, DiscountAmount)
	case c.DiscountValue <= 0 || (c.DiscountType == DiscountPercentage && c.DiscountValue > 100):
		return fmt.Errorf("discountValue %v is out of range", c.DiscountValue)
	case !slices.Contains([]string{CouponScheduled, CouponActive, CouponExpired}, c.Status):
		return fmt.Errorf("status must be %s, %s or %s", CouponScheduled, CouponActive, CouponExpired)
	}
	for name, ts := range map[string]string{"startDate": c.StartDate, "createdAt": c.CreatedAt, "updatedAt": c.UpdatedAt} {
		if _, err := time.Parse(time.RFC3339, ts); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if c.EndDate != "" {
		if _, err := time.Parse(time.RFC3339, c.EndDate); err != nil {
			return fmt.Errorf("endDate: %w", err)
		}
	}
	if c.ProductIDs == nil {
		c.ProductIDs = []string{}
	}
	return nil
}

// checkSeedProvider applies the creation rules to a demo provider.
func checkSeedProvider(p *SeedProvider) error {
	if msg := validate.IDProblem("_id", p.ID) + validate.IDProblem("altId", p.AltID) + uniqueNameProblem(p.UniqueName); msg != "" {
		return fmt.Errorf("%s", msg)
	}
	if p.AltType == "" {
		p.AltType = validate.AltType
	}
	switch {
	case p.AltType != validate.AltType:
		return fmt.Errorf("altType must be %s", validate.AltType)
	case !slices.Contains(gateways, p.Provider.Provider):
		return fmt.Errorf("provider must be one of %v", gateways)
	case p.Title == "" || p.Description == "":
		return fmt.Errorf("title and description are required")
	case validate.OutsideURLProblem(p.ImageURL) != "":
		return fmt.Errorf("imageUrl %s: %s", validate.OutsideURLRule, validate.OutsideURLProblem(p.ImageURL))
	}
	for name, ts := range map[string]string{"createdAt": p.CreatedAt, "updatedAt": p.UpdatedAt} {
		if _, err := time.Parse(time.RFC3339, ts); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	p.Route = routeOf(p.UniqueName)
	return nil
}
