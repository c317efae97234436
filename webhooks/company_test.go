package webhooks_test

import (
	"context"
	"crypto/ed25519"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage"
)

var userCreate = events.Type{Name: "UserCreate", Scope: "users.readonly", Version: 1, Fields: map[string]string{}}

// companyApp registers an app of target company subscribed to UserCreate
// (asking for users.readonly besides granted), installed for coHook with
// the scopes granted when installed, and returns its verifier.
func (f *fixture) companyApp(t *testing.T, name string, granted []string, installed bool) *verifier {
	ctx := context.Background()
	v := &verifier{key: f.key.Public().(ed25519.PublicKey)}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	a, _, err := f.apps.Create(ctx, marketplace.NewApp{CompanyID: "coHook", Name: name, RedirectURIs: []string{"https://c.example.com/cb"},
		Scopes: append([]string{"users.readonly"}, granted...), WebhookURL: srv.URL + "/hooks", Events: []string{"UserCreate"}, Target: marketplace.TargetCompany})
	require.NoError(t, err)
	if !installed {
		return v
	}
	f.grant(t, marketplace.Consent{App: a, RedirectURI: a.RedirectURIs[0], Scopes: granted, CompanyID: "coHook", Approved: []string{"acctHook"}, UserID: "usr1"})
	return v
}

func TestACompanysUserCreateReachesTheCompanyInstallsThatChoseItAndMayReadIt(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	reader := f.companyApp(t, "Directory", []string{"users.readonly"}, true)
	blind := f.companyApp(t, "Blind", []string{"contacts.readonly"}, true)
	absent := f.companyApp(t, "Absent", []string{"users.readonly"}, false)
	// An account endpoint and an app installed in one of its accounts do
	// not get the company's event.
	local, _, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	// An app installed per account cannot choose UserCreate any more; one
	// stored before that check could.
	require.NoError(t, f.env.Table.Update(ctx, storage.Key{PK: "APP#" + f.app.ID, SK: "APP"},
		expression.Set(expression.Name("events"), expression.Value([]string{"UserCreate"})), storage.ItemExists()))
	f.install(t, f.app, []string{"contacts.readonly", "users.readonly"})

	write := func(company, id string) {
		tx := f.env.Table.Tx()
		userCreate.Add(tx, events.Owner{CompanyID: company}, map[string]string{"id": id}, f.env.Clock.Now())
		require.NoError(t, tx.Commit(ctx))
	}
	write("coHook", "u1")
	write("coElsewhere", "u2")
	for range 2 {
		_, err := f.deliverer().Sweep(ctx)
		require.NoError(t, err)
	}

	var got []map[string]any
	for _, ev := range reader.events() {
		if ev["type"] == "UserCreate" {
			got = append(got, ev)
		}
	}
	require.Len(t, got, 1, "its company's user, once, signed")
	assert.Equal(t, "coHook", got[0]["companyId"])
	assert.Equal(t, "u1", got[0]["id"])
	assert.NotEmpty(t, got[0]["appId"], "naming the app, as the SDK needs")
	for _, v := range []*verifier{blind, absent, local} {
		for _, ev := range v.events() {
			assert.NotEqual(t, "UserCreate", ev["type"], "not to an install without users scopes, an app not installed, or an endpoint")
		}
	}
	for _, body := range f.rc.bodies {
		assert.NotContains(t, string(body), "UserCreate", "nor to an app installed in one of the company's accounts")
	}
}
