// Package contacts serves the Contacts area: the account's contacts (list,
// search, create, get, update, upsert, delete, the duplicate check), their
// tags, and each contact's tasks and notes.
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
	Events: []events.Type{
		contactstore.TaskDeleted,
		contactstore.ContactCreated,
		contactstore.ContactUpdated,
		contactstore.ContactDeleted,
		contactstore.ContactTagsUpdated,
		contactstore.ContactDNDUpdated,
		contactstore.TaskCreated, contactstore.TaskCompleted, contactstore.TaskUpdated,
		contactstore.NoteCreated, contactstore.NoteUpdated, contactstore.NoteDeleted,
	}}

type handler struct {
	store *contactstore.Contacts
	clock clock.Clock
}

func routes(d wiring.Deps) []route.Route {
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
		{Op: operations.GetAllTasks, Handle: h.listTasks},
		{Op: operations.CreateTask, Handle: h.createTask},
		{Op: operations.GetTask, Handle: h.getTask},
		{Op: operations.UpdateTask, Handle: h.updateTask},
		{Op: operations.UpdateTaskCompleted, Handle: h.completeTask},
		{Op: operations.GetAllNotes, Handle: h.listNotes},
		{Op: operations.CreateNote, Handle: h.createNote},
		{Op: operations.GetNote, Handle: h.getNote},
		{Op: operations.UpdateNote, Handle: h.updateNote},
		{Op: operations.DeleteNote, Handle: h.deleteNote},
	}
}
