package users_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/users"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/operations"
)

const (
	acctA      = "acctAlpha"
	acctB      = "acctBravo"
	acctC      = "acctCharlie"
	companyOne = "companyOne"
	companyTwo = "companyTwo"
	searchPath = "/users/search/filter-by-email"
	staffCount = 10
)

// seedUser is one user of the test dataset.
type seedUser struct {
	ID          string            `json:"id"`
	CompanyID   string            `json:"companyId"`
	Name        string            `json:"name,omitempty"`
	FirstName   string            `json:"firstName,omitempty"`
	LastName    string            `json:"lastName,omitempty"`
	Email       string            `json:"email"`
	Phone       string            `json:"phone,omitempty"`
	Permissions map[string]bool   `json:"permissions,omitempty"`
	Scopes      []string          `json:"scopes,omitempty"`
	Roles       map[string]any    `json:"roles"`
	Deleted     bool              `json:"deleted"`
	LcPhone     map[string]string `json:"lcPhone,omitempty"`
	Language    string            `json:"platformLanguage,omitempty"`
}

func accountRole(role string, locations ...string) map[string]any {
	return map[string]any{"type": "account", "role": role, "locationIds": locations, "restrictSubAccount": false}
}

// staffEmail is the address of the i-th (1-based) staff member; staff share
// the team.example domain and sort by number.
func staffEmail(i int) string { return fmt.Sprintf("staff%02d@team.example", i) }

func staffEmails(n int) string {
	list := make([]string, n)
	for i := range list {
		list[i] = staffEmail(i + 1)
	}
	return strings.Join(list, ",")
}

// dataset is company one's users (an admin, ten staff members, a deleted
// user, a rehired user whose deleted predecessor has the same address, and
// a user whose address company two also has) and company two's users.
func dataset() []seedUser {
	us := []seedUser{{
		ID: "one-admin", CompanyID: companyOne, Name: "Ana Alvarez", FirstName: "Ana", LastName: "Alvarez",
		Email: "ana.alvarez@one.example", Phone: "+15550000001",
		Permissions: map[string]bool{"websitesEnabled": true, "searchAdsReportingEnabled": true, "campaignsEnabled": false},
		Scopes:      []string{"contacts.write", "campaigns.readonly"},
		Roles:       map[string]any{"type": "agency", "role": "admin", "locationIds": []string{acctA, acctB}, "restrictSubAccount": true},
		LcPhone:     map[string]string{acctA: "+15550009999"}, Language: "fr_CA",
	}}
	for i := 1; i <= staffCount; i++ {
		us = append(us, seedUser{ID: fmt.Sprintf("one-staff%02d", i), CompanyID: companyOne, Name: fmt.Sprintf("Staff %d", i), Email: staffEmail(i), Roles: accountRole("user", acctA)})
	}
	return append(us,
		seedUser{ID: "one-gone", CompanyID: companyOne, Name: "Gone Person", Email: "gone@one.example", Roles: accountRole("user", acctA), Deleted: true},
		seedUser{ID: "one-rehire-old", CompanyID: companyOne, Name: "Rehired (left)", Email: "rehire@one.example", Roles: accountRole("user", acctA), Deleted: true},
		seedUser{ID: "one-rehire-new", CompanyID: companyOne, Name: "Rehired", Email: "Rehire@ONE.example", Roles: accountRole("user", acctA)},
		seedUser{ID: "one-shared", CompanyID: companyOne, Name: "Shared One", Email: "shared@both.example", Roles: accountRole("admin", acctB)},
		seedUser{ID: "two-shared", CompanyID: companyTwo, Name: "Shared Two", Email: "shared@both.example", Roles: accountRole("admin", acctC)},
		seedUser{ID: "two-only", CompanyID: companyTwo, Name: "Only Two", Email: "only.two@two.example", Roles: accountRole("user", acctC)},
	)
}

func newEnv(t *testing.T) (*testenv.Env, string) {
	t.Helper()
	env := testenv.New(t, []app.Area{users.Area})
	env.Account(t, acctA, companyOne)
	env.Account(t, acctB, companyOne)
	env.Account(t, acctC, companyTwo)
	raw, err := json.Marshal(map[string]any{"users": dataset()})
	require.NoError(t, err)
	env.Seed(t, users.Area, string(raw))
	token, _ := env.Token(t, acctA)
	return env, token
}

