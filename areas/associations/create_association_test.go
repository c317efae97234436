package associations_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/associations"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/storage"
)

var alnum20 = regexp.MustCompile(`^[A-Za-z0-9]{20}$`)

func associationBody(key, firstKey, secondKey string) map[string]any {
	return map[string]any{
		"locationId":        acctA,
		"key":               key,
		"firstObjectLabel":  "First",
		"firstObjectKey":    firstKey,
		"secondObjectLabel": "Second",
		"secondObjectKey":   secondKey,
	}
}

func TestCreateAssociationStoresAndAnswersTheAssociation(t *testing.T) {
	env, token := newEnv(t, 1)
	store := associations.NewGraph(env.Table)
	ctx := context.Background()
	cases := []struct {
		name, key, first, second string
	}{
		{"a contact to contact association is created", "spouse", "contact", "contact"},
		{"a custom object to contact association is created", "vet_client", "custom_objects.pet", "contact"},
		{"a contact to custom object association is created", "pet_sitter", "contact", "custom_objects.pet"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := post(t, env, token, associationsPath, associationBody(tc.key, tc.first, tc.second))
			requireStatus(t, resp, http.StatusCreated)
			var got associations.Association
			resp.JSON(t, &got)
			assert.Regexp(t, alnum20, got.ID)
			want := associations.Association{
				LocationID: acctA, ID: got.ID, Key: tc.key,
				FirstObjectLabel: "First", FirstObjectKey: tc.first,
				SecondObjectLabel: "Second", SecondObjectKey: tc.second,
				AssociationType: "USER_DEFINED",
			}
			assert.Equal(t, want, got)
			assert.Len(t, resp.Map(t), 8, "the answer has exactly the association's eight fields")

			stored, err := store.Association(ctx, acctA, got.ID)
			require.NoError(t, err)
			require.NotNil(t, stored, "the association is stored under its id")
			assert.Equal(t, want, *stored)
			byKey, err := store.AssociationByKey(ctx, acctA, tc.key)
			require.NoError(t, err)
			require.NotNil(t, byKey, "the key is claimed")
			assert.Equal(t, got.ID, byKey.ID)
		})
	}
}

func TestCreateAssociationKeyIsUniqueOnlyWithinTheAccount(t *testing.T) {
	env, token := newEnv(t, 1)
	// acctB has an association with key bravo_pets; acctA may use the key too.
	resp := post(t, env, token, associationsPath, associationBody("bravo_pets", "contact", "contact"))
	requireStatus(t, resp, http.StatusCreated)
	other, err := associations.NewGraph(env.Table).AssociationByKey(context.Background(), acctB, "bravo_pets")
	require.NoError(t, err)
	require.NotNil(t, other)
	assert.Equal(t, ascBravo, other.ID, "the other account's association is untouched")
}

