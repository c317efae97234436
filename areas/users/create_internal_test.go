package users

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/storage"
)

func TestCreateKeepsAnAddressToOneUserOfTheCompany(t *testing.T) {
	env := testenv.New(t, []app.Area{Area})
	dir := NewDirectory(env.Table)
	ctx := context.Background()
	newUser := func(email string) User {
		return User{Name: "Ana Alvarez", Email: email, Permissions: DefaultPermissions(),
			Roles: Roles{Type: "account", Role: "admin", LocationIDs: []string{"acctClaim0000000001"}}}
	}

	t.Run("creations of one address at the same moment make one user, and tell every other creator the address is taken", func(t *testing.T) {
		spellings := []string{"ana@claims.example", "ANA@claims.example", "Ana@Claims.Example", "ana@CLAIMS.example"}
		const rounds = 5
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			created []User
			taken   int
		)
		for range rounds {
			for _, email := range spellings {
				wg.Go(func() {
					u, err := dir.Create(ctx, "companyClaims01", newUser(email), testenv.Start)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						created = append(created, u)
					case errors.Is(err, ErrEmailTaken):
						taken++
					default:
						t.Errorf("create %s: %v", email, err)
					}
				})
			}
		}
		wg.Wait()
		require.Len(t, created, 1, "one creation wins, and its creator is told so")
		assert.Equal(t, rounds*len(spellings)-1, taken, "every other one is told the address is taken")

		stored, err := dir.Get(ctx, "companyClaims01", created[0].ID)
		require.NoError(t, err)
		require.NotNil(t, stored, "the user the winner was answered is stored")
		assert.Equal(t, created[0], *stored)
		claims, users := claimsAndUsers(t, env.Table, "companyClaims01")
		assert.Equal(t, map[string]string{"ana@claims.example": created[0].ID}, claims, "one claim, naming the winner")
		assert.Equal(t, map[string]string{created[0].ID: "ana@claims.example"}, users, "one user item: the losers wrote nothing")
	})

	t.Run("another company may use the same address", func(t *testing.T) {
		u, err := dir.Create(ctx, "companyClaims02", newUser("ana@claims.example"), testenv.Start)
		require.NoError(t, err)
		claims, _ := claimsAndUsers(t, env.Table, "companyClaims02")
		assert.Equal(t, map[string]string{"ana@claims.example": u.ID}, claims)
	})

	t.Run("the address of a user a seed wrote is taken", func(t *testing.T) {
		raw, err := json.Marshal(map[string]any{"users": []map[string]any{{
			"id": "seededClaimUser0001", "companyId": "companyClaims01", "email": "seeded@claims.example",
			"roles": map[string]any{"type": "account", "role": "user", "locationIds": []string{"acctClaim0000000001"}},
		}}})
		require.NoError(t, err)
		require.NoError(t, Area.Seed(ctx, env.Deps, raw))
		_, err = dir.Create(ctx, "companyClaims01", newUser("Seeded@claims.example"), testenv.Start)
		assert.ErrorIs(t, err, ErrEmailTaken)
		claims, _ := claimsAndUsers(t, env.Table, "companyClaims01")
		assert.NotContains(t, claims, "seeded@claims.example", "the refused creation claimed nothing")
	})
}

// claimsAndUsers reads the company's partition: its address claims
// (address -> the user they name) and its users other than seeded ones,
// whose ids begin with "seeded" (id -> lower-cased address). It fails the test when a claim names no user
// with its address, or a created user has no claim.
func claimsAndUsers(t *testing.T, table *storage.Table, companyID string) (claims, users map[string]string) {
	t.Helper()
	ctx := context.Background()
	claimItems, err := storage.QueryPartition[emailClaim](ctx, table, storage.CompanyPK(companyID), "USEREMAILCLAIM#")
	require.NoError(t, err)
	userItems, err := storage.QueryPartition[userItem](ctx, table, storage.CompanyPK(companyID), "USER#")
	require.NoError(t, err)
	claims, users = map[string]string{}, map[string]string{}
	for _, c := range claimItems {
		claims[strings.TrimPrefix(c.SK, "USEREMAILCLAIM#")] = c.UserID
	}
	for _, u := range userItems {
		if strings.HasPrefix(u.ID, "seeded") {
			continue
		}
		lower := strings.ToLower(u.Email)
		users[u.ID] = lower
		assert.Equal(t, u.ID, claims[lower], "user %s has the claim of its address", u.ID)
	}
	for address, id := range claims {
		assert.Equal(t, address, users[id], "the claim of %s names a user with that address", address)
	}
	return claims, users
}