type searchBody struct {
	Users []map[string]any `json:"users"`
	Count int              `json:"count"`
}

func (b searchBody) ids() []string {
	ids := make([]string, len(b.Users))
	for i, u := range b.Users {
		ids[i], _ = u["id"].(string)
	}
	return ids
}

func search(t *testing.T, env *testenv.Env, token string, body map[string]any) (*testenv.Response, searchBody) {
	t.Helper()
	resp := env.Do(t, testenv.Request{Method: "POST", Path: searchPath, Token: token, Body: body})
	var b searchBody
	if resp.Status == http.StatusOK {
		resp.JSON(t, &b)
	}
	return resp, b
}

func keys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func TestFilterByEmailFindsTheCompanysUsers(t *testing.T) {
	env, token := newEnv(t)
	cases := []struct {
		name   string
		emails string
		want   []string
	}{
		{"two addresses find their two users, ordered by address", "staff02@team.example,ana.alvarez@one.example", []string{"one-admin", "one-staff02"}},
		{"addresses match whatever their case and surrounding spaces", "  ANA.Alvarez@One.Example ,staff03@TEAM.example ", []string{"one-admin", "one-staff03"}},
		{"an address given twice is searched once", "staff04@team.example, Staff04@team.example", []string{"one-staff04"}},
		{"an address nobody has finds nothing", "nobody@one.example", []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := search(t, env, token, map[string]any{"companyId": companyOne, "emails": tc.emails})
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			assert.Equal(t, tc.want, body.ids())
			assert.Equal(t, len(tc.want), body.Count)
		})
	}
}

func TestFilterByEmailProjection(t *testing.T) {
	env, token := newEnv(t)
	find := func(t *testing.T, projection any) (*testenv.Response, map[string]any) {
		body := map[string]any{"companyId": companyOne, "emails": "ana.alvarez@one.example"}
		if projection != nil {
			body["projection"] = projection
		}
		resp, b := search(t, env, token, body)
		if resp.Status != http.StatusOK {
			return resp, nil
		}
		require.Len(t, b.Users, 1)
		return resp, b.Users[0]
	}

	t.Run("omitted answers only id and email", func(t *testing.T) {
		_, u := find(t, nil)
		assert.Equal(t, map[string]any{"id": "one-admin", "email": "ana.alvarez@one.example"}, u)
	})
	t.Run("all answers the whole record", func(t *testing.T) {
		_, u := find(t, "all")
		assert.Equal(t, []string{"deleted", "email", "extension", "firstName", "id", "lastName", "lcPhone", "name", "permissions", "phone", "platformLanguage", "roles", "scopes"}, keys(u))
		assert.Equal(t, "Ana Alvarez", u["name"])
		assert.Equal(t, "", u["extension"], "an empty field is still answered")
		assert.Equal(t, false, u["deleted"])
		assert.Equal(t, "fr_CA", u["platformLanguage"])
		assert.Equal(t, []any{"contacts.write", "campaigns.readonly"}, u["scopes"])
		assert.Equal(t, map[string]any{"type": "agency", "role": "admin", "locationIds": []any{acctA, acctB}, "restrictSubAccount": true}, u["roles"])
		assert.Equal(t, map[string]any{acctA: "+15550009999"}, u["lcPhone"])
	})
	t.Run("all answers every permission flag, set or defaulted", func(t *testing.T) {
		_, u := find(t, "all")
		perms, ok := u["permissions"].(map[string]any)
		require.True(t, ok)
		assert.Len(t, perms, 38)
		assert.Equal(t, true, perms["websitesEnabled"], "set (default false)")
		assert.Equal(t, false, perms["campaignsEnabled"], "set (default true)")
		assert.Equal(t, true, perms["searchAdsReportingEnabled"], "set, under its neutral name")
		assert.Equal(t, false, perms["socialAdsReportingEnabled"], "defaulted, under its neutral name")
		assert.Equal(t, true, perms["exportPaymentsEnabled"], "defaulted true")
		assert.Equal(t, false, perms["botService"], "defaulted false")
	})
	t.Run("a list answers those fields and id", func(t *testing.T) {
		_, u := find(t, " name, phone ,roles")
		assert.Equal(t, []string{"id", "name", "phone", "roles"}, keys(u))
		assert.Equal(t, "+15550000001", u["phone"])
	})
	t.Run("a list naming id and email answers just those", func(t *testing.T) {
		_, u := find(t, "email,id,email")
		assert.Equal(t, []string{"email", "id"}, keys(u))
	})
	bad := []struct {
		name       string
		projection any
		wants      []string
	}{
		{"unknown field names are refused, each named", "name,salary,ssn", []string{"projection", "salary", "ssn"}},
		{"field names are case-sensitive", "Name", []string{"projection", "Name"}},
		{"all cannot be combined with field names", "all,name", []string{"projection", "all"}},
		{"an empty entry is refused", "name,,phone", []string{"projection", "entry 2 is empty"}},
		{"an empty projection is refused", " ", []string{"projection must be"}},
		{"a projection that is not a string is refused", 5, []string{"projection must be a string"}},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			resp, _ := find(t, tc.projection)
			msg := resp.RequireError(t, http.StatusUnprocessableEntity)
			for _, w := range tc.wants {
				assert.Contains(t, msg, w)
			}
		})
	}
}

