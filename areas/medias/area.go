// Package medias serves the Media library area: listing an account's files
// and folders, and renaming one.
package medias

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the Media library area.
var Area = app.Area{Name: "medias", Routes: routes, Seed: app.Seeder("medias", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{FileUpdated, FolderUpdated}}

type handler struct {
	store *Library
	clock clock.Clock
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewLibrary(d.Table), clock: d.Clock}
	return []route.Route{
		{Op: operations.ListMediaFiles, Handle: h.list},
		{Op: operations.UpdateMedia, Handle: h.rename},
	}
}
