package campaigns_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/campaigns"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"
)

// testCampaigns are account A's campaigns in id order (seeded out of order)
// and one of account B's.
var testCampaigns = []campaigns.Campaign{
	{ID: "cmp1", Name: "Spring sale", Status: campaigns.StatusPublished, LocationID: acctA},
	{ID: "cmp2", Name: "Summer teaser", Status: campaigns.StatusDraft, LocationID: acctA},
	{ID: "cmp3", Name: "Welcome series", Status: campaigns.StatusPublished, LocationID: acctA},
	{ID: "cmp4", Name: "Win-back", Status: campaigns.StatusDraft, LocationID: acctA},
	{ID: "cmp5", Name: "Review request", Status: campaigns.StatusPublished, LocationID: acctA},
}

var otherCampaign = campaigns.Campaign{ID: "otherCmp", Name: "Bravo only", Status: campaigns.StatusPublished, LocationID: acctB}

func newEnv(t *testing.T) (*testenv.Env, string) {
	t.Helper()
	env := testenv.New(t, []app.Area{campaigns.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	data := []campaigns.Campaign{otherCampaign}
	for i := len(testCampaigns) - 1; i >= 0; i-- {
		data = append(data, testCampaigns[i])
	}
	raw, err := json.Marshal(campaigns.SeedData{Campaigns: data})
	require.NoError(t, err)
	env.Seed(t, campaigns.Area, string(raw))
	token, _ := env.Token(t, acctA)
	return env, token
}

type listBody struct {
	Campaigns []campaigns.Campaign `json:"campaigns"`
}

func list(t *testing.T, env *testenv.Env, token string, query url.Values) (*testenv.Response, listBody) {
	t.Helper()
	resp := env.Do(t, testenv.Request{Method: "GET", Path: "/campaigns/?" + query.Encode(), Token: token})
	var body listBody
	if resp.Status == http.StatusOK {
		resp.JSON(t, &body)
	}
	return resp, body
}

func pick(idx ...int) []campaigns.Campaign {
	out := make([]campaigns.Campaign, len(idx))
	for i, n := range idx {
		out[i] = testCampaigns[n]
	}
	return out
}

func TestListCampaigns(t *testing.T) {
	env, token := newEnv(t)
	cases := []struct {
		name   string
		status []string
		want   []campaigns.Campaign
	}{
		{"without a filter answers every campaign of the account by id", nil, testCampaigns},
		{"status draft answers only drafts", []string{"draft"}, pick(1, 3)},
		{"status published answers only published ones", []string{"published"}, pick(0, 2, 4)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := url.Values{"locationId": {acctA}}
			if tc.status != nil {
				q["status"] = tc.status
			}
			resp, body := list(t, env, token, q)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			assert.Equal(t, tc.want, body.Campaigns)
		})
	}
	t.Run("an answer carries id, name, status and locationId", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/campaigns/?locationId=" + acctA + "&status=draft", Token: token})
		require.Equal(t, http.StatusOK, resp.Status)
		assert.JSONEq(t, `{"campaigns":[
			{"id":"cmp2","name":"Summer teaser","status":"draft","locationId":"acctAlpha"},
			{"id":"cmp4","name":"Win-back","status":"draft","locationId":"acctAlpha"}]}`, string(resp.Body))
	})
	t.Run("the path without its trailing slash is served too", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/campaigns?locationId=" + acctA, Token: token})
		assert.Equal(t, http.StatusOK, resp.Status)
	})
	t.Run("an account with no campaigns answers an empty list", func(t *testing.T) {
		env.Account(t, "acctEmpty", company)
		tokenE, _ := env.Token(t, "acctEmpty")
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/campaigns/?locationId=acctEmpty", Token: tokenE})
		require.Equal(t, http.StatusOK, resp.Status)
		assert.JSONEq(t, `{"campaigns":[]}`, string(resp.Body))
	})
}

