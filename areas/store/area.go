// Package store serves the Store area: updating a shipping zone and one of
// its shipping rates.
package store

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the store area.
var Area = app.Area{Name: "store", Routes: routes, Seed: app.Seeder("store", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{ZoneUpdated, RateUpdated}}

type handler struct {
	store *Shipping
	clock clock.Clock
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewShipping(d.Table), clock: d.Clock}
	return []route.Route{
		{Op: operations.UpdateShippingZone, Handle: h.updateZone},
		{Op: operations.UpdateShippingRate, Handle: h.updateRate},
	}
}
