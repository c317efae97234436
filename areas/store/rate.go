package store

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// Rate is a shipping rate of a zone, in the public API's ShippingRateSchema
// fields and order.
type Rate struct {
	AltID       string  `dynamodbav:"altId" json:"altId"`
	AltType     string  `dynamodbav:"altType" json:"altType"`
	Name        string  `dynamodbav:"name" json:"name"`
	Description string  `dynamodbav:"description" json:"description"`
	Currency    string  `dynamodbav:"currency" json:"currency"`
	Amount      float64 `dynamodbav:"amount" json:"amount"`
	// ConditionType is none, price or weight.
	ConditionType string `dynamodbav:"conditionType" json:"conditionType"`
	// MinCondition and MaxCondition bound the order price or weight the
	// rate applies to; 0 means no bound (a null from a client is stored 0).
	MinCondition  float64 `dynamodbav:"minCondition" json:"minCondition"`
	MaxCondition  float64 `dynamodbav:"maxCondition" json:"maxCondition"`
	IsCarrierRate bool    `dynamodbav:"isCarrierRate" json:"isCarrierRate"`
	// The carrier fields are empty unless IsCarrierRate.
	ShippingCarrierID       string           `dynamodbav:"shippingCarrierId" json:"shippingCarrierId"`
	PercentageOfRateFee     *float64         `dynamodbav:"percentageOfRateFee" json:"percentageOfRateFee,omitempty"`
	ShippingCarrierServices []CarrierService `dynamodbav:"shippingCarrierServices" json:"shippingCarrierServices"`
	ID                      string           `dynamodbav:"id" json:"_id"`
	ShippingZoneID          string           `dynamodbav:"shippingZoneId" json:"shippingZoneId"`
	CreatedAt               string           `dynamodbav:"createdAt" json:"createdAt"`
	UpdatedAt               string           `dynamodbav:"updatedAt" json:"updatedAt"`
}

// CarrierService is a service of the carrier a carrier rate quotes.
type CarrierService struct {
	Name  string `dynamodbav:"name" json:"name"`
	Value string `dynamodbav:"value" json:"value"`
}

// Rates are stored under their zone's key, so a rate is found only through
// the zone it belongs to, and one range query reads a zone with its rates
// (zoneWithRates).
func rateKey(accountID, zoneID, rateID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: ratesPrefix(zoneID) + rateID}
}

func ratesPrefix(zoneID string) string { return zoneKey("", zoneID).SK + ratesInfix }

// ratesInfix separates a zone's sort key from its rates' ids.
const ratesInfix = "#RATE#"

type rateItem struct {
	storage.Key
	Version int64 `dynamodbav:"version"`
	Rate
}

func (r *Rate) normalize() {
	if r.ShippingCarrierServices == nil {
		r.ShippingCarrierServices = []CarrierService{}
	}
}

func (r *Rate) stamp(now string) { r.UpdatedAt = now }

// GetRate returns the zone's rate, or nil.
func (s *Shipping) GetRate(ctx context.Context, accountID, zoneID, rateID string) (*Rate, error) {
	item, err := s.rate(ctx, accountID, zoneID, rateID)
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Rate, nil
}

func (s *Shipping) rate(ctx context.Context, accountID, zoneID, rateID string) (*rateItem, error) {
	item, err := storage.Get[rateItem](ctx, s.table, rateKey(accountID, zoneID, rateID))
	if err != nil || item == nil {
		return nil, err
	}
	item.normalize()
	return item, nil
}

// UpdateRate applies change to the zone's rate like UpdateZone does to a
// zone: versioned, retried on conflict, not written when nothing changes.
func (s *Shipping) UpdateRate(ctx context.Context, accountID, zoneID, rateID string, at time.Time, change func(Rate) (Rate, error)) (Rate, error) {
	now := clock.Timestamp(at)
	item, err := storage.UpdateVersioned(ctx, s.table, rateKey(accountID, zoneID, rateID),
		func(item *rateItem) error { return revise(&item.Rate, change, now) },
		storage.Alongside(func(tx *storage.Tx, changed *rateItem) {
			rate := changed.Rate
			rate.normalize()
			RateUpdated.Add(tx, events.Owner{LocationID: accountID}, rate, at)
		}))
	if err != nil {
		return Rate{}, err
	}
	if item == nil {
		return Rate{}, ErrNotFound
	}
	item.normalize()
	return item.Rate, nil
}
