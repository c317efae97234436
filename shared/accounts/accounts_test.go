package accounts_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
)

func TestConcurrentCreationsOfOneAccountIdMakeOneAccount(t *testing.T) {
	table := testenv.NewTable(t)
	registry := accounts.NewRegistry(table, clock.NewManual(testenv.Start))
	ctx := context.Background()

	// Eight creations of one id, in two companies that do not exist yet.
	const creations = 8
	created, errs := make([]accounts.Account, creations), make([]error, creations)
	var wg sync.WaitGroup
	for i := range creations {
		wg.Go(func() {
			created[i], errs[i] = registry.Create(ctx, "acctRace", fmt.Sprintf("co%d", i%2), fmt.Sprintf("Race %d", i))
		})
	}
	wg.Wait()
	var won []accounts.Account
	for i, err := range errs {
		if err == nil {
			won = append(won, created[i])
		} else {
			assert.ErrorIs(t, err, accounts.ErrExists)
		}
	}
	require.Len(t, won, 1, "one creation succeeds, the others are told the id is taken")
	winner := won[0]

	stored, err := registry.Get(ctx, "acctRace")
	require.NoError(t, err)
	require.NotNil(t, stored)
	assert.Equal(t, winner.Name, stored.Name)
	assert.Equal(t, winner.CompanyID, stored.CompanyID)

	members, err := registry.OfCompany(ctx, winner.CompanyID)
	require.NoError(t, err)
	assert.Equal(t, []accounts.Account{{ID: "acctRace", CompanyID: winner.CompanyID, Name: winner.Name}}, members)

	var keys []string
	for _, it := range testenv.Items[storage.Key](t, table) {
		keys = append(keys, it.PK+" "+it.SK)
	}
	assert.ElementsMatch(t, []string{
		"ACCOUNT#acctRace ACCOUNT", "COMPANY#" + winner.CompanyID + " COMPANY", "COMPANY#" + winner.CompanyID + " ACCOUNT#acctRace",
	}, keys, "nothing of the refused creations: not even the other company")
}

func TestACompanyKeepsItsRecordAsAccountsAreAdded(t *testing.T) {
	table := testenv.NewTable(t)
	clk := clock.NewManual(testenv.Start)
	registry := accounts.NewRegistry(table, clk)
	ctx := context.Background()

	_, err := registry.Create(ctx, "acctFirst", "coKeep", "First")
	require.NoError(t, err)
	clk.Advance(time.Hour)
	_, err = registry.Create(ctx, "acctSecond", "coKeep", "Second")
	require.NoError(t, err)

	company, err := storage.Get[accounts.Company](ctx, table, accounts.CompanyKey("coKeep"))
	require.NoError(t, err)
	require.NotNil(t, company)
	assert.Equal(t, "coKeep", company.ID)
	assert.Equal(t, clock.Timestamp(testenv.Start), company.CreatedAt, "created with its first account")
	members, err := registry.OfCompany(ctx, "coKeep")
	require.NoError(t, err)
	var names []string
	for _, m := range members {
		names = append(names, m.Name)
	}
	assert.Equal(t, []string{"First", "Second"}, names)

	_, err = registry.Create(ctx, "acctFirst", "coKeep", "Again")
	assert.ErrorIs(t, err, accounts.ErrExists)
	again, err := registry.Get(ctx, "acctFirst")
	require.NoError(t, err)
	assert.Equal(t, "First", again.Name, "an id taken is left as it is")
}