func TestFilterByEmailNeverReturnsAnotherCompanysUsers(t *testing.T) {
	env, token := newEnv(t)
	t.Run("an address both companies have finds only the caller's company's user", func(t *testing.T) {
		_, body := search(t, env, token, map[string]any{"companyId": companyOne, "emails": "shared@both.example", "projection": "all"})
		assert.Equal(t, []string{"one-shared"}, body.ids())
		assert.Equal(t, 1, body.Count)
	})
	t.Run("an address only another company has finds nothing", func(t *testing.T) {
		_, body := search(t, env, token, map[string]any{"companyId": companyOne, "emails": "only.two@two.example"})
		assert.Empty(t, body.Users)
		assert.Equal(t, 0, body.Count)
	})
	t.Run("the other company's token finds its own user at the same address", func(t *testing.T) {
		tokenC, _ := env.Token(t, acctC)
		_, body := search(t, env, tokenC, map[string]any{"companyId": companyTwo, "emails": "shared@both.example,ana.alvarez@one.example"})
		assert.Equal(t, []string{"two-shared"}, body.ids())
	})
	t.Run("another account of the same company searches the same users", func(t *testing.T) {
		tokenB, _ := env.Token(t, acctB)
		_, body := search(t, env, tokenB, map[string]any{"companyId": companyOne, "emails": "shared@both.example"})
		assert.Equal(t, []string{"one-shared"}, body.ids())
	})
	t.Run("naming another company is 403 and reveals nothing", func(t *testing.T) {
		resp, _ := search(t, env, token, map[string]any{"companyId": companyTwo, "emails": "shared@both.example"})
		msg := resp.RequireError(t, http.StatusForbidden)
		assert.Contains(t, msg, "does not have access to this company")
		assert.NotContains(t, string(resp.Body), "two-shared")
	})
}

func TestFilterByEmailDeletedFilter(t *testing.T) {
	env, token := newEnv(t)
	const emails = "gone@one.example,rehire@one.example,staff01@team.example"
	cases := []struct {
		name    string
		deleted any
		want    []string
	}{
		{"omitted finds only users that are not deleted", nil, []string{"one-rehire-new", "one-staff01"}},
		{"false finds only users that are not deleted", false, []string{"one-rehire-new", "one-staff01"}},
		{"true finds only deleted users", true, []string{"one-gone", "one-rehire-old"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := map[string]any{"companyId": companyOne, "emails": emails, "projection": "deleted"}
			if tc.deleted != nil {
				body["deleted"] = tc.deleted
			}
			resp, b := search(t, env, token, body)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			assert.Equal(t, tc.want, b.ids())
			for _, u := range b.Users {
				assert.Equal(t, tc.deleted == true, u["deleted"])
			}
		})
	}
}

