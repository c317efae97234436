package main

import (
	"fmt"
	"time"

	"github.com/bizplatform/api/internal/gen"
)

// The demo products and prices (products.json) and shipping zones and rates
// (store.json). Ids are 24-character hexadecimal (the public API's database
// id format) and readable:
//
//	<account:2><kind:2><zeros:16><serial:4>
//	account  a1 = demoLocAlpha00000001, b2 = demoLocBravo00000002
//	kind     01 product, 02 price, 03 shipping zone, 04 shipping rate, 05 shipping carrier
//	serial   product or zone: 00NN; price or rate: NNMM (the MMth of the NNth)
//
// so a1020000000000000000 0301 is Alpha's first price of its third product.

// hexID is a readable 24-hex demo id.
func hexID(acct demoAccount, kind string, serial int) string {
	prefix := map[string]string{alpha.id: "a1", bravo.id: "b2"}[acct.id]
	return fmt.Sprintf("%s%s%016d%04d", prefix, kind, 0, serial)
}

// nthOf is the serial of the mth item of the nth product or zone.
func nthOf(n, m int) int { return n*100 + m }

// children are a product's prices or a zone's rates, each given its id and
// times by stamp (m counts from 1).
func children[T any](items []T, stamp func(m int, item *T)) []T {
	out := make([]T, len(items))
	for i, item := range items {
		stamp(i+1, &item)
		out[i] = item
	}
	return out
}

type product struct {
	ID               string  `json:"_id"`
	LocationID       string  `json:"locationId"`
	Name             string  `json:"name"`
	Description      string  `json:"description"`
	ProductType      string  `json:"productType"`
	AvailableInStore bool    `json:"availableInStore"`
	CreatedAt        string  `json:"createdAt"`
	UpdatedAt        string  `json:"updatedAt"`
	Prices           []price `json:"prices"`
}

type price struct {
	ID                       string  `json:"_id"`
	Name                     string  `json:"name"`
	Type                     string  `json:"type"`
	Currency                 string  `json:"currency"`
	Amount                   float64 `json:"amount"`
	TrackInventory           bool    `json:"trackInventory"`
	AllowOutOfStockPurchases bool    `json:"allowOutOfStockPurchases"`
	CreatedAt                string  `json:"createdAt"`
	UpdatedAt                string  `json:"updatedAt"`
	AvailableQuantity        *int    `json:"availableQuantity,omitempty"`
}

// stock is a tracked price's quantity.
func stock(n int) *int { return &n }

func products() (string, error) {
	type row struct {
		name, description, productType string
		prices                         []price
	}
	p := func(name, typ string, amount float64, track bool, quantity *int, outOfStock bool) price {
		return price{Name: name, Type: typ, Currency: "USD", Amount: amount, TrackInventory: track,
			AllowOutOfStockPurchases: outOfStock, AvailableQuantity: quantity}
	}
	catalogues := []struct {
		acct demoAccount
		rows []row
	}{
		{alpha, []row{
			{"Whitening Kit", "At-home whitening gel and trays", "PHYSICAL", []price{
				p("Standard kit", "one_time", 49.0, true, stock(120), false),
				p("Refill gel (3 syringes)", "one_time", 19.5, true, stock(300), true),
			}},
			{"Electric Toothbrush", "Rechargeable sonic toothbrush", "PHYSICAL", []price{
				p("White", "one_time", 89.0, true, stock(40), false),
				p("Black", "one_time", 89.0, true, stock(0), false),
				p("Replacement heads (4 pack)", "one_time", 24.0, true, stock(250), true),
			}},
			{"Night Guard", "Custom-fitted night guard", "PHYSICAL", []price{
				p("Soft", "one_time", 180.0, true, stock(15), true),
				p("Hard", "one_time", 240.0, true, stock(8), true),
			}},
			{"Floss Picks", "Mint floss picks, 90 count", "PHYSICAL", []price{
				p("Single pack", "one_time", 4.5, true, stock(900), false),
				p("Box of 12", "one_time", 48.0, true, stock(60), false),
			}},
			{"Kids Dental Kit", "Toothbrush, timer and stickers", "PHYSICAL", []price{
				p("Kit", "one_time", 15.0, true, stock(75), false),
			}},
			{"Dental Care Plan", "Two cleanings and one check-up a year", "SERVICE", []price{
				p("Monthly", "recurring", 29.0, false, nil, false),
				p("Yearly", "recurring", 299.0, false, nil, false),
			}},
			{"Gift Card", "Redeemable for any treatment", "DIGITAL", []price{
				p("$50", "one_time", 50.0, false, nil, false),
				p("$100", "one_time", 100.0, false, nil, false),
			}},
			{"Travel Care Set", "Travel brush, paste and floss", "PHYSICAL", []price{
				p("Set", "one_time", 12.0, true, stock(200), false),
			}},
		}},
		{bravo, []row{
			{"Resistance Band Set", "Five bands, light to extra heavy", "PHYSICAL", []price{
				p("Set", "one_time", 35.0, true, stock(50), false),
			}},
			{"Foam Roller", "High-density foam roller", "PHYSICAL", []price{
				p("45 cm", "one_time", 25.0, true, stock(20), false),
				p("90 cm", "one_time", 39.0, true, stock(12), true),
			}},
		}},
	}
	var out []product
	for _, c := range catalogues {
		t := utc(2025, time.February, 3, 9, 0)
		for i, r := range c.rows {
			t = t.Add(3*24*time.Hour + 2*time.Hour + 17*time.Minute)
			at := timestamp(t)
			pr := product{ID: hexID(c.acct, "01", i+1), LocationID: c.acct.id, Name: r.name, Description: r.description,
				ProductType: r.productType, AvailableInStore: true, CreatedAt: at, UpdatedAt: at}
			pr.Prices = children(r.prices, func(m int, p *price) {
				p.ID, p.CreatedAt, p.UpdatedAt = hexID(c.acct, "02", nthOf(i+1, m)), at, at
			})
			out = append(out, pr)
		}
	}
	return gen.JSONFile(map[string]any{"products": out})
}

