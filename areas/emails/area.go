// Package emails serves the Email templates area: creating an e-mail
// template, a template folder or an imported template.
package emails

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the emails area.
var Area = app.Area{Name: "emails", Routes: routes, Seed: app.Seeder("emails", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{TemplateCreated}}

type handler struct {
	store *Templates
	clock clock.Clock
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewTemplates(d.Table), clock: d.Clock}
	return []route.Route{
		{Op: operations.CreateEmailTemplate, Handle: h.createTemplate},
	}
}
