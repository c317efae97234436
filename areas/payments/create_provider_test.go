package payments_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/payments"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/validate"
)

func TestCreateProviderAnswersAndStoresTheProvider(t *testing.T) {
	env := newEnv(t)
	ctx := context.Background()
	cases := []struct {
		name, uniqueName, gateway string
	}{
		{"an NMI provider is created", "easy-direct", "nmi"},
		{"an Authorize.net provider is created", "card-express", "authorize-net"},
		{"a one-letter uniqueName is accepted", "x", "nmi"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := providerBody(acctA, tc.uniqueName)
			body["provider"] = tc.gateway
			resp := env.createProvider(t, env.marketplace, body)
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)

			var got payments.Provider
			resp.JSON(t, &got)
			assert.True(t, validate.IsHexID(got.ID), "_id %q is a 24-character hex id", got.ID)
			now := clock.Timestamp(testenv.Start)
			want := payments.Provider{
				ID: got.ID, AltID: acctA, AltType: "account", Title: "Easy Direct Payments",
				Route: tc.uniqueName, Provider: tc.gateway, Description: "Card payments through our NMI gateway.",
				ImageURL: "https://cdn.example.com/logos/easy-direct.png", CreatedAt: now, UpdatedAt: now,
			}
			assert.Equal(t, want, got)
			assert.Len(t, resp.Map(t), 10, "exactly the resource's ten fields")

			stored, err := env.store.GetProvider(ctx, acctA, tc.uniqueName)
			require.NoError(t, err)
			require.NotNil(t, stored, "the provider is stored under its uniqueName")
			assert.Equal(t, want, *stored)
		})
	}
	t.Run("only the caller's account holds the providers", func(t *testing.T) {
		list, err := env.store.ListProviders(ctx, acctB)
		require.NoError(t, err)
		assert.Empty(t, list)
		list, err = env.store.ListProviders(ctx, acctA)
		require.NoError(t, err)
		assert.Len(t, list, len(cases))
	})
}

func TestCreateProviderRejectsEachBrokenRuleNamingTheField(t *testing.T) {
	env := newEnv(t)
	cases := []struct {
		name  string
		field string
		value any // nil removes the field
		want  string
	}{
		{"altId is required", "altId", nil, "altId is required"},
		{"altId must be a well-formed id", "altId", "acct#Alpha", "altId must be an id"},
		{"altType is required", "altType", nil, "altType is required"},
		{"altType must be account", "altType", "agency", "altType must be one of: account"},
		{"uniqueName is required", "uniqueName", nil, "uniqueName is required"},
		{"uniqueName may not be empty", "uniqueName", "", "uniqueName is required"},
		{"uniqueName may not hold capitals", "uniqueName", "Easy-Direct", "uniqueName must contain only lowercase letters and hyphens"},
		{"uniqueName may not hold digits", "uniqueName", "pay2go", "uniqueName must contain only lowercase letters and hyphens"},
		{"uniqueName may not hold underscores", "uniqueName", "easy_direct", "uniqueName must contain only lowercase letters and hyphens"},
		{"uniqueName may not hold spaces", "uniqueName", "easy direct", "uniqueName must contain only lowercase letters and hyphens"},
		{"uniqueName must start with a letter", "uniqueName", "-easy", "uniqueName must contain only lowercase letters and hyphens, and start and end with a letter"},
		{"uniqueName must end with a letter", "uniqueName", "easy-", "uniqueName must contain only lowercase letters and hyphens, and start and end with a letter"},
		{"uniqueName may not be only a hyphen", "uniqueName", "-", "uniqueName must contain only lowercase letters and hyphens"},
		{"uniqueName is at most 64 characters", "uniqueName", strings.Repeat("a", 65), "uniqueName must be at most 64 characters"},
		{"uniqueName must be a string", "uniqueName", 42, "uniqueName must be a string"},
		{"title is required", "title", nil, "title is required"},
		{"title may not be blank", "title", "   ", "title is required"},
		{"title is at most 100 characters", "title", strings.Repeat("t", 101), "title must be at most 100 characters"},
		{"title is one line", "title", "Easy\nDirect", "title must be one line"},
		{"a missing provider lists the providers", "provider", nil, "provider is required (one of: authorize-net, nmi)"},
		{"provider must be a known gateway", "provider", "stripe", "provider must be one of: authorize-net, nmi"},
		{"provider is case-sensitive", "provider", "NMI", "provider must be one of: authorize-net, nmi"},
		{"description is required", "description", nil, "description is required"},
		{"description may not be blank", "description", "", "description is required"},
		{"description is at most 1000 characters", "description", strings.Repeat("d", 1001), "description must be at most 1000 characters"},
		{"imageUrl is required", "imageUrl", nil, "imageUrl is required"},
		{"imageUrl must use https", "imageUrl", "http://cdn.example.com/logo.png", "imageUrl must be an https URL with a public host: it uses http, not https"},
		{"imageUrl must be absolute", "imageUrl", "/logos/easy-direct.png", "imageUrl must be an https URL with a public host: it must start with https://"},
		{"imageUrl must have a host", "imageUrl", "https://", "imageUrl must be an https URL with a public host: it has no host"},
		{"imageUrl may not hold spaces", "imageUrl", "https://cdn.example.com/my logo.png", "imageUrl must be an https URL with a public host: it holds the character ' '"},
		{"imageUrl may not carry credentials", "imageUrl", "https://user:pw@cdn.example.com/logo.png", "imageUrl must be an https URL with a public host: it must not hold a user name or password"},
		{"imageUrl may not point at localhost", "imageUrl", "https://localhost/logo.png", "imageUrl must be an https URL with a public host: its host localhost is a special-use name"},
		{"imageUrl may not point at a private address", "imageUrl", "https://10.1.2.3/logo.png", "imageUrl must be an https URL with a public host: its host 10.1.2.3 is a private address"},
		{"imageUrl may not point at a loopback IPv6 address", "imageUrl", "https://[::1]/logo.png", "imageUrl must be an https URL with a public host: its host [::1] is the loopback address"},
		{"imageUrl may not point at an intranet name", "imageUrl", "https://intranet/logo.png", "imageUrl must be an https URL with a public host: its host intranet is a special-use name"},
		{"imageUrl is at most 2048 characters", "imageUrl", "https://cdn.example.com/" + strings.Repeat("a", 2030), "imageUrl must be at most 2048 characters"},
		{"an unknown property is refused", "route", "my-route", "property route should not exist"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := providerBody(acctA, "easy-direct")
			if tc.value == nil {
				delete(body, tc.field)
			} else {
				body[tc.field] = tc.value
			}
			msg := env.createProvider(t, env.marketplace, body).RequireError(t, http.StatusUnprocessableEntity)
			assert.Contains(t, msg, tc.want)
		})
	}
	t.Run("one answer names every broken rule", func(t *testing.T) {
		msg := env.createProvider(t, env.marketplace, map[string]any{"altId": acctA, "altType": "account", "uniqueName": "Bad_Name"}).
			RequireError(t, http.StatusUnprocessableEntity)
		for _, field := range []string{"uniqueName", "title", "provider", "description", "imageUrl"} {
			assert.Contains(t, msg, field)
		}
	})
	t.Run("a body that is not JSON is a 400", func(t *testing.T) {
		env.createProvider(t, env.marketplace, `{"altId":`).RequireError(t, http.StatusBadRequest)
	})
	t.Run("nothing was stored by a refused request", func(t *testing.T) {
		list, err := env.store.ListProviders(context.Background(), acctA)
		require.NoError(t, err)
		assert.Empty(t, list)
	})
}

