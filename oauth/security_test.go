package oauth_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage"
)

// otherCompany and its account: an agency admin of both companies could
// approve accounts of each on one consent.
const (
	otherCompany = "coOther"
	otherAcct    = "acctOther1"
)

func TestACodeForAccountsOfTwoCompaniesIsNeverIssued(t *testing.T) {
	f := newFixture(t, marketplace.TargetCompany, "contacts.readonly", "oauth.write", "oauth.readonly")
	f.env.Account(t, otherAcct, otherCompany)
	// The attack as found: A2 of CoA and B1 of CoB, the company the last
	// ticked account's.
	_, err := f.apps.IssueCode(context.Background(), marketplace.Consent{
		App: f.app, RedirectURI: redirect, Scopes: f.app.Scopes, CompanyID: otherCompany, Approved: []string{acct2, otherAcct}, UserID: admin.ID, By: admin,
	})
	require.ErrorIs(t, err, marketplace.ErrAccountsOfTwoCompanies)
	events, err := f.apps.Events(context.Background(), f.app.ID)
	require.NoError(t, err)
	assert.Empty(t, events, "no INSTALL names another company")
}

func TestALocationTokenIsRefusedForAnAccountOutsideTheInstallsCompany(t *testing.T) {
	f := newFixture(t, marketplace.TargetCompany, "contacts.readonly", "oauth.write", "oauth.readonly")
	f.env.Account(t, otherAcct, otherCompany)
	code, err := f.apps.IssueCode(context.Background(), marketplace.Consent{
		App: f.app, RedirectURI: redirect, Scopes: f.app.Scopes, CompanyID: otherCompany, Approved: []string{otherAcct}, UserID: admin.ID, By: admin,
	})
	require.NoError(t, err)
	a := f.post(t, "/oauth/token", f.exchangeForm(code, marketplace.UserCompany), "")
	require.Equal(t, http.StatusOK, a.Status, a.Body)
	companyToken := a.str("access_token")

	// An install that spans two companies, as the hole wrote them before
	// consent refused the mix: such items may be on the table.
	ctx := context.Background()
	key := storage.Key{PK: storage.CompanyPK(otherCompany), SK: "INSTALL#" + f.app.ID}
	spanning := append(f.storedInstall(t, key.PK, f.app.ID).Approved, acct2)
	require.NoError(t, f.env.Table.Update(ctx, key, expression.Set(expression.Name("approved"), expression.Value(spanning)), nil))

	loc := f.post(t, "/oauth/locationToken", url.Values{"companyId": {otherCompany}, "locationId": {acct2}}, companyToken)
	assert.Equal(t, http.StatusBadRequest, loc.Status, loc.Body)
	assert.Empty(t, loc.str("access_token"))
	own := f.post(t, "/oauth/locationToken", url.Values{"companyId": {otherCompany}, "locationId": {otherAcct}}, companyToken)
	assert.Equal(t, http.StatusOK, own.Status, "the install's own company's account still gets its token")
}
