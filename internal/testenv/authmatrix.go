package testenv

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/operations"
)

// The WWW-Authenticate challenges of a 401 (RFC 6750): without a token, and
// with one that is malformed, unknown or revoked.
const (
	bearerChallenge       = "Bearer"
	invalidTokenChallenge = `Bearer error="invalid_token"`
)

// AuthCheck describes an operation for CheckAuth.
type AuthCheck struct {
	Op operations.Operation
	// Account is the account the valid call acts on.
	Account string
	// Call sends a valid request of the operation with token, preparing
	// whatever record the call consumes (it may be called several times).
	Call func(t *testing.T, token string) *Response
	// OK is the status of a successful call.
	OK int
	// ForeignStatus is what a token of another account gets for the same
	// request: 403 when the request names the account (locationId, altId,
	// companyId), 404 when it names only a record.
	ForeignStatus int
	// ForeignCompany puts the other account in another company (for
	// operations that name a company).
	ForeignCompany bool
	// Kind is the token kind the operation needs (default private).
	Kind string
}

// CheckAuth runs the authentication and authorization matrix against one
// operation: no token, a malformed token, a bad checksum, an unknown token, a
// token revoked after a successful call, a token without the operation's
// scope, a token of the wrong kind, and a token of another account.
func (e *Env) CheckAuth(t *testing.T, c AuthCheck) {
	t.Helper()
	kind := c.Kind
	if kind == "" {
		kind = auth.KindPrivate
	}
	good, _ := e.TokenOfKind(t, c.Account, kind)
	unknown, err := auth.GenerateToken()
	require.NoError(t, err)
	badChecksum := good[:len(good)-1] + flip(good[len(good)-1:])

	t.Run("a valid token succeeds", func(t *testing.T) {
		resp := c.Call(t, good)
		require.Equal(t, c.OK, resp.Status, "body: %s", resp.Body)
		assert.NotEmpty(t, resp.Header.Get("X-RateLimit-Remaining"), "rate-limit headers on an authenticated answer")
	})
	for _, tc := range []struct{ name, token, challenge string }{
		{"no token gets 401 asking for one", "", bearerChallenge},
		{"a malformed token gets 401 calling it invalid", "not-a-token", invalidTokenChallenge},
		{"a token with a bad checksum gets 401 calling it invalid", badChecksum, invalidTokenChallenge},
		{"an unknown well-formed token gets 401 calling it invalid", unknown, invalidTokenChallenge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := c.Call(t, tc.token)
			resp.RequireError(t, http.StatusUnauthorized)
			assert.Equal(t, tc.challenge, resp.Header.Get("WWW-Authenticate"))
		})
	}
	t.Run("a token revoked after a successful call gets 401 on the next, calling it invalid", func(t *testing.T) {
		token, id := e.TokenOfKind(t, c.Account, kind)
		require.Equal(t, c.OK, c.Call(t, token).Status)
		_, err := e.Server.Tokens.Revoke(context.Background(), id)
		require.NoError(t, err)
		resp := c.Call(t, token)
		assert.Contains(t, resp.RequireError(t, http.StatusUnauthorized), "revoked")
		assert.Equal(t, invalidTokenChallenge, resp.Header.Get("WWW-Authenticate"))
	})
	t.Run("a token without the scope gets 403", func(t *testing.T) {
		other := "contacts.readonly"
		if c.Op.Scope == other {
			other = "campaigns.readonly"
		}
		token, _ := e.TokenOfKind(t, c.Account, kind, other)
		msg := c.Call(t, token).RequireError(t, http.StatusForbidden)
		assert.Contains(t, msg, c.Op.Scope)
	})
	if c.Op.MarketplaceOnly {
		t.Run("a private token gets 403", func(t *testing.T) {
			token, _ := e.TokenOfKind(t, c.Account, auth.KindPrivate)
			msg := c.Call(t, token).RequireError(t, http.StatusForbidden)
			assert.Contains(t, msg, "marketplace")
		})
	}
	t.Run("a token of another account is refused", func(t *testing.T) {
		foreign := "foreign" + randomHex(6)
		company := "foreignCo" + randomHex(4)
		if !c.ForeignCompany {
			if acct, err := accountsStore(e).Get(context.Background(), c.Account); err == nil && acct != nil {
				company = acct.CompanyID
			}
		}
		e.Account(t, foreign, company)
		token, _ := e.TokenOfKind(t, foreign, kind)
		msg := c.Call(t, token).RequireError(t, c.ForeignStatus)
		if c.ForeignStatus == http.StatusForbidden {
			assert.True(t, strings.Contains(msg, "does not have access"), "message: %s", msg)
		}
	})
}

func flip(s string) string {
	if s == "A" {
		return "B"
	}
	return "A"
}
