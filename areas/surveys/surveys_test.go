package surveys_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/surveys"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"
	// Account A has 27 records: every third one (ids 03, 06, ... 27) is a
	// folder, the other 18 are surveys.
	records = 27
	folders = 9
)

// seedSurveys writes account A's records, out of id order, and two of
// account B's.
func seedSurveys(t *testing.T, env *testenv.Env) (all, folderIDs, surveyIDs []string) {
	t.Helper()
	var data []surveys.Survey
	for i := records; i >= 1; i-- {
		typ := surveys.TypeSurvey
		if i%3 == 0 {
			typ = surveys.TypeFolder
		}
		data = append(data, surveys.Survey{ID: fmt.Sprintf("srv%02d", i), Name: fmt.Sprintf("Survey %d", i), LocationID: acctA, Type: typ})
	}
	for i := 1; i <= records; i++ {
		id := fmt.Sprintf("srv%02d", i)
		all = append(all, id)
		if i%3 == 0 {
			folderIDs = append(folderIDs, id)
		} else {
			surveyIDs = append(surveyIDs, id)
		}
	}
	data = append(data,
		surveys.Survey{ID: "otherSrv1", Name: "Bravo survey", LocationID: acctB, Type: surveys.TypeSurvey},
		surveys.Survey{ID: "otherSrv2", Name: "Bravo folder", LocationID: acctB, Type: surveys.TypeFolder},
	)
	raw, err := json.Marshal(surveys.SeedData{Surveys: data})
	require.NoError(t, err)
	env.Seed(t, surveys.Area, string(raw))
	return all, folderIDs, surveyIDs
}

func newEnv(t *testing.T) (*testenv.Env, string) {
	t.Helper()
	env := testenv.New(t, []app.Area{surveys.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	token, _ := env.Token(t, acctA)
	return env, token
}

type listBody struct {
	Surveys []surveys.Survey `json:"surveys"`
	Total   int              `json:"total"`
}

func (b listBody) ids() []string {
	ids := make([]string, len(b.Surveys))
	for i, s := range b.Surveys {
		ids[i] = s.ID
	}
	return ids
}

func list(t *testing.T, env *testenv.Env, token string, query url.Values) (*testenv.Response, listBody) {
	t.Helper()
	resp := env.Do(t, testenv.Request{Method: "GET", Path: "/surveys/?" + query.Encode(), Token: token})
	var body listBody
	if resp.Status == http.StatusOK {
		resp.JSON(t, &body)
	}
	return resp, body
}

func TestListSurveysPages(t *testing.T) {
	env, token := newEnv(t)
	all, _, _ := seedSurveys(t, env)
	cases := []struct {
		name  string
		query url.Values
		want  []string
	}{
		{"defaults answer the first 10 by id", url.Values{}, all[:10]},
		{"skip 10 answers the next 10", url.Values{"skip": {"10"}}, all[10:20]},
		{"skip 20 answers the last 7", url.Values{"skip": {"20"}}, all[20:]},
		{"limit 4 skip 5 answers the sixth to ninth", url.Values{"skip": {"5"}, "limit": {"4"}}, all[5:9]},
		{"limit 50 answers every record", url.Values{"limit": {"50"}}, all},
		{"a skip past every record answers none", url.Values{"skip": {"27"}}, []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.query.Set("locationId", acctA)
			resp, body := list(t, env, token, tc.query)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			assert.Equal(t, tc.want, body.ids())
			assert.Equal(t, records, body.Total, "total counts every match, not the page")
			for _, s := range body.Surveys {
				assert.Equal(t, acctA, s.LocationID)
				assert.NotEmpty(t, s.Name)
			}
		})
	}
	t.Run("an answer carries id, name, locationId and type", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/surveys/?locationId=" + acctA + "&limit=1&skip=2", Token: token})
		require.Equal(t, http.StatusOK, resp.Status)
		assert.JSONEq(t, `{"surveys":[{"id":"srv03","name":"Survey 3","locationId":"acctAlpha","type":"folder"}],"total":27}`, string(resp.Body))
	})
	t.Run("walking pages answers every record once, in the same order", func(t *testing.T) {
		var seen []string
		for skip := 0; skip < records; skip += 8 {
			_, body := list(t, env, token, url.Values{"locationId": {acctA}, "skip": {fmt.Sprint(skip)}, "limit": {"8"}})
			seen = append(seen, body.ids()...)
		}
		assert.Equal(t, all, seen)
	})
	t.Run("the path without its trailing slash is served too", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/surveys?locationId=" + acctA, Token: token})
		assert.Equal(t, http.StatusOK, resp.Status)
	})
	t.Run("an account with no surveys answers an empty list", func(t *testing.T) {
		env.Account(t, "acctEmpty", company)
		tokenE, _ := env.Token(t, "acctEmpty")
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/surveys/?locationId=acctEmpty", Token: tokenE})
		require.Equal(t, http.StatusOK, resp.Status)
		assert.JSONEq(t, `{"surveys":[],"total":0}`, string(resp.Body))
	})
}

