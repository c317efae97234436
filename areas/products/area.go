// Package products serves the Products area: the bulk update of inventory
// per price.
package products

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the products area.
var Area = app.Area{Name: "products", Routes: routes, Seed: app.Seeder("products", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{InventoryUpdated}}

type handler struct {
	store *Catalog
	clock clock.Clock
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewCatalog(d.Table), clock: d.Clock}
	return []route.Route{
		{Op: operations.UpdateInventory, Handle: h.updateInventory},
	}
}
