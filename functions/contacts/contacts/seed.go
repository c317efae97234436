package contacts

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the contacts part of a demo dataset.
type SeedData struct {
	Contacts []SeedContact `json:"contacts"`
}

// SeedContact is a contact and its tasks.
type SeedContact struct {
	Contact
	Tasks []Task `json:"tasks"`
}

func seed(ctx context.Context, d app.Deps, raw json.RawMessage) error {
	var data SeedData
	if err := json.Unmarshal(raw, &data); err != nil {
		return fmt.Errorf("contacts: %w", err)
	}
	var items []any
	for _, c := range data.Contacts {
		if msg := validate.IDProblem("contact id", c.ID) + validate.IDProblem("locationId", c.LocationID); msg != "" {
			return fmt.Errorf("contacts: %s", msg)
		}
		added, err := time.Parse(time.RFC3339, c.DateAdded)
		if err != nil {
			return fmt.Errorf("contacts: contact %s: dateAdded: %w", c.ID, err)
		}
		if c.Tags == nil {
			c.Tags = []string{}
		}
		if c.CustomFields == nil {
			c.CustomFields = []CustomValue{}
		}
		if c.Followers == nil {
			c.Followers = []string{}
		}
		items = append(items, newContactItem(c.Contact, added.UnixMilli()))
		for _, t := range c.Tasks {
			if msg := validate.IDProblem("task id", t.ID); msg != "" {
				return fmt.Errorf("contacts: %s", msg)
			}
			t.ContactID = c.ID
			items = append(items, taskItem{Key: taskKey(c.LocationID, c.ID, t.ID), Task: t})
		}
	}
	return d.Table.BatchPut(ctx, items)
}
