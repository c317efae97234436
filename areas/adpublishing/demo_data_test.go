package adpublishing_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/adpublishing"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

const (
	demoAlpha   = "demoLocAlpha00000001"
	demoBravo   = "demoLocBravo00000002"
	demoCharlie = "demoLocCharlie000003"
)

// demoEnv serves the area with the committed demo data loaded, as `make run`
// does on first start.
func demoEnv(t *testing.T) (*testenv.Env, string, adpublishing.SeedData) {
	ds, err := demo.Default()
	require.NoError(t, err)
	raw := ds[adpublishing.Area.Name]
	require.NotEmpty(t, raw, "the demo dataset has an ad-publishing part")
	assert.Less(t, len(raw), 1<<20, "the demo file stays well under 1 MB")
	var data adpublishing.SeedData
	require.NoError(t, json.Unmarshal(raw, &data))

	env := testenv.New(t, []app.Area{adpublishing.Area})
	env.Account(t, demoAlpha, "demoCompanyNorthwind")
	env.Account(t, demoBravo, "demoCompanyNorthwind")
	env.Account(t, demoCharlie, "demoCompanySouthwind")
	env.Seed(t, adpublishing.Area, string(raw))
	token, _ := env.Token(t, demoAlpha)
	return env, token, data
}

func TestDemoDataServesTheDocumentedExamples(t *testing.T) {
	env, token, data := demoEnv(t)

	t.Run("the demo account has campaigns of both integration types", func(t *testing.T) {
		for _, typ := range adpublishing.IntegrationTypes {
			_, body := getReport(t, env, token, reportQuery(demoAlpha, adpublishing.ListCampaigns, typ, "2026-06-01", "2026-10-31"))
			assert.NotEmpty(t, body.Rows, typ)
		}
	})
	t.Run("campaign totals over the whole history equal the sum of the file's rows", func(t *testing.T) {
		resp, body := getReport(t, env, token, reportQuery(demoAlpha, adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-01", "2026-10-31"))
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		_, want := wantRows(data, demoAlpha, adpublishing.ListCampaigns, adpublishing.TypeIntegration, "2026-06-01", "2026-10-31", "")
		requireMetrics(t, want, body.Totals, "totals")
		assert.Len(t, body.Rows, 3)
	})
	t.Run("a campaign's ad groups add up to the campaign, as on the ad network", func(t *testing.T) {
		for _, typ := range adpublishing.IntegrationTypes {
			_, campaigns := getReport(t, env, token, reportQuery(demoAlpha, adpublishing.ListCampaigns, typ, "2026-07-15", "2026-09-14"))
			_, groups := getReport(t, env, token, reportQuery(demoAlpha, adpublishing.ListAdGroups, typ, "2026-07-15", "2026-09-14"))
			assert.Equal(t, campaigns.Totals, groups.Totals, typ)
		}
	})
	t.Run("the documented example: ad groups of the implants campaign in September", func(t *testing.T) {
		q := reportQuery(demoAlpha, adpublishing.ListAdGroups, adpublishing.TypeIntegration, "2026-09-01", "2026-09-30")
		q.Set("campaignId", "demoSearchCmpAlpha02")
		resp, body := getReport(t, env, token, q)
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		require.Len(t, body.Rows, 3, "the paused ad group still has rows until 15 September")
		want, total := wantRows(data, demoAlpha, adpublishing.ListAdGroups, adpublishing.TypeIntegration, "2026-09-01", "2026-09-30", "demoSearchCmpAlpha02")
		for i, w := range want {
			requireMetrics(t, w.sums, body.Rows[i].Metrics, w.id)
		}
		requireMetrics(t, total, body.Totals, "totals")
	})
	t.Run("other demo accounts' campaigns stay out of the demo account's list", func(t *testing.T) {
		_, body := getReport(t, env, token, reportQuery(demoAlpha, adpublishing.ListAdGroups, adpublishing.TypeIntegration, "2026-06-01", "2026-10-31"))
		for _, r := range body.Rows {
			assert.Contains(t, r.ID, "Alpha")
		}
	})
	t.Run("the documented example: the demo account's social integration is removed once", func(t *testing.T) {
		resp := deleteIntegration(t, env, token, deleteBody(demoAlpha))
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		deleteIntegration(t, env, token, deleteBody(demoAlpha)).RequireError(t, http.StatusNotFound)
		bravo, err := adpublishing.NewAds(env.Table).SocialIntegration(t.Context(), demoBravo)
		require.NoError(t, err)
		assert.NotNil(t, bravo)
	})
}

func TestSeedRefusesBrokenData(t *testing.T) {
	env := testenv.New(t, []app.Area{adpublishing.Area})
	cases := []struct{ name, data string }{
		{"an unknown property", `{"searchAdsCampaign":[]}`},
		{"a malformed campaign id", `{"searchAdsCampaigns":[{"id":"c#1","locationId":"a","type":"INTEGRATION","name":"n","status":"ENABLED"}]}`},
		{"an unknown integration type", `{"searchAdsCampaigns":[{"id":"c1","locationId":"a","type":"OTHER","name":"n","status":"ENABLED"}]}`},
		{"an unknown status", `{"searchAdsCampaigns":[{"id":"c1","locationId":"a","type":"INTEGRATION","name":"n","status":"LIVE"}]}`},
		{"a day that does not exist", `{"searchAdsCampaigns":[{"id":"c1","locationId":"a","type":"INTEGRATION","name":"n","status":"ENABLED","daily":[{"date":"2026-02-30"}]}]}`},
		{"a day given twice", `{"searchAdsCampaigns":[{"id":"c1","locationId":"a","type":"INTEGRATION","name":"n","status":"ENABLED","daily":[{"date":"2026-02-03"},{"date":"2026-02-03"}]}]}`},
		{"a negative figure", `{"searchAdsCampaigns":[{"id":"c1","locationId":"a","type":"INTEGRATION","name":"n","status":"ENABLED","adGroups":[{"id":"g1","name":"g","status":"ENABLED","daily":[{"date":"2026-02-03","clicks":-1}]}]}]}`},
		{"an integration whose connection time is not a time", `{"socialAdsIntegrations":[{"id":"i1","locationId":"a","adAccountId":"act_1","connectedAt":"yesterday"}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Error(t, adpublishing.Area.Seed(t.Context(), env.Deps, json.RawMessage(tc.data)))
		})
	}
}
