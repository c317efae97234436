package associations_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/associations"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/operations"
)

func relationBody(associationID, first, second string) map[string]any {
	return map[string]any{"locationId": acctA, "associationId": associationID, "firstRecordId": first, "secondRecordId": second}
}

type relationAnswer struct {
	associations.Association
	RelationID     string `json:"relationId"`
	FirstRecordID  string `json:"firstRecordId"`
	SecondRecordID string `json:"secondRecordId"`
}

func association(t *testing.T, store *associations.Graph, account, id string) associations.Association {
	t.Helper()
	a, err := store.Association(context.Background(), account, id)
	require.NoError(t, err)
	require.NotNil(t, a, "fixture association %s", id)
	return *a
}

func TestCreateRelationStoresTheRelationAndAnswersTheAssociation(t *testing.T) {
	env, token := newEnv(t, 3)
	store := associations.NewGraph(env.Table)
	cases := []struct {
		name, association, first, second string
	}{
		{"a pet is related to its owner (custom object first)", ascPetOwner, "petA1", "ctcA1"},
		{"an owner is related to a pet (contact first)", ascOwnsPet, "ctcA1", "petA2"},
		{"a contact is related to another contact", ascReferredBy, "ctcA1", "ctcA2"},
		{"a directed contact relation may also be created the other way round", ascReferredBy, "ctcA2", "ctcA1"},
		{"a symmetric contact relation is created once", ascSibling, "ctcA2", "ctcA3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := post(t, env, token, relationsPath, relationBody(tc.association, tc.first, tc.second))
			requireStatus(t, resp, http.StatusCreated)
			var got relationAnswer
			resp.JSON(t, &got)
			a := association(t, store, acctA, tc.association)
			assert.Equal(t, a, got.Association, "the answer carries the association's fields")
			assert.Regexp(t, alnum20, got.RelationID)
			assert.Equal(t, tc.first, got.FirstRecordID)
			assert.Equal(t, tc.second, got.SecondRecordID)

			rel, err := store.Relation(context.Background(), acctA, a, tc.first, tc.second)
			require.NoError(t, err)
			require.NotNil(t, rel, "the relation is stored")
			assert.Equal(t, associations.Relation{
				ID: got.RelationID, LocationID: acctA, AssociationID: tc.association,
				FirstRecordID: tc.first, SecondRecordID: tc.second, CreatedAt: "2026-06-15T12:00:03.000Z",
			}, *rel)
		})
	}
}

func TestCreateRelationRefusesTheSameRelationTwice(t *testing.T) {
	env, token := newEnv(t, 2)
	store := associations.NewGraph(env.Table)
	cases := []struct {
		name, association string
		first, second     [2]string
		msg               string
	}{
		{"the same pet and owner again", ascPetOwner, [2]string{"petA1", "ctcA1"}, [2]string{"petA1", "ctcA1"}, "already related"},
		{"the same directed contact pair again", ascReferredBy, [2]string{"ctcA1", "ctcA2"}, [2]string{"ctcA1", "ctcA2"}, "already related"},
		{"a symmetric contact pair in the other order", ascSibling, [2]string{"ctcA1", "ctcA2"}, [2]string{"ctcA2", "ctcA1"}, "in either order"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			requireStatus(t, post(t, env, token, relationsPath, relationBody(tc.association, tc.first[0], tc.first[1])), http.StatusCreated)
			msg := post(t, env, token, relationsPath, relationBody(tc.association, tc.second[0], tc.second[1])).RequireError(t, http.StatusUnprocessableEntity)
			assert.Contains(t, msg, "firstRecordId")
			assert.Contains(t, msg, tc.msg)
			rels, err := store.Relations(context.Background(), acctA, tc.association)
			require.NoError(t, err)
			require.Len(t, rels, 1, "one relation is stored")
			assert.Equal(t, tc.first[0], rels[0].FirstRecordID, "the first relation is kept as it was")
		})
	}
}

