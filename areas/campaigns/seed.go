package campaigns

import (
	"context"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the campaigns part of a demo dataset.
type SeedData struct {
	Campaigns []Campaign `json:"campaigns"`
}

func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	err := app.CheckRecords("campaigns", data.Campaigns, func(c *Campaign) (string, string) { return c.LocationID, c.ID }, checkSeedCampaign)
	if err != nil {
		return err
	}
	return NewCatalog(d.Table).Seed(ctx, data.Campaigns, nil)
}

// checkSeedCampaign holds a demo campaign to what the list could serve; a
// campaign without a status is a draft, as a new campaign is.
func checkSeedCampaign(c *Campaign) error {
	if c.Status == "" {
		c.Status = StatusDraft
	}
	var v validate.Errors
	validate.NamedRecord(&v, c.ID, c.LocationID, c.Name)
	v.OneOf("status", c.Status, Statuses...)
	return v.Err()
}
