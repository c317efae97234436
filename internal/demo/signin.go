package demo

import (
	"context"

	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// The demo sign-in: an admin of the Alpha account (an account admin, not an
// agency admin) with a published password, so it exists only on local
// engines, like the demo tokens.
const (
	SignInUserID   = "demoUsrNorth00000007"
	SignInPassword = "alpha-demo-portal-2026"
)

// CreateSignIn sets the demo sign-in's password on a local engine and
// returns its e-mail address.
func CreateSignIn(ctx context.Context, ids *identity.Service, endpoint string) (string, error) {
	if !dynamo.IsLocalEndpoint(endpoint) {
		return "", ErrNotLocal
	}
	return ids.SetPasswordDirectly(ctx, CompanyNorth, SignInUserID, SignInPassword)
}
