package contacts_test

import (
	"testing"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/internal/fuzzapi"
	"github.com/bizplatform/api/shared/operations"
)

// The fuzz targets of the contact operations (fuzz_test.go says how they
// run).

// FuzzCreateContact is the fuzz target of POST /contacts/.
func FuzzCreateContact(f *testing.F) {
	fuzzapi.Operation(f, operations.CreateContact, contacts.Area)
}

// FuzzGetContact is the fuzz target of GET /contacts/{contactId}.
func FuzzGetContact(f *testing.F) {
	fuzzapi.Operation(f, operations.GetContact, contacts.Area)
}

// FuzzUpdateContact is the fuzz target of PUT /contacts/{contactId}.
func FuzzUpdateContact(f *testing.F) {
	fuzzapi.Operation(f, operations.UpdateContact, contacts.Area)
}

// FuzzDeleteContact is the fuzz target of DELETE /contacts/{contactId}.
func FuzzDeleteContact(f *testing.F) {
	fuzzapi.Operation(f, operations.DeleteContact, contacts.Area)
}

// FuzzUpsertContact is the fuzz target of POST /contacts/upsert.
func FuzzUpsertContact(f *testing.F) {
	fuzzapi.Operation(f, operations.UpsertContact, contacts.Area)
}

// FuzzGetDuplicateContact is the fuzz target of GET /contacts/search/duplicate.
func FuzzGetDuplicateContact(f *testing.F) {
	fuzzapi.Operation(f, operations.GetDuplicateContact, contacts.Area)
}

// FuzzSearchContactsAdvanced is the fuzz target of POST /contacts/search.
func FuzzSearchContactsAdvanced(f *testing.F) {
	fuzzapi.Operation(f, operations.SearchContactsAdvanced, contacts.Area)
}

// FuzzAddTags is the fuzz target of POST /contacts/{contactId}/tags.
func FuzzAddTags(f *testing.F) {
	fuzzapi.Operation(f, operations.AddTags, contacts.Area)
}

// FuzzRemoveTags is the fuzz target of DELETE /contacts/{contactId}/tags.
func FuzzRemoveTags(f *testing.F) {
	fuzzapi.Operation(f, operations.RemoveTags, contacts.Area)
}
