package main

import (
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/internal/gen"
)

// The demo search-ad campaigns (demoSearchCmp<Account><nn>), their ad groups
// (demoSearchAg<Account><nn><mm>) with daily reporting rows, and the
// social-ad integrations (demoSocialInt<Account>01).
//
// A campaign's daily row is the sum of its ad groups' rows of that day (as
// for search campaigns on the ad network), so both list types add up to the
// same totals over any range. Cost is in micros of the account currency,
// whole cents.

type adCampaign struct {
	ID         string     `json:"id"`
	LocationID string     `json:"locationId"`
	Type       string     `json:"type"`
	Name       string     `json:"name"`
	Status     string     `json:"status"`
	Daily      []dailyRow `json:"daily"`
	AdGroups   []adGroup  `json:"adGroups"`
}

type adGroup struct {
	ID     string     `json:"id"`
	Name   string     `json:"name"`
	Status string     `json:"status"`
	Daily  []dailyRow `json:"daily"`
}

type dailyRow struct {
	Date        string `json:"date"`
	Impressions int    `json:"impressions"`
	Clicks      int    `json:"clicks"`
	CostMicros  int    `json:"costMicros"`
	Conversions int    `json:"conversions"`
}

type socialIntegration struct {
	ID            string `json:"id"`
	LocationID    string `json:"locationId"`
	AdAccountID   string `json:"adAccountId"`
	AdAccountName string `json:"adAccountName"`
	PageID        string `json:"pageId"`
	PageName      string `json:"pageName"`
	ConnectedAt   string `json:"connectedAt"`
}

// groupPlan is an ad group's days and the rates its rows are drawn around.
type groupPlan struct {
	id, name, status string
	first, last      string
	impressions      int
	ctr, cpc, conv   float64
}

// weekdayDemand is the demand by weekday, Monday first: dental searches drop
// at the weekend.
var weekdayDemand = [7]float64{1.10, 1.08, 1.05, 1.02, 0.95, 0.72, 0.62}

// dailyRows draws an ad group's rows: impressions around a base with the
// weekday and a slow monthly drift, clicks, cost and conversions around the
// given rates, rounded half to even. The product in drift is rounded before
// the sum (see draws.uniform), so every machine draws the same rows.
func dailyRows(rng draws, g groupPlan) []dailyRow {
	var rows []dailyRow
	day, err := time.Parse(time.DateOnly, g.first)
	if err != nil {
		panic(err) // the plans' dates are constants
	}
	for ; day.Format(time.DateOnly) <= g.last; day = day.AddDate(0, 0, 1) {
		drift := 1 + float64(0.08*(float64(int(day.Month())-6)/4)) // demand grows slowly into autumn
		monday0 := (int(day.Weekday()) + 6) % 7
		impressions := max(0, roundEven(float64(g.impressions)*weekdayDemand[monday0]*drift*rng.uniform(0.8, 1.2)))
		clicks := min(impressions, max(0, roundEven(float64(impressions)*g.ctr*rng.uniform(0.75, 1.25))))
		costCents := roundEven(float64(clicks) * g.cpc * 100 * rng.uniform(0.85, 1.15))
		conversions := 0
		for range clicks {
			if rng.chance(g.conv) {
				conversions++
			}
		}
		rows = append(rows, dailyRow{Date: day.Format(time.DateOnly), Impressions: impressions, Clicks: clicks,
			CostMicros: costCents * 10_000, Conversions: conversions})
	}
	return rows
}

func roundEven(f float64) int { return int(math.RoundToEven(f)) }

func searchCampaign(rng draws, acct demoAccount, id, typ, name, status string, groups ...groupPlan) adCampaign {
	c := adCampaign{ID: id, LocationID: acct.id, Type: typ, Name: name, Status: status}
	byDay := map[string]*dailyRow{}
	for _, g := range groups {
		rows := dailyRows(rng, g)
		c.AdGroups = append(c.AdGroups, adGroup{ID: g.id, Name: g.name, Status: g.status, Daily: rows})
		for _, r := range rows {
			sum, ok := byDay[r.Date]
			if !ok {
				sum = &dailyRow{Date: r.Date}
				byDay[r.Date] = sum
			}
			sum.Impressions += r.Impressions
			sum.Clicks += r.Clicks
			sum.CostMicros += r.CostMicros
			sum.Conversions += r.Conversions
		}
	}
	for _, d := range slices.Sorted(maps.Keys(byDay)) {
		c.Daily = append(c.Daily, *byDay[d])
	}
	return c
}

