// Package users serves the Users area: searching a company's users by
// e-mail address.
package users

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the Users area.
var Area = app.Area{Name: "users", Routes: routes, Seed: app.Seeder("users", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{UserCreated}}

type handler struct {
	store *Directory
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewDirectory(d.Table)}
	return []route.Route{
		{Op: operations.FilterUsersByEmail, Handle: h.filterByEmail},
	}
}
