package store_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/store"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"
	created = "2025-01-01T00:00:00.000Z"
)

// Zones and rates of the test data. Zone A1 has a plain rate, a conditional
// rate and a carrier rate; zone A2 has one rate; account B has one zone.
const (
	zoneA1        = "aa0300000000000000000001"
	zoneA2        = "aa0300000000000000000002"
	zoneB1        = "bb0300000000000000000001"
	rateA1Plain   = "aa0400000000000000000101"
	rateA1Cond    = "aa0400000000000000000102"
	rateA1Carrier = "aa0400000000000000000103"
	rateA2        = "aa0400000000000000000201"
	rateB1        = "bb0400000000000000000101"
	carrierID     = "cc0500000000000000000001"
	unknownID     = "ff0000000000000000000009"
)

var testData = fmt.Sprintf(`{"shippingZones":[
 {"_id":%[1]q,"altId":%[6]q,"name":"Domestic","countries":[{"code":"US","states":[]}],"createdAt":%[9]q,"updatedAt":%[9]q,
  "shippingRates":[
   {"_id":%[3]q,"createdAt":%[9]q,"updatedAt":%[9]q,"name":"Standard","description":"3-5 days","currency":"USD","amount":5,"conditionType":"none","minCondition":0,"maxCondition":0,"isCarrierRate":false,"shippingCarrierId":"","shippingCarrierServices":[]},
   {"_id":%[4]q,"name":"Bulky","currency":"USD","amount":15,"conditionType":"weight","minCondition":5,"maxCondition":30,"isCarrierRate":false,"shippingCarrierId":""},
   {"_id":%[5]q,"name":"Carrier","currency":"USD","amount":2,"conditionType":"none","minCondition":0,"maxCondition":0,"isCarrierRate":true,"shippingCarrierId":%[8]q,"percentageOfRateFee":10,
    "shippingCarrierServices":[{"name":"Priority Mail","value":"PriorityMail"}]}]},
 {"_id":%[2]q,"altId":%[6]q,"name":"Europe","countries":[{"code":"DE","states":[]},{"code":"GB","states":[{"code":"ENG"}]}],"createdAt":%[9]q,"updatedAt":%[9]q,
  "shippingRates":[{"_id":%[10]q,"name":"Standard","currency":"EUR","amount":20,"conditionType":"none","minCondition":0,"maxCondition":0,"isCarrierRate":false,"shippingCarrierId":""}]},
 {"_id":%[11]q,"altId":%[7]q,"name":"Bravo zone","countries":[{"code":"PT","states":[]}],"createdAt":%[9]q,"updatedAt":%[9]q,
  "shippingRates":[{"_id":%[12]q,"name":"Courier","currency":"EUR","amount":6,"conditionType":"none","minCondition":0,"maxCondition":0,"isCarrierRate":false,"shippingCarrierId":""}]}]}`,
	zoneA1, zoneA2, rateA1Plain, rateA1Cond, rateA1Carrier, acctA, acctB, carrierID, created, rateA2, zoneB1, rateB1)

func newEnv(t *testing.T) (*testenv.Env, string, *store.Shipping) {
	env := testenv.New(t, []app.Area{store.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	env.Seed(t, store.Area, testData)
	token, _ := env.Token(t, acctA)
	return env, token, store.NewShipping(env.Table)
}

func getZone(t *testing.T, s *store.Shipping, account, id string) store.Zone {
	t.Helper()
	z, err := s.GetZone(context.Background(), account, id)
	require.NoError(t, err)
	require.NotNil(t, z, "zone %s", id)
	return *z
}

func getRate(t *testing.T, s *store.Shipping, account, zoneID, rateID string) store.Rate {
	t.Helper()
	r, err := s.GetRate(context.Background(), account, zoneID, rateID)
	require.NoError(t, err)
	require.NotNil(t, r, "rate %s", rateID)
	return *r
}

func TestTheReadmeExamplesSucceedOnTheDemoData(t *testing.T) {
	env := testenv.New(t, []app.Area{store.Area})
	env.Account(t, demo.AccountAlpha, demo.CompanyNorth)
	ds, err := demo.Default()
	require.NoError(t, err)
	env.Seed(t, store.Area, string(ds["store"]))
	token, _ := env.Token(t, demo.AccountAlpha)
	s := store.NewShipping(env.Table)

	t.Run("the zone example", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "PUT", Path: "/store/shipping-zone/a10300000000000000000002", Token: token,
			Body: `{"altId":"demoLocAlpha00000001","altType":"account","name":"West Coast and BC","countries":[
				{"code":"US","states":[{"code":"CA"},{"code":"OR"},{"code":"WA"},{"code":"NV"}]},{"code":"CA","states":[{"code":"BC"}]}]}`})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		assert.Equal(t, "West Coast and BC", getZone(t, s, demo.AccountAlpha, "a10300000000000000000002").Name)
	})
	t.Run("the rate example", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "PUT", Path: "/store/shipping-zone/a10300000000000000000001/shipping-rate/a10400000000000000000102", Token: token,
			Body: `{"altId":"demoLocAlpha00000001","altType":"account","name":"Free over $75","minCondition":75,"maxCondition":null}`})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
		r := getRate(t, s, demo.AccountAlpha, "a10300000000000000000001", "a10400000000000000000102")
		assert.Equal(t, 75.0, r.MinCondition)
	})
}

func TestSeedRefusesInvalidZones(t *testing.T) {
	env := testenv.New(t, []app.Area{store.Area})
	cases := map[string]string{
		"an unknown country":   `{"shippingZones":[{"_id":"aa0300000000000000000001","altId":"a","name":"Z","countries":[{"code":"ZZ"}]}]}`,
		"an id that is no hex": `{"shippingZones":[{"_id":"zone1","altId":"a","name":"Z","countries":[{"code":"US"}]}]}`,
		"a rate with min above max": `{"shippingZones":[{"_id":"aa0300000000000000000001","altId":"a","name":"Z","countries":[{"code":"US"}],
			"shippingRates":[{"_id":"aa0400000000000000000001","name":"R","currency":"USD","conditionType":"price","minCondition":9,"maxCondition":2}]}]}`,
	}
	for name, data := range cases {
		t.Run(name+" is refused", func(t *testing.T) {
			assert.Error(t, store.Area.Seed(context.Background(), env.Deps, []byte(data)))
		})
	}
}
