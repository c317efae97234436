// Package associations serves the associations area: defining an
// association between two object kinds (contact to contact, contact to
// custom object) and relating two records under it. It also owns, for now,
// the account's custom object definitions and records that associations
// point at.
package associations

import (
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// Area is the associations area.
var Area = app.Area{Name: "associations", Routes: routes, Seed: app.Seeder("associations", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{AssociationCreated, RelationCreated}}

type handler struct {
	store    *Graph
	contacts *contactstore.Contacts
	clock    clock.Clock
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: NewGraph(d.Table), contacts: contactstore.NewContacts(d.Table), clock: d.Clock}
	return []route.Route{
		{Op: operations.CreateAssociation, Handle: h.createAssociation},
		{Op: operations.CreateRelation, Handle: h.createRelation},
	}
}
