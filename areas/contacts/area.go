// Package contacts serves the Contacts area: listing an account's contacts
// and deleting a contact's task.
package contacts

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

// Area is the Contacts area.
var Area = app.Area{Name: "contacts", Routes: routes, Seed: app.Seeder("contacts", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{contactstore.TaskDeleted}}

type handler struct {
	store *contactstore.Contacts
	clock clock.Clock
}

func routes(d wiring.Deps) []route.Route {
	h := &handler{store: contactstore.NewContacts(d.Table), clock: d.Clock}
	return []route.Route{
		{Op: operations.ListContacts, Handle: h.list},
		{Op: operations.DeleteTask, Handle: h.deleteTask},
	}
}
