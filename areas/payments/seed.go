package payments

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the payments part of a demo dataset.
type SeedData struct {
	Coupons   []Coupon       `json:"coupons"`
	Providers []SeedProvider `json:"providers"`
}

// SeedProvider is a white-label provider with the uniqueName it was created
// with; its route is derived from the uniqueName, as on creation.
type SeedProvider = NamedProvider

// seed checks every coupon and provider, and fills in what the file leaves
// out, before it writes any.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	s := NewRecords(d.Table)
	now := d.Clock.Now()
	err := app.CheckRecords("coupons", data.Coupons, func(c *Coupon) (string, string) { return c.AltID, c.ID }, func(c *Coupon) error {
		return checkSeedCoupon(c, now)
	})
	if err == nil {
		err = app.CheckRecords("providers", data.Providers, func(p *SeedProvider) (string, string) { return p.AltID, p.ID }, func(p *SeedProvider) error {
			return checkSeedProvider(p, clock.Timestamp(now))
		})
	}
	if err != nil {
		return err
	}
	var l storage.Loading
	storage.Load(&l, s.coupons, data.Coupons, nil)
	storage.Load(&l, s.providers, data.Providers, nil)
	return l.Write(ctx, d.Table)
}

// checkSeedCoupon rejects a coupon the API could not have created, and fills
// in defaults: altType account, createdAt and startDate now, updatedAt
// createdAt, the status the dates give at now, no products.
func checkSeedCoupon(c *Coupon, now time.Time) error {
	var v validate.Errors
	v.ID("_id", c.ID)
	v.ID("altId", c.AltID)
	if c.AltType == "" {
		c.AltType = validate.AltType
	}
	v.OneOf("altType", c.AltType, validate.AltType)
	v.Required("name", &c.Name)
	v.Required("code", &c.Code)
	if v.OneOf("discountType", c.DiscountType, DiscountPercentage, DiscountAmount) {
		v.Check(c.DiscountValue > 0 && (c.DiscountType != DiscountPercentage || c.DiscountValue <= 100),
			"discountValue must be above 0, and at most 100 for a percentage")
	}
	v.Time("createdAt", &c.CreatedAt, clock.Timestamp(now))
	v.Time("updatedAt", &c.UpdatedAt, c.CreatedAt)
	v.Time("startDate", &c.StartDate, c.CreatedAt)
	if c.EndDate != "" {
		v.Time("endDate", &c.EndDate, "")
	}
	if err := v.Err(); err != nil {
		return err
	}
	if c.Status == "" {
		c.Status = couponStatusAt(*c, now)
	}
	v.OneOf("status", c.Status, CouponScheduled, CouponActive, CouponExpired)
	if c.ProductIDs == nil {
		c.ProductIDs = []string{}
	}
	return v.Err()
}

// couponStatusAt is the status c's dates (RFC 3339, checked) give at now.
func couponStatusAt(c Coupon, now time.Time) string {
	start, _ := time.Parse(time.RFC3339, c.StartDate)
	end, _ := time.Parse(time.RFC3339, c.EndDate)
	switch {
	case now.Before(start):
		return CouponScheduled
	case c.EndDate != "" && !now.Before(end):
		return CouponExpired
	default:
		return CouponActive
	}
}

// checkSeedProvider applies the creation rules to a demo provider, and
// fills in what the creation would: altType account, createdAt now,
// updatedAt createdAt, the route.
func checkSeedProvider(p *SeedProvider, now string) error {
	var v validate.Errors
	v.ID("_id", p.ID)
	v.ID("altId", p.AltID)
	if msg := uniqueNameProblem(p.UniqueName); msg != "" {
		v.Add(msg)
	}
	if p.AltType == "" {
		p.AltType = validate.AltType
	}
	v.OneOf("altType", p.AltType, validate.AltType)
	v.OneOf("provider", p.Provider.Provider, gateways...)
	v.Required("title", &p.Title)
	v.Required("description", &p.Description)
	v.OutsideURL("imageUrl", p.ImageURL)
	v.Time("createdAt", &p.CreatedAt, now)
	v.Time("updatedAt", &p.UpdatedAt, p.CreatedAt)
	p.Route = routeOf(p.UniqueName)
	return v.Err()
}