func TestCreateAssociationRejectsBrokenRules(t *testing.T) {
	env, token := newEnv(t, 1)
	store := associations.NewGraph(env.Table)
	ctx := context.Background()
	before, err := store.Associations(ctx, acctA)
	require.NoError(t, err)

	valid := associationBody("new_key", "contact", "custom_objects.pet")
	cases := []struct {
		name string
		body any
		want []string
	}{
		{"locationId is required", with(valid, map[string]any{"locationId": nil}), []string{"locationId is required"}},
		{"locationId must be an id", with(valid, map[string]any{"locationId": "ACCOUNT#x"}), []string{"locationId must be an id"}},
		{"key is required", with(valid, map[string]any{"key": nil}), []string{"key is required"}},
		{"key must not be blank", with(valid, map[string]any{"key": "  "}), []string{"key is required"}},
		{"key must be made of letters, digits, '_' or '-'", with(valid, map[string]any{"key": "pet owner"}), []string{"key must be 1 to 64"}},
		{"key must be at most 64 characters", with(valid, map[string]any{"key": fmt.Sprintf("%065d", 0)}), []string{"key must be 1 to 64"}},
		{"key must not be taken in the account", with(valid, map[string]any{"key": "pet_owner"}), []string{`key "pet_owner" is already used`}},
		{"key must not be taken in another letter case", with(valid, map[string]any{"key": "PET_Owner"}), []string{`key "PET_Owner" is already used`}},
		{"firstObjectLabel is required", with(valid, map[string]any{"firstObjectLabel": nil}), []string{"firstObjectLabel is required"}},
		{"firstObjectLabel must be a string, not an object", with(valid, map[string]any{"firstObjectLabel": map[string]any{"en": "Owner"}}), []string{"firstObjectLabel must be a string"}},
		{"firstObjectLabel must be at most 100 characters", with(valid, map[string]any{"firstObjectLabel": fmt.Sprintf("%0101d", 0)}), []string{"firstObjectLabel must be at most 100"}},
		{"secondObjectLabel is required", with(valid, map[string]any{"secondObjectLabel": ""}), []string{"secondObjectLabel is required"}},
		{"secondObjectLabel must be a string, not a number", with(valid, map[string]any{"secondObjectLabel": 7}), []string{"secondObjectLabel must be a string"}},
		{"firstObjectKey is required", with(valid, map[string]any{"firstObjectKey": nil}), []string{"firstObjectKey is required"}},
		{"firstObjectKey must be contact or a custom object", with(valid, map[string]any{"firstObjectKey": "opportunity"}), []string{"firstObjectKey must be"}},
		{"firstObjectKey must name the custom object", with(valid, map[string]any{"firstObjectKey": "custom_objects."}), []string{"firstObjectKey must be"}},
		{"secondObjectKey must be a string", with(valid, map[string]any{"secondObjectKey": []string{"contact"}}), []string{"secondObjectKey must be a string"}},
		{"secondObjectKey custom object name must be an id", with(valid, map[string]any{"secondObjectKey": "custom_objects.pet#1"}), []string{"secondObjectKey must be"}},
		{"the custom object must exist in the account", with(valid, map[string]any{"secondObjectKey": "custom_objects.dragon"}), []string{`secondObjectKey names the custom object "dragon"`}},
		{"another account's custom object does not count", with(valid, map[string]any{"firstObjectKey": "custom_objects.horse", "secondObjectKey": "contact"}), []string{`firstObjectKey names the custom object "horse"`}},
		{"two custom objects are not a supported pair", with(valid, map[string]any{"firstObjectKey": "custom_objects.pet"}), []string{"firstObjectKey and secondObjectKey must include a contact"}},
		{"unknown properties are refused", with(valid, map[string]any{"associationType": "SYSTEM_DEFINED"}), []string{"property associationType should not exist"}},
		{"every broken rule is named in one answer", map[string]any{"locationId": acctA, "firstObjectKey": "deal"}, []string{
			"key is required", "firstObjectLabel is required", "firstObjectKey must be", "secondObjectLabel is required", "secondObjectKey is required",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := post(t, env, token, associationsPath, tc.body).RequireError(t, http.StatusUnprocessableEntity)
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
		})
	}
	t.Run("a body that is not JSON is a 400", func(t *testing.T) {
		post(t, env, token, associationsPath, "{not json").RequireError(t, http.StatusBadRequest)
	})
	t.Run("nothing was stored by the refused requests", func(t *testing.T) {
		after, err := store.Associations(ctx, acctA)
		require.NoError(t, err)
		assert.ElementsMatch(t, before, after)
	})
}

func TestCreateAssociationForAnotherAccountIsForbidden(t *testing.T) {
	env, token := newEnv(t, 1)
	store := associations.NewGraph(env.Table)
	ctx := context.Background()
	body := with(associationBody("foreign_key", "contact", "contact"), map[string]any{"locationId": acctB})
	msg := post(t, env, token, associationsPath, body).RequireError(t, http.StatusForbidden)
	assert.Equal(t, "The token does not have access to this location", msg)
	got, err := store.AssociationByKey(ctx, acctB, "foreign_key")
	require.NoError(t, err)
	assert.Nil(t, got, "nothing is created in the other account")
	got, err = store.AssociationByKey(ctx, acctA, "foreign_key")
	require.NoError(t, err)
	assert.Nil(t, got, "nor in the caller's")
}

