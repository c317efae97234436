package contacts

import (
	"context"
	"time"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the contacts part of a demo dataset.
type SeedData struct {
	Contacts []SeedContact `json:"contacts"`
}

// SeedContact is a contact (its list fields and its details: address,
// do-not-disturb, date of birth...), its tasks and its notes. A contact
// needs its id and locationId, a task its id, a note its id and body;
// dateAdded left out is the time of the seed, and lists left out are empty.
type SeedContact struct {
	contactstore.Record
	Tasks []contactstore.Task `json:"tasks"`
	Notes []contactstore.Note `json:"notes"`
}

func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	now := clock.Timestamp(d.Clock.Now())
	err := app.CheckRecords("contacts", data.Contacts, func(c *SeedContact) (string, string) { return c.LocationID, c.ID }, func(c *SeedContact) error {
		return checkSeedContact(c, now)
	})
	if err != nil {
		return err
	}
	loads := make([]contactstore.NewContact, len(data.Contacts))
	for i, c := range data.Contacts {
		added, _ := time.Parse(time.RFC3339, c.DateAdded) // checked above
		loads[i] = contactstore.NewContact{Contact: c.Contact, Details: c.Details, AddedMs: added.UnixMilli(), Tasks: c.Tasks, Notes: c.Notes}
	}
	// The contacts, their tasks, notes and search index, then each account's
	// total and search counters.
	return contactstore.NewContacts(d.Table).Load(ctx, loads)
}

// checkSeedContact checks a demo contact, its tasks and notes, and fills
// in what the file leaves out.
func checkSeedContact(c *SeedContact, now string) error {
	var v validate.Errors
	v.ID("id", c.ID)
	v.ID("locationId", c.LocationID)
	v.Time("dateAdded", &c.DateAdded, now)
	if c.DateOfBirth != "" {
		_, err := time.Parse("2006-01-02", c.DateOfBirth)
		v.Check(err == nil, "dateOfBirth must be a date, YYYY-MM-DD")
	}
	if d := c.DNDSettings; d != nil {
		for name, ch := range map[string]*contactstore.DNDSetting{"Call": d.Call, "Email": d.Email, "SMS": d.SMS, "WhatsApp": d.WhatsApp, "GMB": d.GMB, "FB": d.FB} {
			if ch != nil {
				v.OneOf("dndSettings."+name+".status", ch.Status, dndStatuses...)
			}
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	c.Contact = present(c.Contact)
	err := app.CheckRecords("tasks", c.Tasks, func(t *contactstore.Task) (string, string) { return "", t.ID }, func(t *contactstore.Task) error {
		return checkSeedTask(t, now)
	})
	if err != nil {
		return err
	}
	return app.CheckRecords("notes", c.Notes, func(n *contactstore.Note) (string, string) { return "", n.ID }, func(n *contactstore.Note) error {
		return checkSeedNote(n, now)
	})
}

// checkSeedTask checks a demo task as the API would its fields, fills in
// what the file leaves out and writes its times as the API does.
func checkSeedTask(t *contactstore.Task, now string) error {
	var v validate.Errors
	v.ID("id", t.ID)
	if v.Time("dateAdded", &t.DateAdded, now) {
		t.DateAdded = dateTime(&v, "dateAdded", t.DateAdded)
	}
	if t.DueDate != "" {
		t.DueDate = dateTime(&v, "dueDate", t.DueDate)
	}
	if t.AssignedTo != "" {
		v.ID("assignedTo", t.AssignedTo)
	}
	oneLineText(&v, "title", t.Title)
	longText(&v, "body", t.Body)
	return v.Err()
}

// checkSeedNote checks a demo note as the API would its fields, fills in
// what the file leaves out and writes its time as the API does.
func checkSeedNote(n *contactstore.Note, now string) error {
	var v validate.Errors
	v.ID("id", n.ID)
	if v.Time("dateAdded", &n.DateAdded, now) {
		n.DateAdded = dateTime(&v, "dateAdded", n.DateAdded)
	}
	if n.UserID != "" {
		v.ID("userId", n.UserID)
	}
	if v.Required("body", &n.Body) {
		longText(&v, "body", n.Body)
	}
	if n.Title != "" {
		oneLineText(&v, "title", n.Title)
	}
	if n.Color != "" {
		color(&v, "color", n.Color)
	}
	return v.Err()
}
