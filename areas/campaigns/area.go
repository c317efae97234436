// Package campaigns serves the Campaigns area: listing an account's
// campaigns.
package campaigns

import (
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the Campaigns area.
var Area = app.Area{Name: "campaigns", Routes: routes, Seed: app.Seeder("campaigns", seed)}

type handler struct {
	store *Catalog
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewCatalog(d.Table)}
	return []route.Route{
		{Op: operations.ListCampaigns, Handle: h.list},
	}
}
