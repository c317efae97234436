package demo

import (
	"context"
	"errors"
	"fmt"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/scopes"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// Demo account and company ids, documented in docs/api.md.
const (
	AccountAlpha   = "demoLocAlpha00000001"
	AccountBravo   = "demoLocBravo00000002"
	AccountCharlie = "demoLocCharlie000003"
	CompanyNorth   = "demoCompanyNorthwind"
	CompanySouth   = "demoCompanySouthwind"
)

// Token is a demo token with a fixed, documented value. Anyone can read these
// values, so they exist only in local engines: CreateTokens refuses others.
type Token struct {
	Label   string
	ID      string
	Body    string // the 32 random characters; the value adds prefix and checksum
	Account string
	Kind    string
	// Scopes: nil means every scope of the vocabulary.
	Scopes []string
}

// Value is the token's full value.
func (t Token) Value() string {
	v, err := auth.TokenFromBody(t.Body)
	if err != nil {
		panic(fmt.Sprintf("demo token %s: %v", t.ID, err)) // a constant that does not fit is a programming error
	}
	return v
}

// Tokens are the demo tokens.
var Tokens = []Token{
	{Label: "every scope, private (Alpha)", ID: "tok_demo_all", Body: "DemoAllScopesAlphaLocal000000001", Account: AccountAlpha, Kind: auth.KindPrivate},
	{Label: "every scope, marketplace (Alpha)", ID: "tok_demo_marketplace", Body: "DemoMarketplaceAlphaLocal0000002", Account: AccountAlpha, Kind: auth.KindMarketplace},
	{Label: "contacts.readonly only (Alpha)", ID: "tok_demo_readonly", Body: "DemoReadOnlyAlphaLocal0000000003", Account: AccountAlpha, Kind: auth.KindPrivate, Scopes: []string{"contacts.readonly"}},
	{Label: "every scope, private (Charlie, another company)", ID: "tok_demo_charlie", Body: "DemoAllScopesCharlieLocal0000004", Account: AccountCharlie, Kind: auth.KindPrivate},
}

// ErrNotLocal is returned when demo tokens would be created on a shared or
// real AWS table.
var ErrNotLocal = errors.New("demo tokens have published values and are created only on a local engine (DYNAMODB_ENDPOINT on this machine)")

// CreateTokens creates the demo tokens on a local engine. A token that
// exists already is left as it is.
func CreateTokens(ctx context.Context, tokens *auth.Tokens, endpoint string) ([]Token, error) {
	if !dynamo.IsLocalEndpoint(endpoint) {
		return nil, ErrNotLocal
	}
	var created []Token
	for _, t := range Tokens {
		sc := t.Scopes
		if sc == nil {
			sc = scopes.All()
		}
		_, err := tokens.CreateWithValue(ctx, t.Value(), t.ID, auth.NewToken{AccountID: t.Account, Kind: t.Kind, Scopes: sc, Name: "demo: " + t.Label})
		if errors.Is(err, auth.ErrTokenExists) {
			continue
		}
		if err != nil {
			return created, fmt.Errorf("demo token %s: %w", t.ID, err)
		}
		created = append(created, t)
	}
	return created, nil
}
