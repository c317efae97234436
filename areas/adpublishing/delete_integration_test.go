package adpublishing_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/adpublishing"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/operations"
)

func deleteIntegration(t *testing.T, env *testenv.Env, token string, body any) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "DELETE", Path: socialPath, Token: token, Body: body})
}

func TestDeleteSocialIntegration(t *testing.T) {
	env, token := newEnv(t)
	store := adpublishing.NewAds(env.Table)
	ctx := context.Background()
	seedIntegrations(t, env, integration(acctA, "intA"), integration(acctB, "intB"))

	t.Run("removes the account's integration and answers success", func(t *testing.T) {
		before, err := store.SocialIntegration(ctx, acctA)
		require.NoError(t, err)
		require.NotNil(t, before, "the integration is there to remove")

		resp := deleteIntegration(t, env, token, deleteBody(acctA))
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.JSONEq(t, `{"success":true}`, string(resp.Body))

		after, err := store.SocialIntegration(ctx, acctA)
		require.NoError(t, err)
		assert.Nil(t, after, "the integration is gone from storage")
	})
	t.Run("a second delete is 404 saying there is no integration", func(t *testing.T) {
		resp := deleteIntegration(t, env, token, deleteBody(acctA))
		msg := resp.RequireError(t, http.StatusNotFound)
		assert.Contains(t, msg, "no social ad network integration")
	})
	t.Run("another account's integration is untouched", func(t *testing.T) {
		other, err := store.SocialIntegration(ctx, acctB)
		require.NoError(t, err)
		require.NotNil(t, other)
		assert.Equal(t, integration(acctB, "intB"), *other)
	})
	t.Run("naming another account is 403 and its integration stays", func(t *testing.T) {
		resp := deleteIntegration(t, env, token, deleteBody(acctB))
		assert.Contains(t, resp.RequireError(t, http.StatusForbidden), "does not have access")
		other, err := store.SocialIntegration(ctx, acctB)
		require.NoError(t, err)
		assert.NotNil(t, other)
	})
	t.Run("an account that never had an integration gets 404", func(t *testing.T) {
		env.Account(t, "acctNever", company)
		never, _ := env.Token(t, "acctNever")
		resp := deleteIntegration(t, env, never, deleteBody("acctNever"))
		resp.RequireError(t, http.StatusNotFound)
	})
}

func TestDeleteSocialIntegrationRejectsBadBodies(t *testing.T) {
	env, token := newEnv(t)
	store := adpublishing.NewAds(env.Table)
	seedIntegrations(t, env, integration(acctA, "intA"))
	cases := []struct {
		name   string
		body   any
		status int
		want   string
	}{
		{"locationId is required", `{}`, http.StatusUnprocessableEntity, "locationId is required"},
		{"locationId must not be blank", `{"locationId":"  "}`, http.StatusUnprocessableEntity, "locationId is required"},
		{"locationId must not be null", `{"locationId":null}`, http.StatusUnprocessableEntity, "locationId is required"},
		{"locationId must be a string", `{"locationId":42}`, http.StatusUnprocessableEntity, "locationId must be a string"},
		{"locationId must be an id", `{"locationId":"acct#A"}`, http.StatusUnprocessableEntity, "locationId must be an id"},
		{"unknown properties are refused", fmt.Sprintf(`{"locationId":%q,"pageId":"p1"}`, acctA), http.StatusUnprocessableEntity, "property pageId should not exist"},
		{"a body that is not JSON is a bad request", `locationId=` + acctA, http.StatusBadRequest, "JSON"},
		{"a JSON array is a bad request", `[]`, http.StatusBadRequest, "JSON object"},
		{"a missing body is a bad request", nil, http.StatusBadRequest, "JSON request body is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := deleteIntegration(t, env, token, tc.body)
			assert.Contains(t, resp.RequireError(t, tc.status), tc.want)
		})
	}
	got, err := store.SocialIntegration(context.Background(), acctA)
	require.NoError(t, err)
	assert.NotNil(t, got, "no refused request removed the integration")
}

func TestDeleteSocialIntegrationConcurrentDeletesSucceedOnce(t *testing.T) {
	env, token := newEnv(t)
	seedIntegrations(t, env, integration(acctA, "intA"))
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = deleteIntegration(t, env, token, deleteBody(acctA)).Status
		}()
	}
	wg.Wait()
	counts := map[int]int{}
	for _, s := range statuses {
		counts[s]++
	}
	assert.Equal(t, map[int]int{http.StatusOK: 1, http.StatusNotFound: n - 1}, counts)
	got, err := adpublishing.NewAds(env.Table).SocialIntegration(context.Background(), acctA)
	require.NoError(t, err)
	assert.Nil(t, got)
}

func TestDeleteSocialIntegrationAuth(t *testing.T) {
	env, _ := newEnv(t)
	n := 0
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.DeleteSocialAdsIntegration, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			// Each successful call consumes the integration: connect a fresh one.
			n++
			seedIntegrations(t, env, integration(acctA, fmt.Sprintf("auth%d", n)))
			return deleteIntegration(t, env, token, deleteBody(acctA))
		},
	})
}
