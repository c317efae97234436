package adpublishing_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/adpublishing"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/operations"
)

// want computes, from the seeded fixture alone, the rows the list should
// answer: every entity of account acct and type typ (narrowed to campaignID
// when given) with at least one row in the range, and their sums.
type wantRow struct {
	id, campaignID string
	sums           expectedSums
}

func wantRows(data adpublishing.SeedData, acct, listType, typ, start, end, campaignID string) ([]wantRow, expectedSums) {
	var rows []wantRow
	var total expectedSums
	for _, c := range data.SearchAdsCampaigns {
		if c.LocationID != acct || c.Type != typ || (campaignID != "" && c.ID != campaignID) {
			continue
		}
		if listType == adpublishing.ListCampaigns {
			if s, ok := sumRange(c.Daily, start, end); ok {
				rows = append(rows, wantRow{id: c.ID, sums: s})
				total.add(s)
			}
			continue
		}
		for _, g := range c.AdGroups {
			if s, ok := sumRange(g.Daily, start, end); ok {
				rows = append(rows, wantRow{id: g.ID, campaignID: c.ID, sums: s})
				total.add(s)
			}
		}
	}
	return rows, total
}

func TestReportingListSumsTheDailyRowsOfTheRange(t *testing.T) {
	env, token := newEnv(t)
	data := fixture()
	seedData(t, env, data)

	cases := []struct {
		name                                  string
		listType, typ, start, end, campaignID string
		wantIDs                               []string
	}{
		{"campaigns over a month list every campaign with rows in it", adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-01", "2026-06-30", "", []string{"cInt1", "cInt2", "cZero"}},
		{"ad groups over a month list every ad group with rows in it", adpublishing.ListAdGroups, adpublishing.TypeIntegration, "2026-06-01", "2026-06-30", "", []string{"gInt11", "gInt12", "gInt21", "gZero1"}},
		{"ad groups narrowed by campaignId are that campaign's only", adpublishing.ListAdGroups, adpublishing.TypeIntegration, "2026-06-01", "2026-06-30", "cInt1", []string{"gInt11", "gInt12"}},
		{"campaigns narrowed by campaignId are that campaign only", adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-01", "2026-06-30", "cInt2", []string{"cInt2"}},
		{"the AD_MANAGER type lists only its own campaigns", adpublishing.ListCampaigns, adpublishing.TypeAdManager, "2026-06-01", "2026-06-30", "", []string{"cMgr1"}},
		{"the AD_MANAGER type lists only its own ad groups", adpublishing.ListAdGroups, adpublishing.TypeAdManager, "2026-06-01", "2026-06-30", "", []string{"gMgr11"}},
		{"a one-day range holds that day's rows only", adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-05-25", "2026-05-25", "", []string{"cInt1", "cInt3"}},
		{"a one-day range on a campaign's first day of data holds that day", adpublishing.ListAdGroups, adpublishing.TypeIntegration, "2026-06-10", "2026-06-10", "cInt2", []string{"gInt21"}},
		{"a range on a campaign's first and last day includes both", adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-10", "2026-06-20", "cInt2", []string{"cInt2"}},
		{"a range just inside a campaign's days leaves its edge days out", adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-11", "2026-06-19", "cInt2", []string{"cInt2"}},
		{"a range across two months and the last day of data", adpublishing.ListAdGroups, adpublishing.TypeIntegration, "2026-05-31", "2026-07-10", "", []string{"gInt11", "gInt12", "gInt21", "gZero1", "gInt31"}},
		{"a range before any data is empty", adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-04-01", "2026-04-30", "", nil},
		{"a range after the narrowed campaign's data is empty", adpublishing.ListAdGroups, adpublishing.TypeIntegration, "2026-06-21", "2026-07-31", "cInt2", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := reportQuery(acctA, tc.listType, tc.typ, tc.start, tc.end)
			if tc.campaignID != "" {
				q.Set("campaignId", tc.campaignID)
			}
			resp, body := getReport(t, env, token, q)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			assert.Equal(t, acctA, body.LocationID)
			assert.Equal(t, tc.listType, body.ListType)
			assert.Equal(t, tc.typ, body.Type)
			assert.Equal(t, tc.start, body.StartDate)
			assert.Equal(t, tc.end, body.EndDate)
			assert.Equal(t, tc.campaignID, body.CampaignID)

			want, total := wantRows(data, acctA, tc.listType, tc.typ, tc.start, tc.end, tc.campaignID)
			var gotIDs, wantIDs []string
			for _, w := range want {
				wantIDs = append(wantIDs, w.id)
			}
			for _, r := range body.Rows {
				gotIDs = append(gotIDs, r.ID)
			}
			assert.ElementsMatch(t, tc.wantIDs, wantIDs, "the fixture holds the rows the case is about")
			require.ElementsMatch(t, wantIDs, gotIDs)
			assert.NotNil(t, body.Rows, "rows is a list, empty rather than null")

			byID := map[string]reportRow{}
			for _, r := range body.Rows {
				byID[r.ID] = r
			}
			for _, w := range want {
				r := byID[w.id]
				requireMetrics(t, w.sums, r.Metrics, w.id)
				if tc.listType == adpublishing.ListAdGroups {
					assert.Equal(t, w.campaignID, r.CampaignID, "%s belongs to its campaign", w.id)
					assert.Equal(t, "Campaign "+w.campaignID, r.CampaignName)
					assert.Equal(t, "Ad group "+w.id, r.Name)
					assert.Equal(t, "PAUSED", r.Status)
				} else {
					assert.Empty(t, r.CampaignID, "campaign rows carry no campaignId")
					assert.Equal(t, "Campaign "+w.id, r.Name)
					assert.Equal(t, "ENABLED", r.Status)
				}
			}
			requireMetrics(t, total, body.Totals, "totals")
		})
	}
}

func TestReportingListOrdersRowsByCampaignThenID(t *testing.T) {
	env, token := newEnv(t)
	seedData(t, env, fixture())
	_, body := getReport(t, env, token, reportQuery(acctA, adpublishing.ListAdGroups, adpublishing.TypeIntegration, "2026-05-01", "2026-07-31"))
	var got []string
	for _, r := range body.Rows {
		got = append(got, r.CampaignID+"/"+r.ID)
	}
	assert.Equal(t, []string{"cInt1/gInt11", "cInt1/gInt12", "cInt2/gInt21", "cInt3/gInt31", "cZero/gZero1"}, got)
}

func TestReportingListRatiosWithZeroDenominatorsAreNull(t *testing.T) {
	env, token := newEnv(t)
	seedData(t, env, adpublishing.SeedData{SearchAdsCampaigns: []adpublishing.SeedCampaign{{
		Campaign: adpublishing.Campaign{ID: "c1", LocationID: acctA, Type: adpublishing.TypeIntegration, Name: "One", Status: "ENABLED"},
		Daily: []adpublishing.DailyMetrics{
			{Date: "2026-06-01", Impressions: 1000, Clicks: 0, CostMicros: 0},
			{Date: "2026-06-02", Impressions: 3000, Clicks: 40, CostMicros: 12_345_678, Conversions: 0},
			{Date: "2026-06-03", Impressions: 2000, Clicks: 20, CostMicros: 7_654_322, Conversions: 3},
		},
	}}})
	cases := []struct {
		name       string
		start, end string
		want       string
	}{
		{"impressions without clicks have a ctr of 0 and no per-click figures", "2026-06-01", "2026-06-01",
			`{"impressions":1000,"clicks":0,"cost":0,"conversions":0,"ctr":0,"averageCpc":null,"conversionRate":null,"costPerConversion":null}`},
		{"clicks without conversions have no cost per conversion", "2026-06-02", "2026-06-02",
			`{"impressions":3000,"clicks":40,"cost":12.35,"conversions":0,"ctr":0.0133,"averageCpc":0.31,"conversionRate":0,"costPerConversion":null}`},
		{"money ratios divide the exact micros and round to cents", "2026-06-01", "2026-06-03",
			// cost 20,000,000 micros = 20.00; per click 20/60 = 0.333 -> 0.33;
			// per conversion 20/3 = 6.667 -> 6.67; ctr 60/6000 = 0.01; conversion rate 3/60 = 0.05.
			`{"impressions":6000,"clicks":60,"cost":20,"conversions":3,"ctr":0.01,"averageCpc":0.33,"conversionRate":0.05,"costPerConversion":6.67}`},
		{"a range without rows has zero totals and null ratios", "2026-07-01", "2026-07-31",
			`{"impressions":0,"clicks":0,"cost":0,"conversions":0,"ctr":null,"averageCpc":null,"conversionRate":null,"costPerConversion":null}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: reportPath + "?" + reportQuery(acctA, adpublishing.ListCampaigns, adpublishing.TypeIntegration, tc.start, tc.end).Encode(), Token: token})
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			var raw struct {
				Totals json.RawMessage `json:"totals"`
			}
			resp.JSON(t, &raw)
			assert.JSONEq(t, tc.want, string(raw.Totals))
		})
	}
}

func TestReportingListCampaignIDMustNameACampaignOfTheAccountAndType(t *testing.T) {
	env, token := newEnv(t)
	seedData(t, env, fixture())
	cases := []struct {
		name, typ, campaignID string
	}{
		{"an unknown campaign is 404", adpublishing.TypeIntegration, "noSuchCampaign"},
		{"a campaign of the other integration type is 404", adpublishing.TypeIntegration, "cMgr1"},
		{"a campaign of another account is 404", adpublishing.TypeIntegration, "cOnlyB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := reportQuery(acctA, adpublishing.ListAdGroups, tc.typ, "2026-06-01", "2026-06-30")
			q.Set("campaignId", tc.campaignID)
			resp, _ := getReport(t, env, token, q)
			msg := resp.RequireError(t, http.StatusNotFound)
			assert.Contains(t, msg, tc.campaignID)
		})
	}
	t.Run("a known campaign without rows in the range is an empty list", func(t *testing.T) {
		q := reportQuery(acctA, adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-01", "2026-06-30")
		q.Set("campaignId", "cInt3")
		resp, body := getReport(t, env, token, q)
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.Empty(t, body.Rows)
		assert.Zero(t, body.Totals.Impressions)
	})
}

func TestReportingListRejectsBadParameters(t *testing.T) {
	env, token := newEnv(t)
	seedData(t, env, fixture())
	valid := func() url.Values {
		return reportQuery(acctA, adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-01", "2026-06-30")
	}
	with := func(name, value string) string {
		q := valid()
		q.Set(name, value)
		return q.Encode()
	}
	without := func(name string) string {
		q := valid()
		q.Del(name)
		return q.Encode()
	}
	cases := []struct {
		name  string
		query string
		want  string
	}{
		{"locationId is required", without("locationId"), "locationId is required"},
		{"locationId must be an id", with("locationId", "acct#A"), "locationId must be an id"},
		{"a missing listType lists the lists", without("listType"), "listType is required (one of: campaigns, adGroups"},
		{"listType must be a known list", with("listType", "keywords"), "listType must be one of: campaigns, adGroups"},
		{"listType is case-sensitive", with("listType", "Campaigns"), "listType must be one of"},
		{"a missing type lists the integration types", without("type"), "type is required (one of: AD_MANAGER, INTEGRATION)"},
		{"type must be an integration type", with("type", "ad_manager"), "type must be one of: AD_MANAGER, INTEGRATION"},
		{"startDate is required", without("startDate"), "startDate is required"},
		{"startDate must be YYYY-MM-DD", with("startDate", "2026/06/01"), "startDate must be a date in the form YYYY-MM-DD"},
		{"startDate must have two-digit month and day", with("startDate", "2026-6-1"), "startDate must be a date in the form YYYY-MM-DD"},
		{"startDate must not carry a time", with("startDate", "2026-06-01T00:00:00Z"), "startDate must be a date in the form YYYY-MM-DD"},
		{"startDate must be a real date", with("startDate", "2026-02-30"), "startDate must be a real calendar date"},
		{"endDate is required", without("endDate"), "endDate is required"},
		{"endDate must be YYYY-MM-DD", with("endDate", "30.06.2026"), "endDate must be a date in the form YYYY-MM-DD"},
		{"endDate must be a real date", with("endDate", "2026-04-31"), "endDate must be a real calendar date"},
		{"endDate 29 February of a common year is no date", with("endDate", "2026-02-29"), "endDate must be a real calendar date"},
		{"startDate must not follow endDate", with("startDate", "2026-07-01"), "startDate must not be after endDate"},
		{"the range spans at most 366 days", "locationId=" + acctA + "&listType=campaigns&type=INTEGRATION&startDate=2025-06-01&endDate=2026-06-02", "endDate must be at most 366 days from startDate"},
		{"campaignId must not be empty", with("campaignId", ""), "campaignId must not be empty"},
		{"campaignId must be an id", with("campaignId", "c#1"), "campaignId must be an id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: reportPath + "?" + tc.query, Token: token})
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), tc.want)
		})
	}
	t.Run("a parameter given twice is a bad request naming it", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: reportPath + "?" + valid().Encode() + "&locationId=" + acctA, Token: token})
		assert.Contains(t, resp.RequireError(t, http.StatusBadRequest), "locationId is given 2 times")
	})
	t.Run("every broken rule is named in one answer", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: reportPath + "?listType=ads&startDate=2026-13-01&endDate=x", Token: token})
		msg := resp.RequireError(t, http.StatusUnprocessableEntity)
		for _, field := range []string{"locationId is required", "listType must be one of", "type is required", "startDate must be a real calendar date", "endDate must be a date"} {
			assert.Contains(t, msg, field)
		}
	})
	t.Run("a range of exactly 366 days is accepted", func(t *testing.T) {
		resp, body := getReport(t, env, token, reportQuery(acctA, adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2025-07-01", "2026-07-01"))
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.NotEmpty(t, body.Rows)
	})
	t.Run("a leap day is a real date", func(t *testing.T) {
		resp, _ := getReport(t, env, token, reportQuery(acctA, adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2028-02-29", "2028-02-29"))
		assert.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	})
	t.Run("a one-day range (start equals end) is accepted", func(t *testing.T) {
		resp, _ := getReport(t, env, token, reportQuery(acctA, adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-01", "2026-06-01"))
		assert.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	})
}

func TestReportingListOfAnotherAccountIsForbidden(t *testing.T) {
	env, token := newEnv(t)
	seedData(t, env, fixture())
	resp, _ := getReport(t, env, token, reportQuery(acctB, adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-01", "2026-06-30"))
	msg := resp.RequireError(t, http.StatusForbidden)
	assert.True(t, strings.Contains(msg, "does not have access"), "message: %s", msg)
}

func TestReportingListAuth(t *testing.T) {
	env, _ := newEnv(t)
	seedData(t, env, fixture())
	q := reportQuery(acctA, adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-01", "2026-06-30").Encode()
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.SearchAdsReportingList, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "GET", Path: reportPath + "?" + q, Token: token})
		},
	})
}
