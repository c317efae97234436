package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/ory/fosite"
	"github.com/ory/fosite/handler/oauth2"
	"github.com/ory/fosite/handler/pkce"
	fositestorage "github.com/ory/fosite/storage"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/metrics"
)

// store puts fosite's storage interfaces on the table, through package
// marketplace. fosite makes a flow's writes one by one between BeginTX and
// Commit (storage.Transactional): the store gathers them into one
// marketplace.Grant and Commit writes it as one DynamoDB transaction, so a
// code is used, or a refresh token rotated, together with its new tokens,
// the install and its events, or not at all.
type store struct {
	apps      *marketplace.Apps
	clock     clock.Clock
	accessTTL time.Duration
}

var (
	_ fosite.ClientManager            = (*store)(nil)
	_ oauth2.CoreStorage              = (*store)(nil)
	_ oauth2.TokenRevocationStorage   = (*store)(nil)
	_ fositestorage.Transactional     = (*store)(nil)
	_ pkce.PKCERequestStorage         = (*store)(nil)
	_ fosite.ClientWithSecretRotation = (*client)(nil)
)

// flow is one token request's state in its context: the grant being
// gathered (from BeginTX) and the install Commit wrote.
type flow struct {
	grant   *marketplace.Grant
	install *marketplace.Install
	// refusal says why the presented refresh token is refused when fosite's
	// own words would mislead (an uninstall revoked it).
	refusal string
}

type flowKey struct{}

// withFlow returns a context carrying a new flow for one token request.
func withFlow(ctx context.Context) (context.Context, *flow) {
	f := &flow{}
	return context.WithValue(ctx, flowKey{}, f), f
}

func flowOf(ctx context.Context) *flow {
	f, _ := ctx.Value(flowKey{}).(*flow)
	return f
}

// errNoFlow: a write outside BeginTX and Commit, which fosite never makes
// for the grants the server runs.
var errNoFlow = errors.New("oauth: a grant write outside a transaction")

func (s *store) BeginTX(ctx context.Context) (context.Context, error) {
	f := flowOf(ctx)
	if f == nil {
		return ctx, errNoFlow
	}
	f.grant = s.apps.NewGrant()
	return ctx, nil
}

func (s *store) Commit(ctx context.Context) error {
	f := flowOf(ctx)
	if f == nil || f.grant == nil {
		return errNoFlow
	}
	inst, err := f.grant.Commit(ctx)
	if err != nil {
		return err
	}
	f.install = inst
	return nil
}

func (s *store) Rollback(ctx context.Context) error {
	if f := flowOf(ctx); f != nil {
		f.grant = nil // nothing was written
	}
	return nil
}

func (s *store) grant(ctx context.Context) (*marketplace.Grant, error) {
	f := flowOf(ctx)
	if f == nil || f.grant == nil {
		return nil, errNoFlow
	}
	return f.grant, nil
}

// client is an app as fosite sees it: a confidential client of the
// authorization-code and refresh-token grants.
type client struct {
	app      marketplace.App
	hash     string
	previous []string
}

func (c *client) GetID() string             { return c.app.ClientID }
func (c *client) GetHashedSecret() []byte   { return []byte(c.hash) }
func (c *client) GetRedirectURIs() []string { return c.app.RedirectURIs }
func (c *client) GetGrantTypes() fosite.Arguments {
	return fosite.Arguments{"authorization_code", "refresh_token"}
}
func (c *client) GetResponseTypes() fosite.Arguments { return fosite.Arguments{"code"} }
func (c *client) GetScopes() fosite.Arguments        { return c.app.Scopes }
func (c *client) IsPublic() bool                     { return false }
func (c *client) GetAudience() fosite.Arguments      { return nil }

// GetRotatedHashes is the previous secret during its grace.
func (c *client) GetRotatedHashes() [][]byte {
	out := make([][]byte, len(c.previous))
	for i, h := range c.previous {
		out[i] = []byte(h)
	}
	return out
}