type shippingZone struct {
	ID            string         `json:"_id"`
	AltID         string         `json:"altId"`
	AltType       string         `json:"altType"`
	Name          string         `json:"name"`
	Countries     []country      `json:"countries"`
	CreatedAt     string         `json:"createdAt"`
	UpdatedAt     string         `json:"updatedAt"`
	ShippingRates []shippingRate `json:"shippingRates"`
}

type country struct {
	Code   string  `json:"code"`
	States []state `json:"states"`
}

type state struct {
	Code string `json:"code"`
}

func countryOf(code string, states ...string) country {
	c := country{Code: code, States: []state{}}
	for _, s := range states {
		c.States = append(c.States, state{s})
	}
	return c
}

type shippingRate struct {
	ID                      string           `json:"_id"`
	Name                    string           `json:"name"`
	Description             string           `json:"description"`
	Currency                string           `json:"currency"`
	Amount                  float64          `json:"amount"`
	ConditionType           string           `json:"conditionType"`
	MinCondition            int              `json:"minCondition"`
	MaxCondition            int              `json:"maxCondition"`
	IsCarrierRate           bool             `json:"isCarrierRate"`
	ShippingCarrierID       string           `json:"shippingCarrierId"`
	ShippingCarrierServices []carrierService `json:"shippingCarrierServices"`
	PercentageOfRateFee     int              `json:"percentageOfRateFee,omitempty"`
	CreatedAt               string           `json:"createdAt"`
	UpdatedAt               string           `json:"updatedAt"`
}

type carrierService struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// rate is a flat rate in USD with no condition; the options change that.
func rate(name string, amount float64, description string, options ...func(*shippingRate)) shippingRate {
	r := shippingRate{Name: name, Description: description, Currency: "USD", Amount: amount, ConditionType: "none",
		ShippingCarrierServices: []carrierService{}}
	for _, o := range options {
		o(&r)
	}
	return r
}

func condition(kind string, lo, hi int) func(*shippingRate) {
	return func(r *shippingRate) { r.ConditionType, r.MinCondition, r.MaxCondition = kind, lo, hi }
}

func currency(code string) func(*shippingRate) { return func(r *shippingRate) { r.Currency = code } }

// carrierRate is a live carrier rate plus a 10% handling fee.
func carrierRate(r *shippingRate) {
	r.IsCarrierRate = true
	r.ShippingCarrierID = hexID(alpha, "05", 1)
	r.PercentageOfRateFee = 10
	r.ShippingCarrierServices = []carrierService{
		{"Priority Mail Express International", "PriorityMailExpressInternational"},
		{"Priority Mail International", "PriorityMailInternational"},
	}
}

func store() (string, error) {
	type zone struct {
		name      string
		countries []country
		rates     []shippingRate
	}
	zones := []struct {
		acct  demoAccount
		zones []zone
	}{
		{alpha, []zone{
			{"Domestic (US)", []country{countryOf("US")}, []shippingRate{
				rate("Standard", 5.99, "3-5 business days"),
				rate("Free over $100", 0, "3-5 business days", condition("price", 100, 0)),
				rate("Express", 19.5, "Next business day"),
			}},
			{"West Coast", []country{countryOf("US", "CA", "OR", "WA"), countryOf("CA", "BC")}, []shippingRate{
				rate("Regional ground", 4.5, "2-3 business days"),
				rate("Heavy parcel", 14, "For 5-30 kg", condition("weight", 5, 30)),
			}},
			{"Europe", []country{countryOf("DE"), countryOf("FR"), countryOf("GB", "ENG", "SCT", "WLS", "NIR"), countryOf("IT"), countryOf("ES")}, []shippingRate{
				rate("International standard", 24, "7-14 business days", currency("EUR")),
				rate("Carrier quote", 2.5, "Live carrier rate plus handling", carrierRate),
			}},
			{"Asia Pacific", []country{countryOf("JP", "JP-13", "JP-27"), countryOf("AU", "NSW", "VIC"), countryOf("NZ")}, []shippingRate{
				rate("Economy air", 29, "10-20 business days", condition("price", 0, 500)),
			}},
		}},
		{bravo, []zone{
			{"Local delivery", []country{countryOf("PT", "PT-11", "PT-13")}, []shippingRate{
				rate("Courier", 6, "Same day in Lisbon and Porto", currency("EUR")),
			}},
		}},
	}
	var out []shippingZone
	for _, a := range zones {
		t := utc(2025, time.March, 4, 10, 0)
		for i, z := range a.zones {
			t = t.Add(2*24*time.Hour + time.Hour + 41*time.Minute)
			at := timestamp(t)
			out = append(out, shippingZone{ID: hexID(a.acct, "03", i+1), AltID: a.acct.id, AltType: "account", Name: z.name,
				Countries: z.countries, CreatedAt: at, UpdatedAt: at,
				ShippingRates: children(z.rates, func(m int, r *shippingRate) {
					r.ID, r.CreatedAt, r.UpdatedAt = hexID(a.acct, "04", nthOf(i+1, m)), at, at
				})})
		}
	}
	return gen.JSONFile(map[string]any{"shippingZones": out})
}
