// Package brandboards serves the brand-boards area: creating an account's
// brand board of logos, colors and fonts, optionally copied from another of
// its boards and optionally made the account's default.
package brandboards

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the brand-boards area.
var Area = app.Area{Name: "brand-boards", Routes: routes, Seed: app.Seeder("brand-boards", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{BoardCreated}}

type handler struct {
	store *Boards
	clock clock.Clock
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewBoards(d.Table), clock: d.Clock}
	return []route.Route{{Op: operations.CreateBrandBoard, Handle: h.create}}
}