func (s *store) GetClient(ctx context.Context, id string) (fosite.Client, error) {
	app, hash, previous, err := s.apps.ClientSecrets(ctx, id)
	if errors.Is(err, marketplace.ErrNoApp) {
		return nil, fosite.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return &client{app: app, hash: hash, previous: previous}, nil
}

// ClientAssertionJWTValid and SetClientAssertionJWT serve JWT client
// assertions, which no client of ours uses (fosite asks only for OpenID
// Connect clients).
func (s *store) ClientAssertionJWTValid(context.Context, string) error { return nil }
func (s *store) SetClientAssertionJWT(context.Context, string, time.Time) error {
	return nil
}

// request rebuilds the grant as fosite's request: its id is the install's
// grant ref, so that a revocation "of the request" is one of the install.
func (s *store) request(ctx context.Context, ref, appID string, scopes []string, session fosite.Session) (*fosite.Request, error) {
	app, err := s.apps.Get(ctx, appID)
	if errors.Is(err, marketplace.ErrNoApp) {
		return nil, fosite.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	r := fosite.NewRequest()
	r.ID = ref
	r.Client = &client{app: app}
	r.RequestedScope = scopes
	r.GrantedScope = scopes
	r.Session = session
	return r, nil
}

// CreateAuthorizeCodeSession is never called: the portal issues codes.
func (s *store) CreateAuthorizeCodeSession(context.Context, string, fosite.Requester) error {
	return errors.New("oauth: codes are issued by the consent page")
}

func (s *store) GetAuthorizeCodeSession(ctx context.Context, signature string, session fosite.Session) (fosite.Requester, error) {
	code, err := s.apps.CodeByHash(ctx, signature)
	if err != nil {
		return nil, err
	}
	if code == nil {
		return nil, fosite.ErrNotFound
	}
	setGrantFacts(session, code.UserType, clock.Parse(code.EndsAt), fosite.AuthorizeCode)
	r, err := s.request(ctx, code.Ref(), code.AppID, code.Scopes, session)
	if err != nil {
		return nil, err
	}
	r.Form = url.Values{"redirect_uri": {code.RedirectURI}}
	if code.UsedAt != "" {
		return r, fosite.ErrInvalidatedAuthorizeCode
	}
	return r, nil
}

// GetPKCERequestSession is the PKCE challenge bound to the code: fosite's
// handler checks the request's code_verifier against it. A code without
// one is ErrNotFound (then a verifier sent is refused), or, of an app that
// requires PKCE, ErrPKCERequired (a code issued before the app required it).
func (s *store) GetPKCERequestSession(ctx context.Context, signature string, session fosite.Session) (fosite.Requester, error) {
	code, err := s.apps.CodeByHash(ctx, signature)
	if err != nil {
		return nil, err
	}
	if code == nil {
		return nil, fosite.ErrNotFound
	}
	r, err := s.request(ctx, code.Ref(), code.AppID, code.Scopes, session)
	if err != nil {
		return nil, err
	}
	if code.CodeChallenge == "" {
		if r.Client.(*client).app.RequirePKCE {
			return nil, marketplace.ErrPKCERequired
		}
		return nil, fosite.ErrNotFound
	}
	r.Form = url.Values{"code_challenge": {code.CodeChallenge}, "code_challenge_method": {code.CodeChallengeMethod}}
	return r, nil
}

// CreatePKCERequestSession is never called: the portal binds the challenge
// to the code it issues.
func (s *store) CreatePKCERequestSession(context.Context, string, fosite.Requester) error {
	return errors.New("oauth: codes are issued by the consent page")
}

// DeletePKCERequestSession: the challenge goes with its code, used once.
func (s *store) DeletePKCERequestSession(context.Context, string) error { return nil }

func (s *store) InvalidateAuthorizeCodeSession(ctx context.Context, signature string) error {
	g, err := s.grant(ctx)
	if err != nil {
		return err
	}
	g.UseCode(signature)
	return nil
}

// CreateAccessTokenSession issues the access token, ending accessTTL from
// now on the server's clock.
func (s *store) CreateAccessTokenSession(ctx context.Context, signature string, _ fosite.Requester) error {
	g, err := s.grant(ctx)
	if err != nil {
		return err
	}
	g.IssueAccess(signature, s.clock.Now().Add(s.accessTTL))
	return nil
}

// GetAccessTokenSession serves token introspection, which the server does
// not offer: access tokens are checked by the API's authenticator.
func (s *store) GetAccessTokenSession(context.Context, string, fosite.Session) (fosite.Requester, error) {
	return nil, fosite.ErrNotFound
}

// DeleteAccessTokenSession: access tokens end through their install
// (revocations, the refresh that replaces them) or their end.
func (s *store) DeleteAccessTokenSession(context.Context, string) error { return nil }

func (s *store) CreateRefreshTokenSession(ctx context.Context, signature, _ string, _ fosite.Requester) error {
	g, err := s.grant(ctx)
	if err != nil {
		return err
	}
	g.IssueRefresh(signature)
	return nil
}

// GetRefreshTokenSession hydrates a refresh token's grant. A used one is
// fosite.ErrInactiveToken (with the request): fosite's reuse detection then
// revokes the install's tokens. A revoked one (its install uninstalled, or
// revoked for reuse) is simply unknown.
func (s *store) GetRefreshTokenSession(ctx context.Context, signature string, session fosite.Session) (fosite.Requester, error) {
	rt, err := s.apps.RefreshByHash(ctx, signature)
	if err != nil {
		return nil, err
	}
	if rt == nil {
		return nil, fosite.ErrNotFound
	}
	if rt.RevokedAt != "" {
		if err := s.explainRevoked(ctx, rt); err != nil {
			return nil, err
		}
		return nil, fosite.ErrNotFound
	}
	setGrantFacts(session, rt.UserType, clock.Parse(rt.EndsAt), fosite.RefreshToken)
	r, err := s.request(ctx, rt.Ref, rt.AppID, rt.Scopes, session)
	if err != nil {
		return nil, err
	}
	if rt.UsedAt != "" {
		return r, fosite.ErrInactiveToken
	}
	return r, nil
}

// explainRevoked records in the flow, for a refresh token an uninstall
// revoked, that the app was uninstalled and from where.
func (s *store) explainRevoked(ctx context.Context, rt *marketplace.Refresh) error {
	f := flowOf(ctx)
	inst, err := s.apps.InstallByRef(ctx, rt.Ref)
	if err != nil || f == nil || inst == nil || inst.Installed() || inst.UninstalledAt == "" {
		return err
	}
	where := "account " + inst.AccountID
	if inst.AccountID == "" {
		where = "company " + inst.CompanyID
	}
	f.refusal = fmt.Sprintf("The app was uninstalled from %s at %s, which revoked its tokens: it must be installed again (a new consent and code exchange).",
		where, clock.Parse(inst.UninstalledAt).Format(time.RFC3339))
	return nil
}

// DeleteRefreshTokenSession: a used refresh token stays, marked used, so
// that its reuse is recognised again.
func (s *store) DeleteRefreshTokenSession(context.Context, string) error { return nil }

func (s *store) RotateRefreshToken(ctx context.Context, _ string, signature string) error {
	g, err := s.grant(ctx)
	if err != nil {
		return err
	}
	g.UseRefresh(signature)
	return nil
}

// RevokeRefreshToken revokes every token of the install the request id
// names: fosite calls it when a used refresh token comes back (inside a
// transaction) or an authorization code is used twice (outside one). A
// refresh token's reuse is counted here, once: fosite then calls
// RevokeAccessToken too.
func (s *store) RevokeRefreshToken(ctx context.Context, requestID string) error {
	if reusedRefresh(ctx) {
		metrics.RequestFrom(ctx).Count(metrics.OAuthRefreshReuse)
	}
	return s.revokeAll(ctx, requestID)
}

// RevokeAccessToken is RevokeRefreshToken's: the install's tokens go
// together (a second call finds none left).
func (s *store) RevokeAccessToken(ctx context.Context, requestID string) error {
	return s.revokeAll(ctx, requestID)
}

func (s *store) revokeAll(ctx context.Context, requestID string) error {
	why := "an authorization code was used twice"
	if reusedRefresh(ctx) {
		why = "a used refresh token was presented again"
	}
	return s.apps.RevokeAll(ctx, requestID, why)
}

// reusedRefresh reports whether the revocation is for a refresh token's
// reuse (a refresh grant's flow), not a code's.
func reusedRefresh(ctx context.Context) bool {
	f := flowOf(ctx)
	return f != nil && f.grant != nil
}

// setGrantFacts records in the session what the response needs of the
// grant: its user type and the end of the presented code or token.
func setGrantFacts(session fosite.Session, userType string, end time.Time, kind fosite.TokenType) {
	session.SetExpiresAt(kind, end)
	if ds, ok := session.(*fosite.DefaultSession); ok {
		if ds.Extra == nil {
			ds.Extra = map[string]interface{}{}
		}
		ds.Extra["userType"] = userType
	}
}