func TestFilterByEmailSkipAndLimit(t *testing.T) {
	env, token := newEnv(t)
	all := make([]string, staffCount)
	for i := range all {
		all[i] = fmt.Sprintf("one-staff%02d", i+1)
	}
	cases := []struct {
		name        string
		skip, limit any
		want        []string
	}{
		{"defaults (skip 0, limit 25) answer every match", nil, nil, all},
		{"limit 3 answers the first three", nil, "3", all[:3]},
		{"skip 3 limit 4 answers the fourth to seventh", "3", "4", all[3:7]},
		{"a skip reaching the last match answers it alone", "9", "5", all[9:]},
		{"a skip past every match answers none", "10", nil, []string{}},
		{"a skip far past every match answers none", "10000", nil, []string{}},
		{"a limit of 100 is allowed", "0", "100", all},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := map[string]any{"companyId": companyOne, "emails": staffEmails(staffCount)}
			if tc.skip != nil {
				body["skip"] = tc.skip
			}
			if tc.limit != nil {
				body["limit"] = tc.limit
			}
			resp, b := search(t, env, token, body)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			assert.Equal(t, tc.want, b.ids())
			assert.Equal(t, staffCount, b.Count, "count is every match, before skip and limit")
		})
	}
	t.Run("walking pages answers every match once", func(t *testing.T) {
		var seen []string
		for skip := 0; skip < staffCount; skip += 3 {
			_, b := search(t, env, token, map[string]any{"companyId": companyOne, "emails": staffEmails(staffCount), "skip": fmt.Sprint(skip), "limit": "3"})
			seen = append(seen, b.ids()...)
		}
		assert.Equal(t, all, seen)
	})
}

func TestFilterByEmailRejectsBadRequests(t *testing.T) {
	env, token := newEnv(t)
	base := func(changes map[string]any) map[string]any {
		b := map[string]any{"companyId": companyOne, "emails": "ana.alvarez@one.example"}
		for k, v := range changes {
			if v == nil {
				delete(b, k)
			} else {
				b[k] = v
			}
		}
		return b
	}
	tooMany := staffEmails(50) + ",x@team.example"
	cases := []struct {
		name  string
		body  map[string]any
		wants []string
	}{
		{"companyId is required", base(map[string]any{"companyId": nil}), []string{"companyId is required"}},
		{"companyId must be an id", base(map[string]any{"companyId": "COMPANY#x"}), []string{"companyId must be an id"}},
		{"companyId must be a string", base(map[string]any{"companyId": 7}), []string{"companyId must be a string"}},
		{"emails is required", base(map[string]any{"emails": nil}), []string{"emails is required"}},
		{"emails must not be blank", base(map[string]any{"emails": "  "}), []string{"emails is required"}},
		{"emails must be a string", base(map[string]any{"emails": []string{"a@b.example"}}), []string{"emails must be a string"}},
		{"every address must be valid, and the bad one is named", base(map[string]any{"emails": "ana.alvarez@one.example, not-an-address ,x@y"}), []string{`emails entry 2 ("not-an-address") is not a valid e-mail address`, `emails entry 3 ("x@y")`}},
		{"a display-name address is refused", base(map[string]any{"emails": "Ana <ana.alvarez@one.example>"}), []string{"emails entry 1", "not a valid e-mail address"}},
		{"an empty entry is refused", base(map[string]any{"emails": "ana.alvarez@one.example,"}), []string{"emails entry 2 is empty"}},
		{"at most 50 addresses", base(map[string]any{"emails": tooMany}), []string{"emails must list at most 50 addresses (it lists 51)"}},
		{"deleted must be a boolean", base(map[string]any{"deleted": "yes"}), []string{"deleted must be a boolean"}},
		{"skip must be a number in a string", base(map[string]any{"skip": "abc"}), []string{"skip must be a whole number"}},
		{"skip must not be negative", base(map[string]any{"skip": "-1"}), []string{"skip must be a whole number"}},
		{"skip must be at most 10000", base(map[string]any{"skip": "10001"}), []string{"skip must be between 0 and 10000"}},
		{"skip must be a string", base(map[string]any{"skip": 3}), []string{"skip must be a string"}},
		{"limit must be at least 1", base(map[string]any{"limit": "0"}), []string{"limit must be between 1 and 100"}},
		{"limit must be at most 100", base(map[string]any{"limit": "101"}), []string{"limit must be between 1 and 100"}},
		{"limit must be a whole number", base(map[string]any{"limit": "2.5"}), []string{"limit must be a whole number"}},
		{"unknown properties are refused", base(map[string]any{"locationId": acctA}), []string{"property locationId should not exist"}},
		{"every broken rule is named at once", map[string]any{"limit": "x", "projection": "salary"}, []string{"companyId is required", "emails is required", "limit must be", "salary"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, _ := search(t, env, token, tc.body)
			msg := resp.RequireError(t, http.StatusUnprocessableEntity)
			for _, w := range tc.wants {
				assert.Contains(t, msg, w)
			}
		})
	}
	t.Run("a body that is not JSON is 400", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "POST", Path: searchPath, Token: token, Body: `{"companyId":`})
		resp.RequireError(t, http.StatusBadRequest)
	})
	t.Run("a missing body is 400", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "POST", Path: searchPath, Token: token, Body: "", Headers: map[string]string{"Content-Type": "application/json"}})
		resp.RequireError(t, http.StatusBadRequest)
	})
}

