package payments

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// Records reads and writes the payments area's records: white-label providers
// and coupons, each in its account's partition.
type Records struct {
	coupons   *storage.AccountItems[Coupon]
	providers *storage.AccountItems[NamedProvider]
}

// NewRecords returns the records on table. Coupons are stored by id: a
// coupon id of another account is simply not found. A provider is stored
// under its uniqueName rather than its _id: the key itself keeps "one
// provider per uniqueName per account", and a create is one conditional put
// (attribute_not_exists), so of concurrent creates with one name exactly one
// stores its provider, whole. No operation finds a provider by _id, so no
// second item (and no transaction, at twice the write units) is needed.
func NewRecords(table *storage.Table) *Records {
	return &Records{
		coupons:   storage.NewAccountItems(table, "COUPON#", func(c Coupon) (string, string) { return c.AltID, c.ID }),
		providers: storage.NewAccountItems(table, "WHITELABELPROVIDER#", func(p NamedProvider) (string, string) { return p.AltID, p.UniqueName }),
	}
}

// GetCoupon returns the account's coupon, or nil when it has none with id.
func (s *Records) GetCoupon(ctx context.Context, accountID, id string) (*Coupon, error) {
	return s.coupons.Get(ctx, accountID, id)
}

// The area's events.
var (
	CouponDeleted = events.Type{
		Name: "CouponDelete", Scope: "payments/coupons.write", Version: 1,
		Summary: "A coupon was deleted (DELETE /payments/coupon): the coupon as it was.",
		Fields:  Coupon{},
	}
	ProviderCreated = events.Type{
		Name: "WhitelabelProviderCreate", Scope: "payments/integration.write", Version: 1,
		Summary: "A white-label payment provider was created (POST /payments/integrations/provider/whitelabel).",
		Fields:  Provider{},
	}
)

// DeleteCoupon permanently deletes the account's coupon, with its
// CouponDelete event, in one transaction on condition that the coupon is
// still as read: of concurrent deletes exactly one reports true (and makes
// the event); it reports false when the account has no coupon with id.
func (s *Records) DeleteCoupon(ctx context.Context, accountID, id string, now time.Time) (bool, error) {
	return s.coupons.DeleteAlong(ctx, accountID, id, func(tx *storage.Tx, old Coupon) {
		CouponDeleted.Add(tx, events.Owner{LocationID: accountID}, old, now)
	})
}

// CreateProvider stores p under uniqueName in its account (p.AltID), with
// its WhitelabelProviderCreate event. It reports false, storing nothing,
// when the account already has a provider with that uniqueName.
func (s *Records) CreateProvider(ctx context.Context, uniqueName string, p Provider, now time.Time) (bool, error) {
	return s.providers.CreateAlong(ctx, NamedProvider{UniqueName: uniqueName, Provider: p}, func(tx *storage.Tx) {
		ProviderCreated.Add(tx, events.Owner{LocationID: p.AltID}, p, now)
	})
}

// GetProvider returns the account's provider with uniqueName, or nil.
func (s *Records) GetProvider(ctx context.Context, accountID, uniqueName string) (*Provider, error) {
	named, err := s.providers.Get(ctx, accountID, uniqueName)
	if err != nil || named == nil {
		return nil, err
	}
	return &named.Provider, nil
}

// ListProviders returns every white-label provider of the account, ordered
// by uniqueName.
func (s *Records) ListProviders(ctx context.Context, accountID string) ([]Provider, error) {
	named, err := s.providers.List(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make([]Provider, len(named))
	for i, n := range named {
		out[i] = n.Provider
	}
	return out, nil
}
