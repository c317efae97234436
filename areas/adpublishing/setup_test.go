package adpublishing_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/adpublishing"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

const (
	acctA      = "acctAlpha"
	acctB      = "acctBravo"
	company    = "companyOne"
	reportPath = "/ad-publishing/searchads/reporting/list"
	socialPath = "/ad-publishing/socialads/integration"
)

func newEnv(t *testing.T) (*testenv.Env, string) {
	env := testenv.New(t, []app.Area{adpublishing.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	token, _ := env.Token(t, acctA)
	return env, token
}

func seedData(t *testing.T, env *testenv.Env, data adpublishing.SeedData) {
	t.Helper()
	raw, err := json.Marshal(data)
	require.NoError(t, err)
	env.Seed(t, adpublishing.Area, string(raw))
}

// randomDaily draws one row per day from first to last (inclusive) from a
// fixed-seed generator, so every run sees the same figures.
func randomDaily(rng *rand.Rand, first, last string, scale int64) []adpublishing.DailyMetrics {
	d, err := time.Parse(time.DateOnly, first)
	if err != nil {
		panic(err)
	}
	end, err := time.Parse(time.DateOnly, last)
	if err != nil {
		panic(err)
	}
	var rows []adpublishing.DailyMetrics
	for ; !d.After(end); d = d.AddDate(0, 0, 1) {
		impr := scale/2 + rng.Int64N(scale)
		clicks := rng.Int64N(impr/8 + 1)
		rows = append(rows, adpublishing.DailyMetrics{
			Date:        d.Format(time.DateOnly),
			Impressions: impr,
			Clicks:      clicks,
			CostMicros:  clicks * (400_000 + rng.Int64N(5_000_000)), // any micros, not whole cents
			Conversions: rng.Int64N(clicks/5 + 1),
		})
	}
	return rows
}

// zeroDaily is days of rows with nothing delivered.
func zeroDaily(dates ...string) []adpublishing.DailyMetrics {
	rows := make([]adpublishing.DailyMetrics, len(dates))
	for i, d := range dates {
		rows[i] = adpublishing.DailyMetrics{Date: d}
	}
	return rows
}

// fixture is the reporting test data of account A (and a decoy in B):
//
//	cInt1  INTEGRATION  2026-05-25..2026-07-10, ad groups gInt11, gInt12
//	cInt2  INTEGRATION  2026-06-10..2026-06-20, ad group gInt21
//	cInt3  INTEGRATION  May only (outside June), ad group gInt31
//	cZero  INTEGRATION  June rows with nothing delivered, ad group gZero1
//	cMgr1  AD_MANAGER   June, ad group gMgr11
//	B: cInt1 (same id!) and cOnlyB, INTEGRATION, June, huge figures
func fixture() adpublishing.SeedData {
	rng := rand.New(rand.NewPCG(7, 11))
	camp := func(acct, id, typ string, daily []adpublishing.DailyMetrics, groups ...adpublishing.SeedAdGroup) adpublishing.SeedCampaign {
		return adpublishing.SeedCampaign{
			Campaign: adpublishing.Campaign{ID: id, LocationID: acct, Type: typ, Name: "Campaign " + id, Status: "ENABLED"},
			Daily:    daily, AdGroups: groups,
		}
	}
	group := func(id string, daily []adpublishing.DailyMetrics) adpublishing.SeedAdGroup {
		return adpublishing.SeedAdGroup{ID: id, Name: "Ad group " + id, Status: "PAUSED", Daily: daily}
	}
	return adpublishing.SeedData{SearchAdsCampaigns: []adpublishing.SeedCampaign{
		camp(acctA, "cInt1", adpublishing.TypeIntegration, randomDaily(rng, "2026-05-25", "2026-07-10", 1000),
			group("gInt11", randomDaily(rng, "2026-05-25", "2026-07-10", 600)),
			group("gInt12", randomDaily(rng, "2026-06-05", "2026-07-10", 400))),
		camp(acctA, "cInt2", adpublishing.TypeIntegration, randomDaily(rng, "2026-06-10", "2026-06-20", 5000),
			group("gInt21", randomDaily(rng, "2026-06-10", "2026-06-20", 5000))),
		camp(acctA, "cInt3", adpublishing.TypeIntegration, randomDaily(rng, "2026-05-01", "2026-05-31", 800),
			group("gInt31", randomDaily(rng, "2026-05-01", "2026-05-31", 800))),
		camp(acctA, "cZero", adpublishing.TypeIntegration, zeroDaily("2026-06-03", "2026-06-04"),
			group("gZero1", zeroDaily("2026-06-03"))),
		camp(acctA, "cMgr1", adpublishing.TypeAdManager, randomDaily(rng, "2026-06-01", "2026-06-30", 700),
			group("gMgr11", randomDaily(rng, "2026-06-01", "2026-06-30", 700))),
		camp(acctB, "cInt1", adpublishing.TypeIntegration, randomDaily(rng, "2026-06-01", "2026-06-30", 90_000),
			group("gInt11", randomDaily(rng, "2026-06-01", "2026-06-30", 90_000))),
		camp(acctB, "cOnlyB", adpublishing.TypeIntegration, randomDaily(rng, "2026-06-01", "2026-06-30", 90_000)),
	}}
}

// reportBody is the answer as a client decodes it.
type reportBody struct {
	LocationID string      `json:"locationId"`
	ListType   string      `json:"listType"`
	Type       string      `json:"type"`
	StartDate  string      `json:"startDate"`
	EndDate    string      `json:"endDate"`
	CampaignID string      `json:"campaignId"`
	Rows       []reportRow `json:"rows"`
	Totals     metricsBody `json:"totals"`
}

type reportRow struct {
	ID           string      `json:"id"`
	Name         string      `json:"name"`
	Status       string      `json:"status"`
	CampaignID   string      `json:"campaignId"`
	CampaignName string      `json:"campaignName"`
	Metrics      metricsBody `json:"metrics"`
}

type metricsBody struct {
	Impressions       int64    `json:"impressions"`
	Clicks            int64    `json:"clicks"`
	Cost              float64  `json:"cost"`
	Conversions       int64    `json:"conversions"`
	CTR               *float64 `json:"ctr"`
	AverageCPC        *float64 `json:"averageCpc"`
	ConversionRate    *float64 `json:"conversionRate"`
	CostPerConversion *float64 `json:"costPerConversion"`
}

func reportQuery(acct, listType, typ, start, end string) url.Values {
	return url.Values{"locationId": {acct}, "listType": {listType}, "type": {typ}, "startDate": {start}, "endDate": {end}}
}

func getReport(t *testing.T, env *testenv.Env, token string, q url.Values) (*testenv.Response, reportBody) {
	t.Helper()
	resp := env.Do(t, testenv.Request{Method: "GET", Path: reportPath + "?" + q.Encode(), Token: token})
	var body reportBody
	if resp.Status == http.StatusOK {
		resp.JSON(t, &body)
	}
	return resp, body
}

// expectedSums are figures summed in the test, independently of the code
// under test, from the rows it seeded.
type expectedSums struct{ impressions, clicks, costMicros, conversions int64 }

func sumRange(rows []adpublishing.DailyMetrics, start, end string) (expectedSums, bool) {
	var s expectedSums
	found := false
	for _, r := range rows {
		if r.Date < start || r.Date > end {
			continue
		}
		found = true
		s.impressions += r.Impressions
		s.clicks += r.Clicks
		s.costMicros += r.CostMicros
		s.conversions += r.Conversions
	}
	return s, found
}

func (s *expectedSums) add(o expectedSums) {
	s.impressions += o.impressions
	s.clicks += o.clicks
	s.costMicros += o.costMicros
	s.conversions += o.conversions
}

// requireMetrics checks the answer's figures against the sums: counts
// exactly, money and ratios as the documented rounding of the exact quotient.
func requireMetrics(t *testing.T, want expectedSums, got metricsBody, what string) {
	t.Helper()
	assert.Equal(t, want.impressions, got.Impressions, "%s impressions", what)
	assert.Equal(t, want.clicks, got.Clicks, "%s clicks", what)
	assert.Equal(t, want.conversions, got.Conversions, "%s conversions", what)
	assert.InDelta(t, math.Round(float64(want.costMicros)/1e4)/100, got.Cost, 1e-9, "%s cost", what)
	ratioOf := func(name string, num, den int64, got *float64) {
		if den == 0 {
			assert.Nil(t, got, "%s %s with a zero denominator is null", what, name)
			return
		}
		if assert.NotNil(t, got, "%s %s", what, name) {
			assert.InDelta(t, math.Round(float64(num)/float64(den)*1e4)/1e4, *got, 1e-9, "%s %s", what, name)
		}
	}
	moneyOf := func(name string, micros, den int64, got *float64) {
		if den == 0 {
			assert.Nil(t, got, "%s %s with a zero denominator is null", what, name)
			return
		}
		if assert.NotNil(t, got, "%s %s", what, name) {
			assert.InDelta(t, math.Round(float64(micros)/float64(den)/1e4)/100, *got, 1e-9, "%s %s", what, name)
		}
	}
	ratioOf("ctr", want.clicks, want.impressions, got.CTR)
	moneyOf("averageCpc", want.costMicros, want.clicks, got.AverageCPC)
	ratioOf("conversionRate", want.conversions, want.clicks, got.ConversionRate)
	moneyOf("costPerConversion", want.costMicros, want.conversions, got.CostPerConversion)
}

// integration is a social-ad integration of account acct.
func integration(acct, id string) adpublishing.SocialIntegration {
	return adpublishing.SocialIntegration{
		ID: id, LocationID: acct, AdAccountID: "act_" + id, AdAccountName: "Ads of " + acct,
		PageID: "page" + id, PageName: "Page of " + acct, ConnectedAt: "2026-05-20T09:30:00.000Z",
	}
}

func seedIntegrations(t *testing.T, env *testenv.Env, integrations ...adpublishing.SocialIntegration) {
	t.Helper()
	seedData(t, env, adpublishing.SeedData{SocialAdsIntegrations: integrations})
}

func deleteBody(acct string) string { return fmt.Sprintf(`{"locationId":%q}`, acct) }
