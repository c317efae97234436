package associations_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/associations"
	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

const (
	acctA   = "acctAlpha"
	acctB   = "acctBravo"
	company = "companyOne"

	associationsPath = "/associations/"
	relationsPath    = "/associations/relations"
)

// Fixture associations (seeded, so their ids are known).
const (
	ascPetOwner   = "ascPetOwner"   // custom_objects.pet (Pet) -> contact (Owner)
	ascOwnsPet    = "ascOwnsPet"    // contact (Owner) -> custom_objects.pet (Pet)
	ascReferredBy = "ascReferredBy" // contact (Referrer) -> contact (Referred): directed
	ascSibling    = "ascSibling"    // contact (Sibling) -> contact (sibling): symmetric
	ascBravo      = "ascBravoPets"  // acctB's pet -> contact
)

// fixture is the associations part both accounts start with: acctA has the
// custom object pet (records petA1..petA3) and four associations; acctB has
// pet (petB1), horse (horseB1) and one association.
var fixture = fmt.Sprintf(`{
  "customObjects": [
    {"locationId": %[1]q, "key": "custom_objects.pet", "labels": {"singular": "Pet", "plural": "Pets"},
     "records": [{"id": "petA1", "properties": {"name": "Rex"}}, {"id": "petA2"}, {"id": "petA3"}]},
    {"locationId": %[2]q, "key": "custom_objects.pet", "labels": {"singular": "Pet", "plural": "Pets"}, "records": [{"id": "petB1"}]},
    {"locationId": %[2]q, "key": "custom_objects.horse", "labels": {"singular": "Horse", "plural": "Horses"}, "records": [{"id": "horseB1"}]}
  ],
  "associations": [
    {"locationId": %[1]q, "id": %[3]q, "key": "pet_owner", "firstObjectLabel": "Pet", "firstObjectKey": "custom_objects.pet", "secondObjectLabel": "Owner", "secondObjectKey": "contact"},
    {"locationId": %[1]q, "id": %[4]q, "key": "owns_pet", "firstObjectLabel": "Owner", "firstObjectKey": "contact", "secondObjectLabel": "Pet", "secondObjectKey": "custom_objects.pet"},
    {"locationId": %[1]q, "id": %[5]q, "key": "referred_by", "firstObjectLabel": "Referrer", "firstObjectKey": "contact", "secondObjectLabel": "Referred", "secondObjectKey": "contact"},
    {"locationId": %[1]q, "id": %[6]q, "key": "sibling", "firstObjectLabel": "Sibling", "firstObjectKey": "contact", "secondObjectLabel": "sibling", "secondObjectKey": "contact"},
    {"locationId": %[2]q, "id": %[7]q, "key": "bravo_pets", "firstObjectLabel": "Pet", "firstObjectKey": "custom_objects.pet", "secondObjectLabel": "Owner", "secondObjectKey": "contact"}
  ]
}`, acctA, acctB, ascPetOwner, ascOwnsPet, ascReferredBy, ascSibling, ascBravo)

// newEnv starts the associations and contacts areas with two accounts of one
// company, the fixture, and contacts ctcA1..ctcA<nA> in acctA and ctcB1,
// ctcB2 in acctB. It returns a token of acctA with every scope.
func newEnv(t *testing.T, nA int) (*testenv.Env, string) {
	t.Helper()
	env := testenv.New(t, []app.Area{associations.Area, contacts.Area})
	env.Account(t, acctA, company)
	env.Account(t, acctB, company)
	env.Seed(t, associations.Area, fixture)
	seedContacts(t, env, acctA, "ctcA", nA)
	seedContacts(t, env, acctB, "ctcB", 2)
	token, _ := env.Token(t, acctA)
	return env, token
}

func seedContacts(t *testing.T, env *testenv.Env, account, prefix string, n int) {
	t.Helper()
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"id":"%s%d","locationId":%q,"firstName":"Person%d","dateAdded":"2025-03-01T10:00:00Z"}`, prefix, i+1, account, i+1)
	}
	env.Seed(t, contacts.Area, `{"contacts":[`+strings.Join(parts, ",")+`]}`)
}

// with returns a copy of body with the given fields set; a nil value
// removes the field.
func with(body map[string]any, changes map[string]any) map[string]any {
	out := make(map[string]any, len(body))
	for k, v := range body {
		out[k] = v
	}
	for k, v := range changes {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

func post(t *testing.T, env *testenv.Env, token, path string, body any) *testenv.Response {
	t.Helper()
	return env.Do(t, testenv.Request{Method: "POST", Path: path, Token: token, Body: body})
}

func requireStatus(t *testing.T, resp *testenv.Response, status int) {
	t.Helper()
	require.Equal(t, status, resp.Status, "body: %s", resp.Body)
}
