// Package surveys serves the Surveys area: listing an account's surveys and
// survey folders.
package surveys

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the Surveys area.
var Area = app.Area{Name: "surveys", Routes: routes, Seed: app.Seeder("surveys", seed)}

type handler struct {
	store *Catalog
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewCatalog(d.Table)}
	return []route.Route{
		{Op: operations.ListSurveys, Handle: h.list},
	}
}
