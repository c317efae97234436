package oauth_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage"
)

const racers = 8

// race sends form to the token endpoint from racers clients at once and
// returns the answers.
func race(t *testing.T, f *fixture, form func() map[string][]string) []answer {
	var wg sync.WaitGroup
	answers := make([]answer, racers)
	start := make(chan struct{})
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			answers[i] = f.post(t, "/oauth/token", form(), "")
		}()
	}
	close(start)
	wg.Wait()
	return answers
}

// succeeded splits the answers: the 200s, and the error codes of the rest.
func succeeded(t *testing.T, answers []answer) ([]answer, []string) {
	var ok []answer
	var refused []string
	for _, a := range answers {
		if a.Status == http.StatusOK {
			ok = append(ok, a)
			continue
		}
		assert.Equal(t, http.StatusBadRequest, a.Status, a.Body)
		refused = append(refused, a.str("error"))
	}
	return ok, refused
}

// checkNothingHalfWritten reads every item back and checks that the
// install's token list and the token items agree: each listed token works,
// each unlisted one is revoked or used, and no token exists but those the
// answers handed out.
func checkNothingHalfWritten(t *testing.T, f *fixture, handedOut int) {
	inst := f.storedInstall(t, storage.AccountPK(acct), f.app.ID)
	listed := map[string]bool{}
	for _, tok := range inst.Tokens {
		listed[tok.Hash] = true
	}
	access, refresh := 0, 0
	for _, item := range testenv.Items[map[string]any](t, f.env.Table) {
		pk := item["PK"].(string)
		_, revoked := item["revokedAt"]
		_, used := item["usedAt"]
		switch {
		case strings.HasPrefix(pk, "TOKEN#"):
			access++
			hash := strings.TrimPrefix(pk, "TOKEN#")
			assert.Equal(t, listed[hash], !revoked, "access token %s: listed exactly when it works", hash[:8])
		case strings.HasPrefix(pk, "OAUTHREFRESH#"):
			refresh++
			hash := strings.TrimPrefix(pk, "OAUTHREFRESH#")
			assert.Equal(t, listed[hash], !revoked && !used, "refresh token %s: listed exactly when unused", hash[:8])
		}
	}
	assert.Equal(t, handedOut, access, "an access token item for each answer that handed one out, no other")
	assert.Equal(t, handedOut, refresh, "a refresh token item for each answer that handed one out, no other")
	events := f.installEvents(t)
	assert.Len(t, events, 1, "one INSTALL event")
}

func TestConcurrentExchangesOfOneCodeInstallOnce(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	form := f.exchangeForm(f.code(t, acct), marketplace.UserLocation)
	ok, refused := succeeded(t, race(t, f, func() map[string][]string { return form }))

	require.Len(t, ok, 1, "one exchange gets the tokens")
	for _, code := range refused {
		assert.Equal(t, "invalid_grant", code)
	}
	checkNothingHalfWritten(t, f, 1)
}

func TestConcurrentRefreshesWithOneTokenRotateItOnce(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	first := f.install(t, acct)
	form := f.refreshForm(first.str("refresh_token"), marketplace.UserLocation)
	ok, refused := succeeded(t, race(t, f, func() map[string][]string { return form }))

	require.Len(t, ok, 1, "one refresh gets the new pair")
	for _, code := range refused {
		assert.Equal(t, "invalid_grant", code)
	}
	// A refresh that read the token after the winner used it is a reuse,
	// which revokes the new pair too; one that lost the race writing did
	// nothing. Either way the items agree with the list.
	checkNothingHalfWritten(t, f, 2)
}

func TestAnUninstallRacingRefreshesLeavesNoTokenOfTheInstallWorking(t *testing.T) {
	f := newFixture(t, marketplace.TargetLocation)
	first := f.install(t, acct)
	form := f.refreshForm(first.str("refresh_token"), marketplace.UserLocation)
	var wg sync.WaitGroup
	wg.Add(1)
	var uninstallErr error
	go func() {
		defer wg.Done()
		uninstallErr = f.apps.Uninstall(t.Context(), acct, f.app.ID, admin)
	}()
	answers := race(t, f, func() map[string][]string { return form })
	wg.Wait()
	require.NoError(t, uninstallErr, "the uninstall applies whatever the refreshes do")

	inst := f.storedInstall(t, storage.AccountPK(acct), f.app.ID)
	assert.Equal(t, marketplace.StatusUninstalled, inst.Status)
	assert.Empty(t, inst.Tokens)
	for _, item := range testenv.Items[map[string]any](t, f.env.Table) {
		pk := item["PK"].(string)
		_, revoked := item["revokedAt"]
		_, used := item["usedAt"]
		switch {
		case strings.HasPrefix(pk, "TOKEN#"):
			assert.True(t, revoked, "every access token is revoked")
		case strings.HasPrefix(pk, "OAUTHREFRESH#"):
			assert.True(t, revoked || used, "every refresh token is used or revoked")
		}
	}
	for _, a := range answers {
		if a.Status == http.StatusOK {
			assert.Equal(t, http.StatusUnauthorized, f.ping(t, a.str("access_token")), "a pair a refresh won before the uninstall is revoked with it")
		}
	}
	events := f.installEvents(t)
	assert.Len(t, events, 2, "one INSTALL, one UNINSTALL")
}
