package campaigns

import (
	"context"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the campaigns part of a demo dataset.
type SeedData struct {
	Campaigns []Campaign `json:"campaigns"`
}

func seed(ctx context.Context, d app.Deps, data SeedData) error {
	return NewCatalog(d.Table).Seed(ctx, data.Campaigns, checkSeedCampaign)
}

// checkSeedCampaign holds a demo campaign to what the list could serve.
func checkSeedCampaign(c *Campaign) error {
	var v validate.Errors
	validate.NamedRecord(&v, "campaign", c.ID, c.LocationID, c.Name)
	v.OneOf("status", c.Status, Statuses...)
	return v.Err()
}
