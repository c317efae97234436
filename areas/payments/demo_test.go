package payments_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/payments"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/shared/auth"
)

// TestDemoDataset loads the shipped demo file and replays the examples the
// docs/api.md documents against it.
func TestDemoDataset(t *testing.T) {
	env := newEnv(t)
	ctx := context.Background()
	ds, err := demo.Default()
	require.NoError(t, err)
	raw, ok := ds[payments.Area.Name]
	require.True(t, ok, "the embedded dataset has a payments part")
	env.Seed(t, payments.Area, string(raw))
	env.Account(t, demo.AccountAlpha, demo.CompanyNorth)
	mkt, _ := env.TokenOfKind(t, demo.AccountAlpha, auth.KindMarketplace)
	priv, _ := env.Token(t, demo.AccountAlpha)

	t.Run("Alpha has a dozen coupons and Bravo two", func(t *testing.T) {
		for acct, n := range map[string]int{demo.AccountAlpha: 12, demo.AccountBravo: 2} {
			short := map[string]string{demo.AccountAlpha: "Alpha", demo.AccountBravo: "Bravo"}[acct]
			for i := 1; i <= n; i++ {
				id := fmt.Sprintf("demoCpn%s%08d", short, i)
				c, err := env.store.GetCoupon(ctx, acct, id)
				require.NoError(t, err)
				require.NotNil(t, c, "coupon %s", id)
				assert.Equal(t, acct, c.AltID)
				assert.NotEmpty(t, c.Code)
			}
		}
	})
	t.Run("Alpha has the provider alpha-card-gateway with its derived route", func(t *testing.T) {
		p, err := env.store.GetProvider(ctx, demo.AccountAlpha, "alpha-card-gateway")
		require.NoError(t, err)
		require.NotNil(t, p)
		assert.Equal(t, "demoWlpAlpha00000001", p.ID)
		assert.Equal(t, "alpha-card-gateway", p.Route)
	})
	t.Run("creating a provider named like the demo one is 422", func(t *testing.T) {
		msg := env.createProvider(t, mkt, providerBody(demo.AccountAlpha, "alpha-card-gateway")).RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "uniqueName")
	})
	t.Run("the documented create example succeeds", func(t *testing.T) {
		resp := env.createProvider(t, mkt, map[string]any{
			"altId": demo.AccountAlpha, "altType": "account", "uniqueName": "alpha-direct-pay",
			"title": "Alpha Direct Pay", "provider": "authorize-net",
			"description": "Card payments for Alpha Dental Care through Authorize.net",
			"imageUrl":    "https://assets.example.com/payments/alpha-direct-pay.png",
		})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.Equal(t, "alpha-direct-pay", resp.Map(t)["route"])
	})
	t.Run("the documented delete example succeeds", func(t *testing.T) {
		resp := env.deleteCoupon(t, priv, couponBody(demo.AccountAlpha, "demoCpnAlpha00000003"))
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		c, err := env.store.GetCoupon(ctx, demo.AccountAlpha, "demoCpnAlpha00000003")
		require.NoError(t, err)
		assert.Nil(t, c)
	})
	t.Run("a Bravo coupon cannot be deleted from Alpha", func(t *testing.T) {
		env.deleteCoupon(t, priv, couponBody(demo.AccountAlpha, "demoCpnBravo00000001")).RequireError(t, http.StatusUnprocessableEntity)
	})
}

func TestSeedRefusesInvalidRecords(t *testing.T) {
	env := newEnv(t)
	cases := []struct {
		name, data, want string
	}{
		{"a coupon with a malformed id", `{"coupons":[{"_id":"a#b","altId":"acctAlpha"}]}`, "_id must be an id"},
		{"a coupon with an unknown discount type", `{"coupons":[{"_id":"c1","altId":"acctAlpha","name":"n","code":"C","discountType":"free","discountValue":1,"status":"active"}]}`, "discountType"},
		{"a provider with an invalid uniqueName", `{"providers":[{"_id":"p1","altId":"acctAlpha","uniqueName":"Bad_Name"}]}`, "uniqueName"},
		{"a provider with an unknown gateway", `{"providers":[{"_id":"p1","altId":"acctAlpha","uniqueName":"ok","provider":"stripe"}]}`, "provider"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := payments.Area.Seed(context.Background(), env.Deps, []byte(tc.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
