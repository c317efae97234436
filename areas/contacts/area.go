// Package contacts serves the Contacts area: the account's contacts (list,
// search, create, get, update, upsert, delete, the duplicate check), their
// tags, and deleting a contact's task.
package contacts

import (
	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
)

// Area is the Contacts area.
var Area = app.Area{Name: "contacts", Routes: routes, Seed: app.Seeder("contacts", seed), GuardRetries: idempotency.GuardRoutes,
	Events: []events.Type{
		contactstore.TaskDeleted,
		contactstore.ContactCreated,
		contactstore.ContactUpdated,
		contactstore.ContactDeleted,
		contactstore.ContactTagsUpdated,
		contactstore.ContactDNDUpdated,
	}}

type handler struct {
	store *contactstore.Contacts
	clock clock.Clock
}

func routes(d app.Deps) []route.Route {
	h := &handler{store: contactstore.NewContacts(d.Table), clock: d.Clock}
	return []route.Route{
		{Op: operations.ListContacts, Handle: h.list},
		{Op: operations.DeleteTask, Handle: h.deleteTask},
		{Op: operations.CreateContact, Handle: h.createContact},
		{Op: operations.GetContact, Handle: h.getContact},
		{Op: operations.UpdateContact, Handle: h.updateContact},
		{Op: operations.DeleteContact, Handle: h.deleteContact},
		{Op: operations.UpsertContact, Handle: h.upsertContact},
		{Op: operations.GetDuplicateContact, Handle: h.getDuplicateContact},
		{Op: operations.SearchContactsAdvanced, Handle: h.searchContactsAdvanced},
		{Op: operations.AddTags, Handle: h.addTags},
		{Op: operations.RemoveTags, Handle: h.removeTags},
	}
}
