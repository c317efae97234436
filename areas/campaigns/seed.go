package campaigns

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the campaigns part of a demo dataset.
type SeedData struct {
	Campaigns []Campaign `json:"campaigns"`
}

func seed(ctx context.Context, d app.Deps, raw json.RawMessage) error {
	var data SeedData
	if err := app.DecodeSeed("campaigns", raw, &data); err != nil {
		return err
	}
	items := make([]any, 0, len(data.Campaigns))
	for _, c := range data.Campaigns {
		if msg := validate.IDProblem("campaign id", c.ID) + validate.IDProblem("locationId", c.LocationID); msg != "" {
			return fmt.Errorf("campaigns: %s", msg)
		}
		if strings.TrimSpace(c.Name) == "" {
			return fmt.Errorf("campaigns: campaign %s has no name", c.ID)
		}
		if !slices.Contains(Statuses, c.Status) {
			return fmt.Errorf("campaigns: campaign %s: status %q is not one of %v", c.ID, c.Status, Statuses)
		}
		items = append(items, campaignItem{Key: campaignKey(c.LocationID, c.ID), Campaign: c})
	}
	return d.Table.BatchPut(ctx, items)
}
