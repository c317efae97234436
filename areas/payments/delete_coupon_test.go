package payments_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/operations"
)

func TestDeleteCouponDeletesItAndAnswersSuccessWithTraceID(t *testing.T) {
	env := newEnv(t)
	ctx := context.Background()
	env.seedCoupons(t, acctA, "cpn1", "cpn2")

	resp := env.deleteCoupon(t, env.private, couponBody(acctA, "cpn1"))
	require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	var body struct {
		Success bool   `json:"success"`
		TraceID string `json:"traceId"`
	}
	resp.JSON(t, &body)
	assert.True(t, body.Success)
	assert.NotEmpty(t, body.TraceID)
	assert.Equal(t, resp.Header.Get("X-Request-Id"), body.TraceID, "traceId is the request id")
	assert.Len(t, resp.Map(t), 2, "exactly success and traceId")

	gone, err := env.store.GetCoupon(ctx, acctA, "cpn1")
	require.NoError(t, err)
	assert.Nil(t, gone, "the coupon is gone from storage")
	kept, err := env.store.GetCoupon(ctx, acctA, "cpn2")
	require.NoError(t, err)
	require.NotNil(t, kept, "the other coupon stays")
	assert.Equal(t, "cpn2", kept.ID)

	t.Run("deleting it again is 422 naming id", func(t *testing.T) {
		msg := env.deleteCoupon(t, env.private, couponBody(acctA, "cpn1")).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "id cpn1 does not name a coupon of this account")
	})
}

func TestDeleteCouponRejectsEachBrokenRuleNamingTheField(t *testing.T) {
	env := newEnv(t)
	env.seedCoupons(t, acctA, "cpn1")
	cases := []struct {
		name  string
		field string
		value any // nil removes the field
		want  string
	}{
		{"altId is required", "altId", nil, "altId is required"},
		{"altId may not be blank", "altId", " ", "altId is required"},
		{"altId must be a well-formed id", "altId", "ACCOUNT#acctAlpha", "altId must be an id"},
		{"altId must be a string", "altId", 7, "altId must be a string"},
		{"altType is required", "altType", nil, "altType is required"},
		{"altType must be account", "altType", "agency", "altType must be one of: account"},
		{"id is required", "id", nil, "id is required"},
		{"id may not be empty", "id", "", "id is required"},
		{"id must be a well-formed id", "id", "cpn1#x", "id must be an id"},
		{"id is at most 64 characters", "id", strings.Repeat("c", 65), "id must be an id of 1 to 64"},
		{"id must be a string", "id", 123, "id must be a string"},
		{"id of an unknown coupon", "id", "noSuchCoupon", "id noSuchCoupon does not name a coupon"},
		{"an unknown property is refused", "code", "WELCOME10", "property code should not exist"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := couponBody(acctA, "cpn1")
			if tc.value == nil {
				delete(body, tc.field)
			} else {
				body[tc.field] = tc.value
			}
			msg := env.deleteCoupon(t, env.private, body).RequireError(t, http.StatusUnprocessableEntity)
			assert.Contains(t, msg, tc.want)
		})
	}
	t.Run("one answer names every broken rule", func(t *testing.T) {
		msg := env.deleteCoupon(t, env.private, map[string]any{"altType": "agency"}).RequireError(t, http.StatusUnprocessableEntity)
		for _, want := range []string{"altId is required", "altType must be one of", "id is required"} {
			assert.Contains(t, msg, want)
		}
	})
	t.Run("a body that is not JSON is a 400", func(t *testing.T) {
		env.deleteCoupon(t, env.private, `not json`).RequireError(t, http.StatusBadRequest)
	})
	t.Run("the coupon survived every refused request", func(t *testing.T) {
		c, err := env.store.GetCoupon(context.Background(), acctA, "cpn1")
		require.NoError(t, err)
		assert.NotNil(t, c)
	})
}

func TestDeleteCouponStaysInsideTheCallersAccount(t *testing.T) {
	env := newEnv(t)
	ctx := context.Background()
	env.seedCoupons(t, acctA, "cpnA")
	env.seedCoupons(t, acctB, "cpnB")

	cases := []struct {
		name   string
		body   map[string]any
		status int
		want   string
	}{
		{"another account's altId is 403 with the public API's message", couponBody(acctB, "cpnB"), http.StatusForbidden, noAccess},
		{"another account's altId with the caller's own coupon is 403", couponBody(acctB, "cpnA"), http.StatusForbidden, noAccess},
		{"another account's coupon id is 422 as an unknown coupon", couponBody(acctA, "cpnB"), http.StatusUnprocessableEntity, "id cpnB does not name a coupon of this account"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := env.deleteCoupon(t, env.private, tc.body).RequireError(t, tc.status)
			assert.Contains(t, msg, tc.want)
		})
	}
	t.Run("both coupons still exist", func(t *testing.T) {
		for acct, id := range map[string]string{acctA: "cpnA", acctB: "cpnB"} {
			c, err := env.store.GetCoupon(ctx, acct, id)
			require.NoError(t, err)
			assert.NotNil(t, c, "coupon %s of %s", id, acct)
		}
	})
}

func TestDeleteCouponAuth(t *testing.T) {
	env := newEnv(t)
	n := 0
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.DeleteCoupon, Account: acctA, OK: http.StatusOK, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			n++
			id := fmt.Sprintf("auth%d", n)
			env.seedCoupons(t, acctA, id)
			return env.deleteCoupon(t, token, couponBody(acctA, id))
		},
	})
}

func TestDeleteCouponConcurrentDeletesSucceedExactlyOnce(t *testing.T) {
	env := newEnv(t)
	env.seedCoupons(t, acctA, "cpnRace")
	const callers = 10
	statuses := make([]int, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = env.deleteCoupon(t, env.private, couponBody(acctA, "cpnRace")).Status
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, s := range statuses {
		count[s]++
	}
	assert.Equal(t, map[int]int{http.StatusOK: 1, http.StatusUnprocessableEntity: callers - 1}, count)
	c, err := env.store.GetCoupon(context.Background(), acctA, "cpnRace")
	require.NoError(t, err)
	assert.Nil(t, c)
}
