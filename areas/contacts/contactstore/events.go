package contactstore

import (
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// ContactFields are a contact as its events show it: the public platform's
// fields of its contact events (ContactCreate and the others), the
// account being the envelope's locationId. attachments is always empty:
// no operation attaches a file to a contact.
type ContactFields struct {
	ID           string        `json:"id"`
	Address1     string        `json:"address1,omitempty"`
	City         string        `json:"city,omitempty"`
	CompanyName  string        `json:"companyName,omitempty"`
	Country      string        `json:"country,omitempty"`
	Source       string        `json:"source,omitempty"`
	DateAdded    string        `json:"dateAdded"`
	DateOfBirth  string        `json:"dateOfBirth,omitempty"`
	DND          bool          `json:"dnd"`
	DNDSettings  *DNDSettings  `json:"dndSettings,omitempty"`
	Email        string        `json:"email,omitempty"`
	Name         string        `json:"name,omitempty"`
	FirstName    string        `json:"firstName,omitempty"`
	LastName     string        `json:"lastName,omitempty"`
	Phone        string        `json:"phone,omitempty"`
	PostalCode   string        `json:"postalCode,omitempty"`
	State        string        `json:"state,omitempty"`
	Tags         []string      `json:"tags"`
	Website      string        `json:"website,omitempty"`
	Attachments  []string      `json:"attachments"`
	AssignedTo   string        `json:"assignedTo,omitempty"`
	CustomFields []CustomValue `json:"customFields"`
}

// FieldsOf is r as its events show it.
func FieldsOf(r Record) ContactFields {
	f := ContactFields{
		ID: r.ID, Address1: r.Address1, City: r.City, CompanyName: r.CompanyName, Country: r.Country, Source: r.Source,
		DateAdded: r.DateAdded, DateOfBirth: BirthTimestamp(r.DateOfBirth), DND: r.DND, DNDSettings: r.DNDSettings,
		Email: r.Email, Name: r.ContactName, FirstName: r.FirstName, LastName: r.LastName, Phone: r.Phone,
		PostalCode: r.PostalCode, State: r.State, Tags: r.Tags, Website: r.Website, Attachments: []string{},
		AssignedTo: r.AssignedTo, CustomFields: r.CustomFields,
	}
	if f.Tags == nil {
		f.Tags = []string{}
	}
	if f.CustomFields == nil {
		f.CustomFields = []CustomValue{}
	}
	return f
}

// BirthTimestamp is a date of birth (YYYY-MM-DD) as the public API writes
// it in answers and events: midnight UTC with milliseconds ("" stays "").
func BirthTimestamp(date string) string {
	if date == "" {
		return ""
	}
	return date + "T00:00:00.000Z"
}

// The contact events, the public platform's. A change makes one event of
// each kind of change it makes: a create ContactCreate, a delete
// ContactDelete; an update ContactTagUpdate when its tags changed,
// ContactDndUpdate when its do-not-disturb settings did, and ContactUpdate
// when anything else did (an update changing a name and a tag makes two).
var (
	ContactCreated = events.Type{
		Name: "ContactCreate", Scope: "contacts.readonly", Version: 1,
		Summary: "A contact was created (POST /contacts/, or POST /contacts/upsert finding none).",
		Fields:  ContactFields{},
	}
	ContactUpdated = events.Type{
		Name: "ContactUpdate", Scope: "contacts.readonly", Version: 1,
		Summary: "A contact's fields other than its tags and do-not-disturb settings changed (PUT /contacts/{contactId}, POST /contacts/upsert).",
		Fields:  ContactFields{},
	}
	ContactDeleted = events.Type{
		Name: "ContactDelete", Scope: "contacts.readonly", Version: 1,
		Summary: "A contact was deleted, with its tasks and notes (DELETE /contacts/{contactId}): the contact as it was.",
		Fields:  ContactFields{},
	}
	ContactTagsUpdated = events.Type{
		Name: "ContactTagUpdate", Scope: "contacts.readonly", Version: 1,
		Summary: "A contact's tags changed (POST or DELETE /contacts/{contactId}/tags, an update or an upsert sending tags).",
		Fields:  ContactFields{},
	}
	ContactDNDUpdated = events.Type{
		Name: "ContactDndUpdate", Scope: "contacts.readonly", Version: 1,
		Summary: "A contact's do-not-disturb settings changed (dnd, dndSettings or inboundDndSettings, by an update or an upsert).",
		Fields:  ContactFields{},
	}
)

// changeEvents are the events of the change from old to next (nil: none,
// deleted), each of which shows next (a delete: old).
func changeEvents(old, next *Record) []events.Type {
	switch {
	case old == nil && next == nil:
		return nil
	case old == nil:
		return []events.Type{ContactCreated}
	case next == nil:
		return []events.Type{ContactDeleted}
	}
	var out []events.Type
	a, b := *old, *next
	if !slices.Equal(normalTags(a.Tags), normalTags(b.Tags)) {
		out = append(out, ContactTagsUpdated)
	}
	if a.DND != b.DND || !reflect.DeepEqual(a.DNDSettings, b.DNDSettings) || !reflect.DeepEqual(a.InboundDNDSettings, b.InboundDNDSettings) {
		out = append(out, ContactDNDUpdated)
	}
	// The rest: everything but tags, do-not-disturb and the time of the
	// update itself.
	a.Tags, b.Tags = nil, nil
	a.DND, b.DND = false, false
	a.DNDSettings, b.DNDSettings = nil, nil
	a.InboundDNDSettings, b.InboundDNDSettings = nil, nil
	a.DateUpdated, b.DateUpdated = "", ""
	if !reflect.DeepEqual(a, b) {
		out = append([]events.Type{ContactUpdated}, out...)
	}
	return out
}

// normalTags are tags as compared: lower-cased, in order.
func normalTags(tags []string) []string {
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = strings.ToLower(t)
	}
	slices.Sort(out)
	return out
}

// eventsOf returns the function adding the events of types to a write's
// transaction, showing r.
func eventsOf(types []events.Type, r Record, now time.Time) func(tx *storage.Tx) {
	if len(types) == 0 {
		return nil
	}
	fields := FieldsOf(r)
	return func(tx *storage.Tx) {
		for _, typ := range types {
			typ.Add(tx, events.Owner{LocationID: r.LocationID}, fields, now)
		}
	}
}
