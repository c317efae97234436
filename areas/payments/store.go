package payments

import (
	"context"

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

// DeleteCoupon permanently deletes the account's coupon. It is one
// conditional DeleteItem, so of concurrent deletes exactly one reports
// true; it reports false when the account has no coupon with id.
func (s *Records) DeleteCoupon(ctx context.Context, accountID, id string) (bool, error) {
	return s.coupons.Delete(ctx, accountID, id)
}

// CreateProvider stores p under uniqueName in its account (p.AltID). It
// reports false, storing nothing, when the account already has a provider
// with that uniqueName.
func (s *Records) CreateProvider(ctx context.Context, uniqueName string, p Provider) (bool, error) {
	return s.providers.Create(ctx, NamedProvider{UniqueName: uniqueName, Provider: p})
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
