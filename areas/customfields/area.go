// Package customfields serves the custom-fields area: updating a custom
// field of a custom object or of the company object.
package customfields

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the custom-fields area.
var Area = app.Area{Name: "custom-fields", Routes: routes, Seed: app.Seeder("custom-fields", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{FieldUpdated}}

type handler struct {
	store *Fields
	clock clock.Clock
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewFields(d.Table), clock: d.Clock}
	return []route.Route{{Op: operations.UpdateCustomField, Handle: h.update}}
}
