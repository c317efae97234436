package users

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
)

func TestCreateKeepsAnAddressToOneUserOfTheCompany(t *testing.T) {
	env := testenv.New(t, []app.Area{Area})
	dir := NewDirectory(env.Table)
	ctx := context.Background()
	newUser := func(email string) User {
		return User{Name: "Ana Alvarez", Email: email, Permissions: DefaultPermissions(),
			Roles: Roles{Type: "account", Role: "admin", LocationIDs: []string{"acctClaim0000000001"}}}
	}

	t.Run("creations of one address at the same moment make one user", func(t *testing.T) {
		spellings := []string{"ana@claims.example", "ANA@claims.example", "Ana@Claims.Example", "ana@CLAIMS.example"}
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			created []User
			taken   int
		)
		for range 3 {
			for _, email := range spellings {
				wg.Go(func() {
					u, err := dir.Create(ctx, "companyClaims01", newUser(email))
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
		require.Len(t, created, 1, "one creation wins")
		assert.Equal(t, 3*len(spellings)-1, taken, "every other one is told the address is taken")
		found, err := dir.FindByEmails(ctx, "companyClaims01", []string{"ana@claims.example"}, false)
		require.NoError(t, err)
		require.Len(t, found, 1)
		assert.Equal(t, created[0].ID, found[0].ID)
	})

	t.Run("another company may use the same address", func(t *testing.T) {
		_, err := dir.Create(ctx, "companyClaims02", newUser("ana@claims.example"))
		require.NoError(t, err)
	})

	t.Run("the address of a user a seed wrote is taken", func(t *testing.T) {
		raw, err := json.Marshal(map[string]any{"users": []map[string]any{{
			"id": "seededClaimUser0001", "companyId": "companyClaims01", "email": "seeded@claims.example",
			"roles": map[string]any{"type": "account", "role": "user", "locationIds": []string{"acctClaim0000000001"}},
		}}})
		require.NoError(t, err)
		require.NoError(t, Area.Seed(ctx, env.Deps, raw))
		_, err = dir.Create(ctx, "companyClaims01", newUser("Seeded@claims.example"))
		assert.ErrorIs(t, err, ErrEmailTaken)
	})

	t.Run("a creation that stopped after its claim is completed, and the address stays taken", func(t *testing.T) {
		abandoned := newUser("half@claims.example")
		abandoned.ID = "abandonedClaimUser01"
		abandoned.normalize()
		claim := emailClaim{Key: emailClaimKey("companyClaims01", "half@claims.example"), CompanyID: "companyClaims01", User: abandoned}
		require.NoError(t, env.Table.Put(ctx, claim, nil))

		_, err := dir.Create(ctx, "companyClaims01", newUser("half@claims.example"))
		assert.ErrorIs(t, err, ErrEmailTaken)
		got, err := dir.Get(ctx, "companyClaims01", "abandonedClaimUser01")
		require.NoError(t, err)
		require.NotNil(t, got, "the claimed user is written from its claim")
		assert.Equal(t, "half@claims.example", got.Email)
	})
}