func TestCreateProviderRefusesADuplicateUniqueNameInTheAccount(t *testing.T) {
	env := newEnv(t)
	ctx := context.Background()
	first := env.createProvider(t, env.marketplace, providerBody(acctA, "easy-direct"))
	require.Equal(t, http.StatusOK, first.Status, "body: %s", first.Body)
	var created payments.Provider
	first.JSON(t, &created)

	t.Run("a second provider with the same uniqueName is 422 naming uniqueName", func(t *testing.T) {
		body := providerBody(acctA, "easy-direct")
		body["title"], body["provider"] = "Another title", "authorize-net"
		msg := env.createProvider(t, env.marketplace, body).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "uniqueName easy-direct is already used")
	})
	t.Run("the first provider is left unchanged", func(t *testing.T) {
		stored, err := env.store.GetProvider(ctx, acctA, "easy-direct")
		require.NoError(t, err)
		require.NotNil(t, stored)
		assert.Equal(t, created, *stored)
	})
	t.Run("another account may use the same uniqueName", func(t *testing.T) {
		tokenB, _ := env.TokenOfKind(t, acctB, auth.KindMarketplace)
		resp := env.createProvider(t, tokenB, providerBody(acctB, "easy-direct"))
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		stored, err := env.store.GetProvider(ctx, acctB, "easy-direct")
		require.NoError(t, err)
		require.NotNil(t, stored)
		assert.Equal(t, acctB, stored.AltID)
		assert.NotEqual(t, created.ID, stored.ID)
	})
}

func TestCreateProviderForAnotherAccountIs403AndStoresNothing(t *testing.T) {
	env := newEnv(t)
	msg := env.createProvider(t, env.marketplace, providerBody(acctB, "easy-direct")).RequireError(t, http.StatusForbidden)
	assert.Equal(t, noAccess, msg)
	for _, acct := range []string{acctA, acctB} {
		list, err := env.store.ListProviders(context.Background(), acct)
		require.NoError(t, err)
		assert.Empty(t, list, "account %s", acct)
	}
}

func TestCreateProviderAuth(t *testing.T) {
	env := newEnv(t)
	n := 0
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.CreateWhitelabelProvider, Account: acctA, Kind: auth.KindMarketplace,
		OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			n++
			return env.createProvider(t, token, providerBody(acctA, "auth-"+letters(n)))
		},
	})
}

func TestCreateProviderConcurrentDuplicatesCreateExactlyOne(t *testing.T) {
	env := newEnv(t)
	const callers = 16
	statuses := make([]int, callers)
	bodies := make([][]byte, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := providerBody(acctA, "race-pay")
			body["title"] = "Racer " + letters(i)
			resp := env.createProvider(t, env.marketplace, body)
			statuses[i], bodies[i] = resp.Status, resp.Body
		}()
	}
	wg.Wait()

	var winner payments.Provider
	count := map[int]int{}
	for i, s := range statuses {
		count[s]++
		switch s {
		case http.StatusOK:
			require.NoError(t, json.Unmarshal(bodies[i], &winner))
		case http.StatusUnprocessableEntity:
			assert.Contains(t, string(bodies[i]), "uniqueName race-pay is already used", "a loser is told why")
		}
	}
	assert.Equal(t, map[int]int{http.StatusOK: 1, http.StatusUnprocessableEntity: callers - 1}, count)

	list, err := env.store.ListProviders(context.Background(), acctA)
	require.NoError(t, err)
	require.Len(t, list, 1, "exactly one provider is stored")
	assert.Equal(t, winner, list[0], "the stored provider is the one that was answered")
}