func TestCreateAssociationIsServedWithAndWithoutTrailingSlash(t *testing.T) {
	env, token := newEnv(t, 1)
	for i, path := range []string{"/associations/", "/associations"} {
		resp := post(t, env, token, path, associationBody(fmt.Sprintf("slash_%d", i), "contact", "contact"))
		assert.Equal(t, http.StatusCreated, resp.Status, "%s: %s", path, resp.Body)
	}
}

func TestConcurrentCreationsOfOneAssociationKeyCreateOne(t *testing.T) {
	cases := []struct {
		name      string
		spellings []string // the key each request sends, in turn
		requests  int
	}{
		{"two creations of one key at once make one association", []string{"race_key"}, 2},
		{"many creations of one key at once make one association", []string{"race_key"}, 16},
		{"many creations of one key in several letter cases make one association", []string{"race_key", "RACE_KEY", "Race_Key"}, 15},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, token := newEnv(t, 1)
			ctx := context.Background()
			statuses := make([]int, tc.requests)
			bodies := make([][]byte, tc.requests)
			var wg sync.WaitGroup
			for i := range tc.requests {
				wg.Go(func() {
					body := associationBody(tc.spellings[i%len(tc.spellings)], "contact", "contact")
					body["firstObjectLabel"] = fmt.Sprintf("Label %d", i) // each request is distinguishable
					resp := post(t, env, token, associationsPath, body)
					statuses[i], bodies[i] = resp.Status, resp.Body
				})
			}
			wg.Wait()

			var winner associations.Association
			created := 0
			for i, s := range statuses {
				switch s {
				case http.StatusCreated:
					created++
					(&testenv.Response{Body: bodies[i]}).JSON(t, &winner)
				case http.StatusUnprocessableEntity:
					assert.Contains(t, string(bodies[i]), "is already used by another association")
				default:
					t.Errorf("unexpected status %d: %s", s, bodies[i])
				}
			}
			require.Equal(t, 1, created, "exactly one request creates the association")

			store := associations.NewGraph(env.Table)
			byID, err := store.Association(ctx, acctA, winner.ID)
			require.NoError(t, err)
			require.NotNil(t, byID, "the winner's association is found by its id")
			assert.Equal(t, winner, *byID)
			byKey, err := store.AssociationByKey(ctx, acctA, "race_key")
			require.NoError(t, err)
			require.NotNil(t, byKey, "and by its key")
			assert.Equal(t, winner, *byKey)
			idItems, claims := associationItems(t, env, acctA)
			assert.Equal(t, winner, idItems[strings.ToLower(winner.Key)], "one id item holds the key: the losers wrote none")
			assert.Equal(t, idItems, claims, "every id item has its key claim, and every claim its id item")
		})
	}
}

// associationItems reads the account's associations as stored: its id
// items and its key claims, each by lower-cased key. It fails the test when
// two id items hold one key.
func associationItems(t *testing.T, env *testenv.Env, accountID string) (idItems, claims map[string]associations.Association) {
	t.Helper()
	ctx := context.Background()
	byID, err := associations.NewGraph(env.Table).Associations(ctx, accountID)
	require.NoError(t, err)
	keyClaims, err := storage.QueryPartition[associations.Association](ctx, env.Table, storage.AccountPK(accountID), "ASSOCIATIONKEY#")
	require.NoError(t, err)
	idItems, claims = map[string]associations.Association{}, map[string]associations.Association{}
	for _, a := range byID {
		key := strings.ToLower(a.Key)
		assert.NotContains(t, idItems, key, "one association per key")
		idItems[key] = a
	}
	for _, a := range keyClaims {
		claims[strings.ToLower(a.Key)] = a
	}
	return idItems, claims
}

func TestCreateAssociationAuth(t *testing.T) {
	env, _ := newEnv(t, 1)
	n := 0
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.CreateAssociation, Account: acctA, OK: http.StatusCreated, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			n++
			return post(t, env, token, associationsPath, associationBody(fmt.Sprintf("auth_%d", n), "contact", "contact"))
		},
	})
}
