package adpublishing

import (
	"context"
	"fmt"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
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
// Entities are written before their reporting rows. What the file leaves
// out is filled in: a campaign's or ad group's status ENABLED, an
// integration's connectedAt now.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	s := NewAds(d.Table)
	now := clock.Timestamp(d.Clock.Now())
	var campaigns []Campaign
	var groups []AdGroup
	var rows []any
	err := app.CheckRecords("searchAdsCampaigns", data.SearchAdsCampaigns, func(c *SeedCampaign) (string, string) { return c.LocationID, c.ID }, func(c *SeedCampaign) error {
		var v validate.Errors
		v.ID("id", c.ID)
		v.ID("locationId", c.LocationID)
		v.OneOf("type", c.Type, IntegrationTypes...)
		if err := checkEntity(&v, &c.Name, &c.Status, c.Daily); err != nil {
			return err
		}
		campaigns = append(campaigns, c.Campaign)
		for _, m := range c.Daily {
			rows = append(rows, newCampaignReportItem(c.Campaign, m))
		}
		return app.CheckRecords("adGroups", c.AdGroups, func(sg *SeedAdGroup) (string, string) { return "", sg.ID }, func(sg *SeedAdGroup) error {
			var v validate.Errors
			v.ID("id", sg.ID)
			if err := checkEntity(&v, &sg.Name, &sg.Status, sg.Daily); err != nil {
				return err
			}
			g := AdGroup{ID: sg.ID, CampaignID: c.ID, LocationID: c.LocationID, Type: c.Type, Name: sg.Name, Status: sg.Status}
			groups = append(groups, g)
			for _, m := range sg.Daily {
				rows = append(rows, newAdGroupReportItem(g, m))
			}
			return nil
		})
	})
	if err == nil {
		err = app.CheckRecords("socialAdsIntegrations", data.SocialAdsIntegrations, func(in *SocialIntegration) (string, string) { return in.LocationID, in.ID }, func(in *SocialIntegration) error {
			var v validate.Errors
			v.ID("id", in.ID)
			v.ID("locationId", in.LocationID)
			v.ID("adAccountId", in.AdAccountID)
			v.Time("connectedAt", &in.ConnectedAt, now)
			return v.Err()
		})
	}
	if err != nil {
		return err
	}
	var entities storage.Loading
	storage.Load(&entities, s.campaigns, campaigns, nil)
	storage.Load(&entities, s.adGroups, groups, nil)
	storage.Load(&entities, s.social, data.SocialAdsIntegrations, nil)
	if err := entities.Write(ctx, d.Table); err != nil {
		return err
	}
	return d.Table.BatchPut(ctx, rows)
}

// checkEntity adds to v the problems of a campaign's or ad group's name,
// status (ENABLED when left out) and daily rows: real dates, each at most
// once (a repeated day would overwrite the other), no negative figures.
func checkEntity(v *validate.Errors, name, status *string, daily []DailyMetrics) error {
	v.Required("name", name)
	if *status == "" {
		*status = "ENABLED"
	}
	v.OneOf("status", *status, entityStatuses...)
	days := map[string]int{}
	for i, m := range daily {
		field := fmt.Sprintf("daily[%d]", i)
		if _, err := time.Parse(dateLayout, m.Date); err != nil || !datePattern().MatchString(m.Date) {
			v.Addf("%s.date must be a YYYY-MM-DD date", field)
		} else if j, seen := days[m.Date]; seen {
			v.Addf("%s.date %s is daily[%d]'s too", field, m.Date, j)
		} else {
			days[m.Date] = i
		}
		v.Check(m.Impressions >= 0 && m.Clicks >= 0 && m.CostMicros >= 0 && m.Conversions >= 0,
			field+" must not have a negative figure")
	}
	return v.Err()
}