func adPublishing() (string, error) {
	rng := newDraws(20260601)
	const first, last = "2026-06-01", "2026-10-31"
	const integration, adManager = "INTEGRATION", "AD_MANAGER"
	campaigns := []adCampaign{
		searchCampaign(rng, alpha, "demoSearchCmpAlpha01", integration, "Brand - Alpha Dental Care", "ENABLED",
			groupPlan{"demoSearchAgAlpha0101", "Brand name exact", "ENABLED", first, last, 210, 0.18, 0.85, 0.14},
			groupPlan{"demoSearchAgAlpha0102", "Brand + city", "ENABLED", first, last, 120, 0.12, 1.10, 0.11}),
		searchCampaign(rng, alpha, "demoSearchCmpAlpha02", integration, "Dental Implants - Generic", "ENABLED",
			groupPlan{"demoSearchAgAlpha0201", "Implant cost", "ENABLED", first, last, 640, 0.045, 4.20, 0.05},
			groupPlan{"demoSearchAgAlpha0202", "All-on-4 implants", "ENABLED", first, last, 260, 0.038, 6.10, 0.04},
			groupPlan{"demoSearchAgAlpha0203", "Implant dentist near me", "PAUSED", first, "2026-09-15", 380, 0.052, 3.75, 0.06}),
		searchCampaign(rng, alpha, "demoSearchCmpAlpha03", integration, "Teeth Whitening Summer Offer", "PAUSED",
			groupPlan{"demoSearchAgAlpha0301", "Whitening offer", "ENABLED", first, "2026-08-31", 520, 0.061, 1.35, 0.07},
			groupPlan{"demoSearchAgAlpha0302", "Professional whitening", "ENABLED", first, "2026-08-31", 300, 0.049, 1.60, 0.05}),
		searchCampaign(rng, alpha, "demoSearchCmpAlpha04", adManager, "Emergency Dentist - Ad Manager", "ENABLED",
			groupPlan{"demoSearchAgAlpha0401", "Emergency dentist", "ENABLED", first, last, 450, 0.072, 2.90, 0.12},
			groupPlan{"demoSearchAgAlpha0402", "Toothache relief", "ENABLED", first, last, 280, 0.055, 2.10, 0.08}),
		searchCampaign(rng, alpha, "demoSearchCmpAlpha05", adManager, "Invisalign Consult - Ad Manager", "ENABLED",
			groupPlan{"demoSearchAgAlpha0501", "Clear aligners", "ENABLED", "2026-08-15", last, 340, 0.041, 3.30, 0.05},
			groupPlan{"demoSearchAgAlpha0502", "Invisalign cost", "ENABLED", "2026-08-15", last, 230, 0.047, 3.95, 0.04}),
		// A little elsewhere, to show that accounts never see each other's data.
		searchCampaign(rng, bravo, "demoSearchCmpBravo01", integration, "Physiotherapy Near Me", "ENABLED",
			groupPlan{"demoSearchAgBravo0101", "Sports physio", "ENABLED", "2026-09-01", "2026-09-30", 180, 0.05, 2.40, 0.07}),
		searchCampaign(rng, charlie, "demoSearchCmpCharlie01", integration, "Roof Repair", "ENABLED",
			groupPlan{"demoSearchAgCharlie0101", "Leak repair", "ENABLED", "2026-10-01", "2026-10-31", 150, 0.06, 5.80, 0.09}),
	}
	integrations := []socialIntegration{
		{"demoSocialIntAlpha01", alpha.id, "act_100000000000001", "Alpha Dental Care Ads", "100200300400501", "Alpha Dental Care", "2026-05-20T09:30:00.000Z"},
		{"demoSocialIntBravo01", bravo.id, "act_100000000000002", "Bravo Physio Ads", "100200300400502", "Bravo Physio Clinic", "2026-05-27T14:05:00.000Z"},
	}
	return adPublishingFile(campaigns, integrations)
}

// adPublishingFile is the part with each daily row on one line: the rows
// are most of the file, and a line each keeps it readable and well under
// 1 MB.
func adPublishingFile(campaigns []adCampaign, integrations []socialIntegration) (string, error) {
	text, err := gen.JSONFile(struct {
		Campaigns    []adCampaign        `json:"searchAdsCampaigns"`
		Integrations []socialIntegration `json:"socialAdsIntegrations"`
	}{campaigns, integrations})
	return oneLineObjects(text), err
}

// flatObject is an indented object whose members are all numbers, strings,
// booleans or null: no member's line opens or closes a container.
var (
	flatObject  = regexp.MustCompile(`\{\n(?:[ ]+"[^"\n]*": [^\n\[\]{}]*\n)+[ ]*\}`)
	memberBreak = regexp.MustCompile(`\n[ ]*`)
)

// oneLineObjects puts every flat object of an indented JSON text on one
// line. Only the whitespace between members changes, so the text holds the
// same JSON.
func oneLineObjects(text string) string {
	return flatObject.ReplaceAllStringFunc(text, func(o string) string {
		o = memberBreak.ReplaceAllString(o, " ")
		return "{" + strings.TrimSuffix(strings.TrimPrefix(o, "{ "), " }") + "}"
	})
}
