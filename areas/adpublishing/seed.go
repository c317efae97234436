package adpublishing

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the ad-publishing part of a demo dataset.
type SeedData struct {
	SearchAdsCampaigns    []SeedCampaign      `json:"searchAdsCampaigns"`
	SocialAdsIntegrations []SocialIntegration `json:"socialAdsIntegrations"`
}

// SeedCampaign is a campaign, its daily reporting rows and its ad groups.
type SeedCampaign struct {
	Campaign
	Daily    []DailyMetrics `json:"daily"`
	AdGroups []SeedAdGroup  `json:"adGroups"`
}

// SeedAdGroup is an ad group of the enclosing campaign (whose account and
// type it takes) and its daily reporting rows.
type SeedAdGroup struct {
	ID     string         `json:"id"`
	Name   string         `json:"name"`
	Status string         `json:"status"`
	Daily  []DailyMetrics `json:"daily"`
}

// seed writes the data with plain puts: every record is one item written as
// a whole, so a load interrupted half-way is completed by loading again.
// Entities are written before their reporting rows.
func seed(ctx context.Context, d app.Deps, data SeedData) error {
	s := NewAds(d.Table)
	campaigns := make([]Campaign, len(data.SearchAdsCampaigns))
	var groups []AdGroup
	var rows []any
	for i, c := range data.SearchAdsCampaigns {
		if err := checkCampaign(c); err != nil {
			return fmt.Errorf("campaign %q: %w", c.ID, err)
		}
		campaigns[i] = c.Campaign
		for _, m := range c.Daily {
			rows = append(rows, newCampaignReportItem(c.Campaign, m))
		}
		for _, sg := range c.AdGroups {
			g := AdGroup{ID: sg.ID, CampaignID: c.ID, LocationID: c.LocationID, Type: c.Type, Name: sg.Name, Status: sg.Status}
			groups = append(groups, g)
			for _, m := range sg.Daily {
				rows = append(rows, newAdGroupReportItem(g, m))
			}
		}
	}
	var entities storage.Loading
	storage.Load(&entities, s.campaigns, campaigns, nil)
	storage.Load(&entities, s.adGroups, groups, nil)
	storage.Load(&entities, s.social, data.SocialAdsIntegrations, checkSocialIntegration)
	if err := entities.Write(ctx, d.Table); err != nil {
		return err
	}
	return d.Table.BatchPut(ctx, rows)
}

func checkCampaign(c SeedCampaign) error {
	msg := validate.IDProblem("id", c.ID) + validate.IDProblem("locationId", c.LocationID)
	if msg != "" {
		return errors.New(msg)
	}
	if !slices.Contains(IntegrationTypes, c.Type) {
		return fmt.Errorf("type %q is not one of %v", c.Type, IntegrationTypes)
	}
	if err := checkEntity(c.Name, c.Status, c.Daily); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, g := range c.AdGroups {
		if msg := validate.IDProblem("ad group id", g.ID); msg != "" {
			return errors.New(msg)
		}
		if seen[g.ID] {
			return fmt.Errorf("ad group %s appears twice", g.ID)
		}
		seen[g.ID] = true
		if err := checkEntity(g.Name, g.Status, g.Daily); err != nil {
			return fmt.Errorf("ad group %s: %w", g.ID, err)
		}
	}
	return nil
}

// checkEntity checks a campaign's or ad group's name, status and daily rows:
// real dates, each at most once (a repeated day would overwrite the other),
// no negative figures.
func checkEntity(name, status string, daily []DailyMetrics) error {
	if name == "" {
		return errors.New("name is required")
	}
	if !slices.Contains(entityStatuses, status) {
		return fmt.Errorf("status %q is not one of %v", status, entityStatuses)
	}
	days := map[string]bool{}
	for _, m := range daily {
		if _, err := time.Parse(dateLayout, m.Date); err != nil || !datePattern().MatchString(m.Date) {
			return fmt.Errorf("daily date %q is not a YYYY-MM-DD date", m.Date)
		}
		if days[m.Date] {
			return fmt.Errorf("daily date %s appears twice", m.Date)
		}
		days[m.Date] = true
		if m.Impressions < 0 || m.Clicks < 0 || m.CostMicros < 0 || m.Conversions < 0 {
			return fmt.Errorf("daily row %s has a negative figure", m.Date)
		}
	}
	return nil
}

func checkSocialIntegration(in *SocialIntegration) error {
	msg := validate.IDProblem("id", in.ID) + validate.IDProblem("locationId", in.LocationID) + validate.IDProblem("adAccountId", in.AdAccountID)
	if msg != "" {
		return errors.New(msg)
	}
	if _, err := time.Parse(time.RFC3339, in.ConnectedAt); err != nil {
		return fmt.Errorf("connectedAt: %w", err)
	}
	return nil
}