func TestCreateRelationRejectsBrokenRules(t *testing.T) {
	env, token := newEnv(t, 2)
	store := associations.NewGraph(env.Table)
	otherBefore := association(t, store, acctB, ascBravo)
	valid := relationBody(ascPetOwner, "petA1", "ctcA1")
	cases := []struct {
		name string
		body any
		want []string
	}{
		{"locationId is required", with(valid, map[string]any{"locationId": nil}), []string{"locationId is required"}},
		{"associationId is required", with(valid, map[string]any{"associationId": ""}), []string{"associationId is required"}},
		{"firstRecordId is required", with(valid, map[string]any{"firstRecordId": nil}), []string{"firstRecordId is required"}},
		{"secondRecordId is required", with(valid, map[string]any{"secondRecordId": nil}), []string{"secondRecordId is required"}},
		{"associationId must be an id", with(valid, map[string]any{"associationId": "a/b"}), []string{"associationId must be an id"}},
		{"firstRecordId must be an id", with(valid, map[string]any{"firstRecordId": "pet#A1"}), []string{"firstRecordId must be an id"}},
		{"secondRecordId must be a string", with(valid, map[string]any{"secondRecordId": 12}), []string{"secondRecordId must be a string"}},
		{"the association must exist", with(valid, map[string]any{"associationId": "noSuchAssociation"}), []string{`associationId "noSuchAssociation" does not name an association`}},
		{"another account's association is not found", with(valid, map[string]any{"associationId": ascBravo, "firstRecordId": "petB1", "secondRecordId": "ctcB1"}), []string{"associationId"}},
		{"the first record must be a record of the custom object", with(valid, map[string]any{"firstRecordId": "ctcA2"}), []string{`firstRecordId "ctcA2" does not name a record of the custom object custom_objects.pet`}},
		{"the second record must be a contact", with(valid, map[string]any{"secondRecordId": "petA2"}), []string{`secondRecordId "petA2" does not name a contact`}},
		{"both wrong sides are named in one answer", with(valid, map[string]any{"firstRecordId": "ctcA1", "secondRecordId": "petA1"}), []string{"firstRecordId", "secondRecordId"}},
		{"another account's contact is not found", with(valid, map[string]any{"secondRecordId": "ctcB1"}), []string{`secondRecordId "ctcB1" does not name a contact`}},
		{"another account's custom record is not found", with(valid, map[string]any{"firstRecordId": "petB1"}), []string{`firstRecordId "petB1" does not name a record`}},
		{"a contact is not related to itself", relationBody(ascReferredBy, "ctcA1", "ctcA1"), []string{"secondRecordId must differ from firstRecordId"}},
		{"unknown properties are refused", with(valid, map[string]any{"relationId": "x"}), []string{"property relationId should not exist"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := post(t, env, token, relationsPath, tc.body).RequireError(t, http.StatusUnprocessableEntity)
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
		})
	}
	t.Run("nothing was stored by the refused requests", func(t *testing.T) {
		for _, acct := range []struct{ account, association string }{
			{acctA, ascPetOwner}, {acctA, ascReferredBy}, {acctB, ascBravo},
		} {
			rels, err := store.Relations(context.Background(), acct.account, acct.association)
			require.NoError(t, err)
			assert.Empty(t, rels, "%s/%s", acct.account, acct.association)
		}
		assert.Equal(t, otherBefore, association(t, store, acctB, ascBravo), "the other account's association is unchanged")
	})
}

func TestCreateRelationInAnotherAccountIsForbidden(t *testing.T) {
	env, token := newEnv(t, 1)
	body := map[string]any{"locationId": acctB, "associationId": ascBravo, "firstRecordId": "petB1", "secondRecordId": "ctcB1"}
	msg := post(t, env, token, relationsPath, body).RequireError(t, http.StatusForbidden)
	assert.Equal(t, "The token does not have access to this location", msg)
	rels, err := associations.NewGraph(env.Table).Relations(context.Background(), acctB, ascBravo)
	require.NoError(t, err)
	assert.Empty(t, rels, "the other account gets no relation")
}

func TestCreateRelationConcurrentRequestsStoreOne(t *testing.T) {
	cases := []struct {
		name        string
		association string
		pairs       [][2]string
	}{
		{"the same pair sent concurrently", ascPetOwner, [][2]string{{"petA1", "ctcA1"}}},
		{"a symmetric pair sent concurrently in both orders", ascSibling, [][2]string{{"ctcA1", "ctcA2"}, {"ctcA2", "ctcA1"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, token := newEnv(t, 2)
			const n = 8
			statuses := make([]int, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					p := tc.pairs[i%len(tc.pairs)]
					statuses[i] = post(t, env, token, relationsPath, relationBody(tc.association, p[0], p[1])).Status
				}()
			}
			wg.Wait()
			created := 0
			for _, s := range statuses {
				if s == http.StatusCreated {
					created++
				} else {
					assert.Equal(t, http.StatusUnprocessableEntity, s)
				}
			}
			assert.Equal(t, 1, created)
			rels, err := associations.NewGraph(env.Table).Relations(context.Background(), acctA, tc.association)
			require.NoError(t, err)
			assert.Len(t, rels, 1)
		})
	}
}

func TestCreateRelationAuth(t *testing.T) {
	env, _ := newEnv(t, 12)
	n := 1
	env.CheckAuth(t, testenv.AuthCheck{
		Op: operations.CreateRelation, Account: acctA, OK: http.StatusCreated, ForeignStatus: http.StatusForbidden,
		Call: func(t *testing.T, token string) *testenv.Response {
			n++ // a new pair on every call
			return post(t, env, token, relationsPath, relationBody(ascReferredBy, "ctcA1", fmt.Sprintf("ctcA%d", n)))
		},
	})
}