func TestFilterByEmailAuth(t *testing.T) {
	env, _ := newEnv(t)
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.FilterUsersByEmail, Account: acctA, OK: http.StatusOK,
		ForeignStatus: http.StatusForbidden, ForeignCompany: true,
		Call: func(t *testing.T, token string) *testenv.Response {
			return env.Do(t, testenv.Request{Method: "POST", Path: searchPath, Token: token, Body: map[string]any{"companyId": companyOne, "emails": "ana.alvarez@one.example"}})
		},
	})
}

func TestSeedStoresUsersInTheirCompanyWithDefaultPermissions(t *testing.T) {
	env, _ := newEnv(t)
	store := users.NewDirectory(env.Table)
	ctx := context.Background()

	u, err := store.Get(ctx, companyOne, "one-staff01")
	require.NoError(t, err)
	require.NotNil(t, u)
	assert.Equal(t, users.DefaultPermissions(), u.Permissions, "flags the data leaves out take their defaults")
	assert.Equal(t, []string{}, u.Scopes)
	assert.Equal(t, map[string]string{}, u.LcPhone)

	other, err := store.Get(ctx, companyOne, "two-shared")
	require.NoError(t, err)
	assert.Nil(t, other, "another company's user is not in this company's partition")

	t.Run("bad data is refused", func(t *testing.T) {
		for name, data := range map[string]string{
			"a misspelt flag":     `{"users":[{"id":"x1","companyId":"c","email":"a@b.example","roles":{"type":"account","role":"user"},"permissions":{"campainsEnabled":true}}]}`,
			"a malformed id":      `{"users":[{"id":"x#1","companyId":"c","email":"a@b.example","roles":{"type":"account","role":"user"}}]}`,
			"a bad address":       `{"users":[{"id":"x1","companyId":"c","email":"a.example","roles":{"type":"account","role":"user"}}]}`,
			"an unknown role":     `{"users":[{"id":"x1","companyId":"c","email":"a@b.example","roles":{"type":"account","role":"owner"}}]}`,
			"an unknown language": `{"users":[{"id":"x1","companyId":"c","email":"a@b.example","roles":{"type":"account","role":"user"},"platformLanguage":"xx"}]}`,
		} {
			err := users.Area.Seed(ctx, env.Deps, json.RawMessage(data))
			assert.Error(t, err, name)
		}
	})
}

func TestDemoUsersLoad(t *testing.T) {
	env := testenv.New(t, []app.Area{users.Area})
	ds, err := demo.Default()
	require.NoError(t, err)
	env.Seed(t, users.Area, string(ds["users"]))
	env.Account(t, "demoLocAlpha00000001", "demoCompanyNorthwind")
	token, _ := env.Token(t, "demoLocAlpha00000001")
	_, body := search(t, env, token, map[string]any{"companyId": "demoCompanyNorthwind", "emails": "casey.morgan@freelance.example,sam.rivera@alphadental.example"})
	assert.Equal(t, []string{"demoUsrNorth00000040", "demoUsrNorth00000039"}, body.ids())
}
