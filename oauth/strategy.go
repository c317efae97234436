package oauth

import (
	"context"

	"github.com/ory/fosite"
	"github.com/ory/fosite/handler/oauth2"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/marketplace"
)

// strategy makes and checks the values fosite hands out, in the platform's
// token format (docs/design.md says why not fosite's HMAC values): access
// tokens are bpt_ tokens that the API's authenticator takes as they are,
// refresh tokens bpr_ and codes bpc_ values of the same shape. A value's
// signature, fosite's storage key, is its SHA-256: the form in which every
// token is stored. Ends are checked on the server's clock.
type strategy struct{ clock clock.Clock }

var _ oauth2.CoreStrategy = strategy{}

func signature(value string) string { return auth.HashToken(value) }

func generate(prefix string) (string, string, error) {
	v, err := auth.GenerateSecret(prefix)
	if err != nil {
		return "", "", err
	}
	return v, signature(v), nil
}

// validate checks a value's shape and checksum, and its end as the stored
// grant (hydrated into the request's session) gives it.
func (s strategy) validate(prefix, value string, r fosite.Requester, kind fosite.TokenType) error {
	if auth.CheckSecretFormat(prefix, value) != nil {
		return fosite.ErrInvalidTokenFormat
	}
	if end := r.GetSession().GetExpiresAt(kind); !end.IsZero() && !s.clock.Now().Before(end) {
		return fosite.ErrTokenExpired
	}
	return nil
}

func (strategy) AccessTokenSignature(_ context.Context, token string) string { return signature(token) }

func (strategy) GenerateAccessToken(context.Context, fosite.Requester) (string, string, error) {
	return generate(auth.Prefix)
}

func (s strategy) ValidateAccessToken(_ context.Context, r fosite.Requester, token string) error {
	return s.validate(auth.Prefix, token, r, fosite.AccessToken)
}

func (strategy) RefreshTokenSignature(_ context.Context, token string) string {
	return signature(token)
}

func (strategy) GenerateRefreshToken(context.Context, fosite.Requester) (string, string, error) {
	return generate(marketplace.RefreshPrefix)
}

func (s strategy) ValidateRefreshToken(_ context.Context, r fosite.Requester, token string) error {
	return s.validate(marketplace.RefreshPrefix, token, r, fosite.RefreshToken)
}

func (strategy) AuthorizeCodeSignature(_ context.Context, token string) string {
	return signature(token)
}

// GenerateAuthorizeCode is never called: codes are issued by the portal's
// consent page (marketplace.Apps.IssueCode).
func (strategy) GenerateAuthorizeCode(context.Context, fosite.Requester) (string, string, error) {
	return generate(marketplace.CodePrefix)
}

func (s strategy) ValidateAuthorizeCode(_ context.Context, r fosite.Requester, token string) error {
	return s.validate(marketplace.CodePrefix, token, r, fosite.AuthorizeCode)
}

// hasher compares client secrets with their stored SHA-256 (secrets are 190
// random bits: a slow hash adds nothing).
type hasher struct{}

func (hasher) Compare(_ context.Context, hash, secret []byte) error {
	if !marketplace.SecretMatches(string(hash), string(secret)) {
		return fosite.ErrNotFound
	}
	return nil
}

func (hasher) Hash(_ context.Context, secret []byte) ([]byte, error) {
	return []byte(signature(string(secret))), nil
}
