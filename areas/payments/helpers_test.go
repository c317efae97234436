package payments_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bizplatform/api/areas/payments"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"

	providerPath = "/payments/integrations/provider/whitelabel"
	couponPath   = "/payments/coupon"

	noAccess = "The token does not have access to this location"
)

// testEnv is a running payments API with two accounts of one company, a
// marketplace token and a private token of account A.
type testEnv struct {
	*testenv.Env
	store       *payments.Records
	marketplace string
	private     string
}

func newEnv(t *testing.T) *testEnv {
	t.Helper()
	env := testenv.New(t, []app.Area{payments.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	mkt, _ := env.TokenOfKind(t, acctA, auth.KindMarketplace)
	priv, _ := env.Token(t, acctA)
	return &testEnv{Env: env, store: payments.NewRecords(env.Table), marketplace: mkt, private: priv}
}

// providerBody is a valid create request for account with uniqueName.
func providerBody(account, uniqueName string) map[string]any {
	return map[string]any{
		"altId":       account,
		"altType":     "account",
		"uniqueName":  uniqueName,
		"title":       "Easy Direct Payments",
		"provider":    "nmi",
		"description": "Card payments through our NMI gateway.",
		"imageUrl":    "https://cdn.example.com/logos/easy-direct.png",
	}
}

func (e *testEnv) createProvider(t *testing.T, token string, body any) *testenv.Response {
	t.Helper()
	return e.Do(t, testenv.Request{Method: "POST", Path: providerPath, Token: token, Body: body})
}

func (e *testEnv) deleteCoupon(t *testing.T, token string, body any) *testenv.Response {
	t.Helper()
	return e.Do(t, testenv.Request{Method: "DELETE", Path: couponPath, Token: token, Body: body})
}

func couponBody(account, id string) map[string]any {
	return map[string]any{"altId": account, "altType": "account", "id": id}
}

// seedCoupons stores a coupon for each id in account.
func (e *testEnv) seedCoupons(t *testing.T, account string, ids ...string) {
	t.Helper()
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf(`{"_id":%q,"altId":%q,"altType":"account","name":"Coupon %d","code":"CODE%d",`+
			`"discountType":"percentage","discountValue":10,"status":"active","startDate":"2026-01-01T00:00:00.000Z",`+
			`"usageCount":0,"createdAt":"2025-12-01T10:00:00.000Z","updatedAt":"2025-12-01T10:00:00.000Z"}`, id, account, i, i)
	}
	e.Seed(t, payments.Area, `{"coupons":[`+strings.Join(parts, ",")+`]}`)
}

// letters spells n in lowercase letters (0 -> "a", 26 -> "ba"), for
// uniqueNames that must differ between calls.
func letters(n int) string {
	s := ""
	for {
		s = string(rune('a'+n%26)) + s
		n /= 26
		if n == 0 {
			return s
		}
	}
}
