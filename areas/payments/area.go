// Package payments serves the payments area: creating a white-label payment
// integration provider and deleting a coupon.
package payments

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the payments area.
var Area = app.Area{Name: "payments", Routes: routes, Seed: app.Seeder("payments", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{CouponDeleted, ProviderCreated}}

type handler struct {
	store *Records
	deps  wiring.Deps
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewRecords(d.Table), deps: d}
	return []route.Route{
		{Op: operations.CreateWhitelabelProvider, Handle: h.createProvider},
		{Op: operations.DeleteCoupon, Handle: h.deleteCoupon},
	}
}