func TestListCampaignsNeverShowsAnotherAccountsCampaigns(t *testing.T) {
	env, token := newEnv(t)
	_, body := list(t, env, token, url.Values{"locationId": {acctA}})
	assert.NotContains(t, body.Campaigns, otherCampaign)
	t.Run("naming another account is 403", func(t *testing.T) {
		resp, _ := list(t, env, token, url.Values{"locationId": {acctB}})
		assert.Contains(t, resp.RequireError(t, http.StatusForbidden), "does not have access to this location")
		assert.NotContains(t, string(resp.Body), otherCampaign.ID)
	})
	t.Run("the other account sees only its own", func(t *testing.T) {
		tokenB, _ := env.Token(t, acctB)
		_, body := list(t, env, tokenB, url.Values{"locationId": {acctB}})
		assert.Equal(t, []campaigns.Campaign{otherCampaign}, body.Campaigns)
	})
}

func TestListCampaignsRejectsBadParameters(t *testing.T) {
	env, token := newEnv(t)
	cases := []struct {
		name  string
		query string
		want  string
	}{
		{"locationId is required", "", "locationId is required"},
		{"locationId must not be blank", "locationId=%20", "locationId is required"},
		{"locationId must be an id", "locationId=ACCOUNT%23x", "locationId must be an id"},
		{"a status no campaign can have is refused", "locationId=" + acctA + "&status=archived", "status must be one of: draft, published"},
		{"status is case-sensitive", "locationId=" + acctA + "&status=Published", "status must be one of: draft, published"},
		{"an empty status is refused", "locationId=" + acctA + "&status=", "status must be one of: draft, published"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: "/campaigns/?" + tc.query, Token: token})
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), tc.want)
		})
	}
	t.Run("status given twice is a bad request naming it", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/campaigns/?locationId=" + acctA + "&status=draft&status=published", Token: token})
		assert.Contains(t, resp.RequireError(t, http.StatusBadRequest), "status is given 2 times")
	})
}

func TestListCampaignsAuth(t *testing.T) {
	env, _ := newEnv(t)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.ListCampaigns, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "GET", Path: "/campaigns/?locationId=" + acctA, Token: token})
		},
	})
}

func TestCampaignSeed(t *testing.T) {
	env, _ := newEnv(t)
	ctx := context.Background()
	store := campaigns.NewCatalog(env.Table)

	c, err := store.Get(ctx, acctA, "cmp2")
	require.NoError(t, err)
	assert.Equal(t, &testCampaigns[1], c)
	other, err := store.Get(ctx, acctA, otherCampaign.ID)
	require.NoError(t, err)
	assert.Nil(t, other, "another account's campaign is not in this account's partition")

	for name, data := range map[string]string{
		"a malformed id":    `{"campaigns":[{"id":"a#b","name":"x","status":"draft","locationId":"acctAlpha"}]}`,
		"an unknown status": `{"campaigns":[{"id":"ab","name":"x","status":"archived","locationId":"acctAlpha"}]}`,
		"no name":           `{"campaigns":[{"id":"ab","name":"","status":"draft","locationId":"acctAlpha"}]}`,
	} {
		assert.Error(t, campaigns.Area.Seed(ctx, env.Deps, json.RawMessage(data)), name)
	}

	t.Run("the demo campaigns load, in both statuses", func(t *testing.T) {
		denv := testenv.New(t, []app.Area{campaigns.Area})
		ds, err := demo.Default()
		require.NoError(t, err)
		denv.Seed(t, campaigns.Area, string(ds["campaigns"]))
		denv.Account(t, demo.AccountAlpha, demo.CompanyNorth)
		token, _ := denv.Token(t, demo.AccountAlpha)
		for _, status := range campaigns.Statuses {
			_, body := list(t, denv, token, url.Values{"locationId": {demo.AccountAlpha}, "status": {status}})
			assert.NotEmpty(t, body.Campaigns, status)
		}
	})
}
