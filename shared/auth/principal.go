package auth

import (
	"context"
	"slices"

	"github.com/bizplatform/api/shared/apierror"
)

// Token kinds.
const (
	KindPrivate     = "private"
	KindMarketplace = "marketplace"
)

// Principal is what an authenticated token may act as. Its facts never
// change over the token's life, so they may be cached.
type Principal struct {
	TokenID string
	// AccountID is the token's account; empty for a company token (an
	// agency install's token), which acts on no account's data.
	AccountID string
	CompanyID string
	Kind      string
	Scopes    []string
	// Install is the marketplace install of an app's token (see Info).
	Install string
}

// AdmissionID is whose limits the token's requests count against: its
// account, or its company for a company token ('#' is in no account id).
func (p *Principal) AdmissionID() string { return AdmissionID(p.AccountID, p.CompanyID) }

// AdmissionID is the admission id of a token of accountID ("" for a company
// token) in companyID.
func AdmissionID(accountID, companyID string) string {
	if accountID == "" {
		return "COMPANY#" + companyID
	}
	return accountID
}

// HasScope reports whether the token holds scope.
func (p *Principal) HasScope(scope string) bool { return slices.Contains(p.Scopes, scope) }

type principalKey struct{}

// WithPrincipal returns a context carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the request's principal. Handlers run only after
// authentication, so a missing principal is a wiring bug: it answers 401
// rather than letting a request through unauthenticated.
func PrincipalFrom(ctx context.Context) (*Principal, error) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	if !ok || p == nil {
		return nil, apierror.Unauthorized("Authentication is required")
	}
	return p, nil
}

// RequireAccount checks that the request's account (locationId, altId) is
// the token's: 403 with the public API's message otherwise.
func RequireAccount(ctx context.Context, accountID string) (*Principal, error) {
	p, err := PrincipalFrom(ctx)
	if err != nil {
		return nil, err
	}
	if p.AccountID == "" || accountID != p.AccountID {
		return nil, apierror.NoAccountAccess()
	}
	return p, nil
}

// RequireCompany checks that the request's companyId is the token's
// account's company.
func RequireCompany(ctx context.Context, companyID string) (*Principal, error) {
	p, err := PrincipalFrom(ctx)
	if err != nil {
		return nil, err
	}
	if companyID != p.CompanyID {
		return nil, apierror.Forbidden("The token does not have access to this company")
	}
	return p, nil
}