func TestListSurveysTypeFilter(t *testing.T) {
	env, token := newEnv(t)
	_, folderIDs, surveyIDs := seedSurveys(t, env)
	cases := []struct {
		name  string
		query url.Values
		want  []string
		total int
	}{
		{"folder answers only folders", url.Values{"type": {"folder"}}, folderIDs, folders},
		{"survey answers only surveys, paged", url.Values{"type": {"survey"}}, surveyIDs[:10], records - folders},
		{"survey with skip answers the rest of the surveys", url.Values{"type": {"survey"}, "skip": {"10"}}, surveyIDs[10:], records - folders},
		{"folder with limit 2 skip 1 answers the second and third folders", url.Values{"type": {"folder"}, "limit": {"2"}, "skip": {"1"}}, folderIDs[1:3], folders},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.query.Set("locationId", acctA)
			resp, body := list(t, env, token, tc.query)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			assert.Equal(t, tc.want, body.ids())
			assert.Equal(t, tc.total, body.Total, "total counts every match of the filter")
			for _, s := range body.Surveys {
				assert.Equal(t, tc.query.Get("type"), s.Type)
			}
		})
	}
}

func TestListSurveysNeverShowsAnotherAccountsSurveys(t *testing.T) {
	env, token := newEnv(t)
	seedSurveys(t, env)
	_, body := list(t, env, token, url.Values{"locationId": {acctA}, "limit": {"50"}})
	for _, s := range body.Surveys {
		assert.NotContains(t, s.ID, "otherSrv")
	}
	t.Run("naming another account is 403", func(t *testing.T) {
		resp, _ := list(t, env, token, url.Values{"locationId": {acctB}})
		assert.Contains(t, resp.RequireError(t, http.StatusForbidden), "does not have access to this location")
		assert.NotContains(t, string(resp.Body), "otherSrv")
	})
	t.Run("the other account sees only its own", func(t *testing.T) {
		tokenB, _ := env.Token(t, acctB)
		_, body := list(t, env, tokenB, url.Values{"locationId": {acctB}})
		assert.Equal(t, []string{"otherSrv1", "otherSrv2"}, body.ids())
		assert.Equal(t, 2, body.Total)
	})
}

func TestListSurveysRejectsBadParameters(t *testing.T) {
	env, token := newEnv(t)
	seedSurveys(t, env)
	cases := []struct {
		name  string
		query string
		want  string
	}{
		{"locationId is required", "", "locationId is required"},
		{"locationId must be an id", "locationId=ACCOUNT%23x", "locationId must be an id"},
		{"limit 51 is above the maximum of 50", "locationId=" + acctA + "&limit=51", "limit must be between 1 and 50"},
		{"limit 0 is below the minimum", "locationId=" + acctA + "&limit=0", "limit must be between 1 and 50"},
		{"limit must be an integer", "locationId=" + acctA + "&limit=ten", "limit must be an integer"},
		{"skip must not be negative", "locationId=" + acctA + "&skip=-1", "skip must be between 0 and 100000"},
		{"skip must be an integer", "locationId=" + acctA + "&skip=1.5", "skip must be an integer"},
		{"type must be folder or survey", "locationId=" + acctA + "&type=quiz", "type must be one of: folder, survey"},
		{"type is case-sensitive", "locationId=" + acctA + "&type=Folder", "type must be one of: folder, survey"},
		{"an empty type is refused", "locationId=" + acctA + "&type=", "type must be one of: folder, survey"},
		{"a parameter given twice is refused", "locationId=" + acctA + "&limit=5&limit=6", "limit is given 2 times"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "GET", Path: "/surveys/?" + tc.query, Token: token})
			assert.Contains(t, resp.RequireError(t, http.StatusBadRequest), tc.want)
		})
	}
}

func TestListSurveysAuth(t *testing.T) {
	env, _ := newEnv(t)
	seedSurveys(t, env)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.ListSurveys, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "GET", Path: "/surveys/?locationId=" + acctA, Token: token})
		},
	})
}

func TestSurveySeed(t *testing.T) {
	env, _ := newEnv(t)
	seedSurveys(t, env)
	ctx := context.Background()
	store := surveys.NewCatalog(env.Table)

	s, err := store.Get(ctx, acctA, "srv03")
	require.NoError(t, err)
	assert.Equal(t, &surveys.Survey{ID: "srv03", Name: "Survey 3", LocationID: acctA, Type: surveys.TypeFolder}, s)
	other, err := store.Get(ctx, acctA, "otherSrv1")
	require.NoError(t, err)
	assert.Nil(t, other, "another account's survey is not in this account's partition")

	for name, data := range map[string]string{
		"a malformed id":  `{"surveys":[{"id":"a#b","name":"x","locationId":"acctAlpha","type":"survey"}]}`,
		"an unknown type": `{"surveys":[{"id":"ab","name":"x","locationId":"acctAlpha","type":"quiz"}]}`,
		"no name":         `{"surveys":[{"id":"ab","name":" ","locationId":"acctAlpha","type":"survey"}]}`,
	} {
		assert.Error(t, surveys.Area.Seed(ctx, env.Deps, json.RawMessage(data)), name)
	}

	t.Run("the demo surveys load and page", func(t *testing.T) {
		denv := testenv.New(t, []app.Area{surveys.Area})
		ds, err := demo.Default()
		require.NoError(t, err)
		denv.Seed(t, surveys.Area, string(ds["surveys"]))
		denv.Account(t, demo.AccountAlpha, demo.CompanyNorth)
		token, _ := denv.Token(t, demo.AccountAlpha)
		_, body := list(t, denv, token, url.Values{"locationId": {demo.AccountAlpha}})
		assert.Len(t, body.Surveys, 10)
		assert.Greater(t, body.Total, 10)
	})
}
