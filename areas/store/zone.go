package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// Zone is a shipping zone, in the public API's ShippingZoneSchema fields
// (its rates are separate items, see Rate).
type Zone struct {
	ID        string    `dynamodbav:"id" json:"_id"`
	AltID     string    `dynamodbav:"altId" json:"altId"`
	AltType   string    `dynamodbav:"altType" json:"altType"`
	Name      string    `dynamodbav:"name" json:"name"`
	Countries []Country `dynamodbav:"countries" json:"countries"`
	CreatedAt string    `dynamodbav:"createdAt" json:"createdAt"`
	UpdatedAt string    `dynamodbav:"updatedAt" json:"updatedAt"`
}

// Country is a country a zone ships to. No states means every state.
type Country struct {
	Code   string  `dynamodbav:"code" json:"code"`
	States []State `dynamodbav:"states" json:"states"`
}

// State is a state of a country a zone ships to.
type State struct {
	Code string `dynamodbav:"code" json:"code"`
}

// Zones are stored by id in their account's partition. version guards
// read-modify-write updates (see storage.UpdateVersioned).
func zoneKey(accountID, zoneID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "SHIPZONE#" + zoneID}
}

type zoneItem struct {
	storage.Key
	Version int64 `dynamodbav:"version"`
	Zone
}

// normalize gives absent lists their empty value, so a zone always answers
// "states": [] rather than null, and comparisons ignore the difference.
func (z *Zone) normalize() {
	if z.Countries == nil {
		z.Countries = []Country{}
	}
	for i := range z.Countries {
		if z.Countries[i].States == nil {
			z.Countries[i].States = []State{}
		}
	}
}

func (z *Zone) stamp(now string) { z.UpdatedAt = now }

// Shipping reads and writes shipping zones and their rates.
type Shipping struct {
	table *storage.Table
}

// NewShipping returns the shipping on table.
func NewShipping(table *storage.Table) *Shipping { return &Shipping{table: table} }

// ErrNotFound is returned when the account has no such zone or rate.
var ErrNotFound = errors.New("not found")

// GetZone returns the account's zone, or nil.
func (s *Shipping) GetZone(ctx context.Context, accountID, zoneID string) (*Zone, error) {
	item, err := s.zone(ctx, accountID, zoneID)
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Zone, nil
}

// Version returns the zone's version: the number of updates it has had.
func (s *Shipping) Version(ctx context.Context, accountID, zoneID string) (int64, error) {
	item, err := s.zone(ctx, accountID, zoneID)
	if err != nil || item == nil {
		return 0, err
	}
	return item.Version, nil
}

// zoneWithRates reads the zone and its rates (in id order) in one query:
// the zone's sort key, then its rates' keys, which extend it with '#', a
// character no id holds, so the range holds nothing else. It returns the
// zone's attributes, nil when there is no such zone.
func (s *Shipping) zoneWithRates(ctx context.Context, key storage.Key) (map[string]types.AttributeValue, []Rate, error) {
	items, err := storage.QueryRange(ctx, s.table, key.PK, key.SK, key.SK+"#\uffff")
	if err != nil {
		return nil, nil, err
	}
	var zone map[string]types.AttributeValue
	rates := []Rate{}
	for _, raw := range items {
		var k storage.Key
		if err := attributevalue.UnmarshalMap(raw, &k); err != nil {
			return nil, nil, fmt.Errorf("decode key: %w", err)
		}
		switch {
		case k.SK == key.SK:
			zone = raw
		case strings.HasPrefix(k.SK, key.SK+ratesInfix):
			var r rateItem
			if err := attributevalue.UnmarshalMap(raw, &r); err != nil {
				return nil, nil, fmt.Errorf("decode rate %s: %w", k.SK, err)
			}
			r.normalize()
			rates = append(rates, r.Rate)
		}
	}
	return zone, rates, nil
}

func (s *Shipping) zone(ctx context.Context, accountID, zoneID string) (*zoneItem, error) {
	item, err := storage.Get[zoneItem](ctx, s.table, zoneKey(accountID, zoneID))
	if err != nil || item == nil {
		return nil, err
	}
	item.normalize()
	return item, nil
}

// The area's events: the zone or rate as updated.
var (
	ZoneUpdated = events.Type{
		Name: "ShippingZoneUpdate", Scope: "products.readonly", Version: 1,
		Summary: "A shipping zone was updated (PUT /store/shipping-zone/{shippingZoneId}).",
		Fields:  Zone{},
	}
	RateUpdated = events.Type{
		Name: "ShippingRateUpdate", Scope: "products.readonly", Version: 1,
		Summary: "A shipping rate was updated (PUT /store/shipping-zone/{shippingZoneId}/shipping-rate/{shippingRateId}).",
		Fields:  Rate{},
	}
)

// UpdateZone applies change to the account's zone and stores the result,
// stamped updatedAt now, unless it changes nothing. change may run more
// than once (once per attempt, on the latest stored zone); an error from it
// ends the update. It returns ErrNotFound when there is no such zone.
// It also returns the zone's rates, read with the zone, which the update
// leaves unchanged.
func (s *Shipping) UpdateZone(ctx context.Context, accountID, zoneID string, at time.Time, change func(Zone) (Zone, error)) (Zone, []Rate, error) {
	key, now := zoneKey(accountID, zoneID), clock.Timestamp(at)
	var rates []Rate
	item, err := storage.UpdateVersioned(ctx, s.table, key,
		func(item *zoneItem) error { return revise(&item.Zone, change, now) },
		storage.Alongside(func(tx *storage.Tx, changed *zoneItem) {
			zone := changed.Zone
			zone.normalize()
			ZoneUpdated.Add(tx, events.Owner{LocationID: accountID}, zone, at)
		}),
		storage.ReadWith(func(ctx context.Context) (map[string]types.AttributeValue, error) {
			zone, zoneRates, err := s.zoneWithRates(ctx, key)
			rates = zoneRates
			return zone, err
		}))
	if err != nil {
		return Zone{}, nil, err
	}
	if item == nil {
		return Zone{}, nil, ErrNotFound
	}
	item.normalize()
	return item.Zone, rates, nil
}
