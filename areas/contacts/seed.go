package contacts

import (
	"context"
	"fmt"
	"time"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the contacts part of a demo dataset.
type SeedData struct {
	Contacts []SeedContact `json:"contacts"`
}

// SeedContact is a contact and its tasks.
type SeedContact struct {
	contactstore.Contact
	Tasks []contactstore.Task `json:"tasks"`
}

func seed(ctx context.Context, d app.Deps, data SeedData) error {
	loads := make([]contactstore.NewContact, 0, len(data.Contacts))
	for _, c := range data.Contacts {
		if msg := validate.IDProblem("contact id", c.ID) + validate.IDProblem("locationId", c.LocationID); msg != "" {
			return fmt.Errorf("%s", msg)
		}
		added, err := time.Parse(time.RFC3339, c.DateAdded)
		if err != nil {
			return fmt.Errorf("contact %s: dateAdded: %w", c.ID, err)
		}
		if c.Tags == nil {
			c.Tags = []string{}
		}
		if c.CustomFields == nil {
			c.CustomFields = []contactstore.CustomValue{}
		}
		if c.Followers == nil {
			c.Followers = []string{}
		}
		for _, t := range c.Tasks {
			if msg := validate.IDProblem("task id", t.ID); msg != "" {
				return fmt.Errorf("%s", msg)
			}
		}
		loads = append(loads, contactstore.NewContact{Contact: c.Contact, AddedMs: added.UnixMilli(), Tasks: c.Tasks})
	}
	// The contacts, their tasks and search index, then each account's
	// total and search counters.
	return contactstore.NewContacts(d.Table).Load(ctx, loads)
}
