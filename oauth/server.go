// Package oauth is the OAuth 2.0 server of marketplace apps (OAuthFunction,
// and /oauth/* on the local server): the token endpoint, on fosite's
// authorization-code and refresh-token grants with its storage on the table
// (store.go), and the two company-token operations, /oauth/locationToken and
// /oauth/installedLocations. Answers carry the public platform's fields, so
// that its official SDK works against it unchanged. The consent page that
// issues codes is the portal's; docs/design.md ("Marketplace apps and
// OAuth") says how the parts fit.
package oauth

import (
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ory/fosite"
	"github.com/ory/fosite/handler/oauth2"
	"github.com/ory/fosite/handler/pkce"

	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/pipeline"
	"github.com/bizplatform/api/shared/ratelimit"
	"github.com/bizplatform/api/shared/wiring"
)

// Scopes of the company-token operations (the public platform's).
const (
	ScopeOAuthWrite    = "oauth.write"
	ScopeOAuthReadonly = "oauth.readonly"
)

// Function is the OAuth server's Function dimension (functions/oauth).
const Function = metrics.OAuthFunction

// Routes are the paths the server answers, as API Gateway routes them.
var Routes = []string{"POST /oauth/token", "POST /oauth/locationToken", "GET /oauth/installedLocations"}

// Server answers /oauth/*.
type Server struct {
	apps      *marketplace.Apps
	provider  fosite.OAuth2Provider
	auth      *auth.Authenticator
	limiter   *ratelimit.Limiter
	accounts  *accounts.Registry
	clock     clock.Clock
	logger    *slog.Logger
	metrics   *metrics.RequestLines
	accessTTL time.Duration
	handler   http.Handler
}

// New builds the server on the core's table and token store; accessTTL is
// an access token's life.
func New(core apiserver.Core, accessTTL time.Duration, requestTimeout time.Duration) *Server {
	deps := core.Deps
	apps := marketplace.New(core.Tokens, deps.Clock, false)
	st := &store{apps: apps, clock: deps.Clock, accessTTL: accessTTL}
	strat := strategy{clock: deps.Clock}
	cfg := &fosite.Config{
		AccessTokenLifespan:   accessTTL,
		RefreshTokenLifespan:  marketplace.RefreshLifetime,
		AuthorizeCodeLifespan: marketplace.CodeLifetime,
		ScopeStrategy:         fosite.ExactScopeStrategy,
		// Refresh tokens come with every grant, without an offline scope.
		RefreshTokenScopes:       []string{},
		AudienceMatchingStrategy: fosite.DefaultAudienceMatchingStrategy,
		ClientSecretsHasher:      hasher{},
	}
	cfg.TokenEndpointHandlers = fosite.TokenEndpointHandlers{
		&oauth2.AuthorizeExplicitGrantHandler{
			AccessTokenStrategy: strat, RefreshTokenStrategy: strat, AuthorizeCodeStrategy: strat,
			CoreStorage: st, TokenRevocationStorage: st, Config: cfg,
		},
		&oauth2.RefreshTokenGrantHandler{
			AccessTokenStrategy: strat, RefreshTokenStrategy: strat, TokenRevocationStorage: st, Config: cfg,
		},
		// The code's PKCE challenge (bound at consent) against the
		// request's code_verifier: S256 only, as cfg leaves plain off.
		&pkce.Handler{AuthorizeCodeStrategy: strat, Storage: st, Config: cfg},
	}
	s := &Server{
		apps: apps, provider: fosite.NewOAuth2Provider(st, cfg), auth: auth.NewAuthenticator(core.Tokens, deps.Clock),
		limiter: core.Limiter, accounts: accounts.NewRegistry(deps.Table, deps.Clock), clock: deps.Clock, logger: deps.Logger,
		accessTTL: accessTTL,
		metrics:   core.Meter.ServerLines(Function),
	}
	mux := http.NewServeMux()
	mux.Handle("POST /oauth/token", s.serve(s.token))
	mux.Handle("POST /oauth/locationToken", s.serve(s.bearer(ScopeOAuthWrite, s.locationToken)))
	mux.Handle("GET /oauth/installedLocations", s.serve(s.bearer(ScopeOAuthReadonly, s.installedLocations)))
	mux.Handle("/oauth/", s.serve(func(http.ResponseWriter, *http.Request) error {
		return apierror.NotFound("No OAuth endpoint at this path")
	}))
	s.handler = httpserve.WithDeadline(mux, requestTimeout)
	return s
}

// LambdaHandler is the server as OAuthFunction runs it.
func LambdaHandler(cfg config.Config, deps wiring.Deps) (http.Handler, error) {
	return New(apiserver.NewCore(cfg, deps), cfg.OAuthAccessTokenTTL, cfg.RequestTimeout), nil
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// serve runs h with what every answer gets: no caching, panic recovery, the
// error's answer, and one log line (route pattern, never the path, a form
// or a header: no secret, code or token reaches the log).
func (s *Server) serve(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		r, id := httpserve.IdentifyRequest(r)
		ctx, figures := metrics.Begin(r.Context())
		r = r.WithContext(ctx)
		sw := &httpserve.Writer{ResponseWriter: w}
		sw.Header().Set("Cache-Control", "no-store")
		sw.Header().Set("Pragma", "no-cache")
		sw.Header().Set("X-Request-Id", id)
		var err error
		if panicked := httpserve.Recover(r.Context(), s.logger, func() { err = h(sw, r) }); panicked != nil {
			err = panicked
		}
		var cause error
		if err != nil {
			cause = apierror.Write(sw, err)
		}
		end := time.Now()
		httpserve.Line{RequestID: id, Method: r.Method, Route: r.Pattern, Status: sw.Status(), Duration: end.Sub(start), Cause: cause,
			Metrics: s.metrics.Attrs(end, r.Pattern, sw.Status(), end.Sub(start), figures)}.
			Log(r.Context(), s.logger, "oauth request")
	})
}

// tokenAnswer is the token endpoint's answer: RFC 6749's fields and the
// public platform's.
type tokenAnswer struct {
	AccessToken       string   `json:"access_token"`
	TokenType         string   `json:"token_type"`
	ExpiresIn         int      `json:"expires_in"`
	RefreshToken      string   `json:"refresh_token,omitempty"`
	Scope             string   `json:"scope"`
	UserType          string   `json:"userType"`
	LocationID        string   `json:"locationId,omitempty"`
	CompanyID         string   `json:"companyId"`
	UserID            string   `json:"userId"`
	ApprovedLocations []string `json:"approvedLocations,omitempty"`
	IsBulkInstall     bool     `json:"isBulkInstallation,omitempty"`
}

// token is POST /oauth/token: the authorization-code and refresh-token
// grants, run by fosite.
func (s *Server) token(w http.ResponseWriter, r *http.Request) error {
	if _, err := pipeline.LimitBody(r); err != nil {
		return writeOAuthError(w, err)
	}
	if err := formBodyProblem(r); err != nil {
		return writeOAuthError(w, err)
	}
	if err := r.ParseForm(); err == nil {
		if g := r.PostForm.Get("grant_type"); g != "" && g != "authorization_code" && g != "refresh_token" {
			return writeOAuthError(w, fosite.ErrUnsupportedGrantType.WithHint("The server runs the authorization_code and refresh_token grants."))
		}
	}
	ctx, f := withFlow(r.Context())
	session := &fosite.DefaultSession{}
	ar, err := s.provider.NewAccessRequest(ctx, r, session)
	if err != nil {
		if f.refusal != "" {
			err = fosite.ErrInvalidGrant.WithHint(f.refusal)
		}
		return writeOAuthError(w, err)
	}
	if err := checkRefreshScope(ar, r.PostForm.Get("scope")); err != nil {
		return writeOAuthError(w, err)
	}
	granted, _ := session.Extra["userType"].(string)
	if want := r.PostForm.Get("user_type"); want != "" && want != granted {
		return writeOAuthError(w, fosite.ErrInvalidRequest.WithHintf("user_type is %s for this grant (the app installs for a %s).", granted, strings.ToLower(granted)))
	}
	resp, err := s.provider.NewAccessResponse(ctx, ar)
	if err != nil {
		return writeOAuthError(w, err)
	}
	inst := f.install
	if inst == nil {
		return errors.New("oauth: a grant committed without its install")
	}
	answer := tokenAnswer{
		AccessToken: resp.GetAccessToken(), TokenType: "Bearer", ExpiresIn: int(s.accessTTL / time.Second),
		Scope: strings.Join(ar.GetGrantedScopes(), " "), UserType: granted, CompanyID: inst.CompanyID, UserID: inst.UserID,
	}
	answer.RefreshToken, _ = resp.GetExtra("refresh_token").(string)
	if ar.GetGrantTypes().ExactOne("refresh_token") {
		metrics.RequestFrom(ctx).Count(metrics.OAuthRefreshes)
	} else {
		metrics.RequestFrom(ctx).Count(metrics.OAuthCodeExchanges)
	}
	if granted == marketplace.UserCompany {
		answer.ApprovedLocations, answer.IsBulkInstall = inst.Approved, true
	} else {
		answer.LocationID = inst.AccountID
	}
	return writeJSON(w, http.StatusOK, answer)
}

// formBodyProblem refuses a body that is not a form (RFC 6749 4.1.3 and
// 6): fosite would read no field of it and answer that the body is empty.
func formBodyProblem(r *http.Request) error {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch mediaType {
	case "application/x-www-form-urlencoded", "multipart/form-data":
		return nil
	case "":
		return fosite.ErrInvalidRequest.WithHint("The body must be application/x-www-form-urlencoded (RFC 6749 4.1.3); the request has no Content-Type.")
	}
	if len(mediaType) > 64 {
		mediaType = mediaType[:64] + "..."
	}
	return fosite.ErrInvalidRequest.WithHintf("The body must be application/x-www-form-urlencoded, not %s: send the fields as a form (grant_type=...&code=...), as RFC 6749 4.1.3 says.", mediaType)
}

// checkRefreshScope refuses a refresh whose scope parameter asks for a
// scope the grant does not hold (RFC 6749 6: invalid_scope). fosite's
// refresh handler ignores the parameter and grants the original scopes,
// which is what the answer's scope then says (a narrower request is
// answered with them too).
func checkRefreshScope(ar fosite.AccessRequester, scope string) error {
	if !ar.GetGrantTypes().ExactOne("refresh_token") {
		return nil
	}
	for _, s := range strings.Fields(scope) {
		if !slices.Contains(ar.GetGrantedScopes(), s) {
			return fosite.ErrInvalidScope.WithHintf("The refresh token's grant does not hold the scope %q: a refresh keeps the scopes the app was granted (%s).", s, strings.Join(ar.GetGrantedScopes(), " "))
		}
	}
	return nil
}

// oauthErrorBody is RFC 6749's error answer.
type oauthErrorBody struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// grantRefusals are the grant's own refusals found after its first read (a
// code or refresh token used by a concurrent request, seen by fosite's
// second read or by the transaction's condition; an install changed or
// gone): invalid_grant, as the grant handlers answer the same found on the
// first read.
var grantRefusals = []error{
	fosite.ErrInvalidatedAuthorizeCode, fosite.ErrInactiveToken, marketplace.ErrCodeUnknown, marketplace.ErrCodeUsed, marketplace.ErrRefreshUnknown, marketplace.ErrRefreshUsed,
	marketplace.ErrNotInstalled, marketplace.ErrInstallChanged, marketplace.ErrPKCERequired, marketplace.ErrApprovedBeforeUninstall,
}

// writeOAuthError answers an error of the token endpoint as RFC 6749 says:
// a storage outage is 503 (with the platform's JSON error), a body over the
// limit 413 (or one that could not be read 400) with invalid_request, the
// closest of RFC 6749's codes (clients of a token endpoint read its error
// shape whatever the status), anything else fosite's answer for it.
func writeOAuthError(w http.ResponseWriter, err error) error {
	if ae, ok := apierror.As(err); ok && (ae.Code == apierror.CodePayloadTooLarge || ae.Code == apierror.CodeBadRequest) {
		return writeJSON(w, apierror.Status(err, http.StatusBadRequest), oauthErrorBody{Error: fosite.ErrInvalidRequest.ErrorField, Description: ae.Message})
	}
	for _, refusal := range grantRefusals {
		if errors.Is(err, refusal) {
			err = fosite.ErrInvalidGrant.WithHint(refusal.Error())
		}
	}
	if apierror.Status(err, 0) == http.StatusServiceUnavailable {
		return err
	}
	rfc := fosite.ErrorToRFC6749Error(err)
	if rfc.CodeField >= 500 {
		// The debug text names the failure (never a value: fosite's and
		// marketplace's errors carry none), for the log line.
		return apierror.Internal(fmt.Errorf("%s: %s", rfc.ErrorField, rfc.DebugField))
	}
	if rfc.CodeField == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="oauth"`)
	}
	return writeJSON(w, rfc.CodeField, oauthErrorBody{Error: rfc.ErrorField, Description: rfc.GetDescription()})
}

func writeJSON(w http.ResponseWriter, status int, v any) error { return httpio.WriteJSON(w, status, v) }

// paging reads skip (default 0) and limit (default 20, at most 100).
func paging(skipText, limitText string) (int, int, error) {
	skip, limit := 0, 20
	var err error
	if skipText != "" {
		if skip, err = strconv.Atoi(skipText); err != nil || skip < 0 {
			return 0, 0, apierror.BadRequest("skip must be a whole number from 0")
		}
	}
	if limitText != "" {
		if limit, err = strconv.Atoi(limitText); err != nil || limit < 1 || limit > 100 {
			return 0, 0, apierror.BadRequest("limit must be a whole number from 1 to 100")
		}
	}
	return skip, limit, nil
}

// bearer runs h for a company token holding scope, admitted by the rate
// limiter as every API request is (docs/design.md, the request pipeline,
// steps 7 and 8, run here in turn).
func (s *Server) bearer(scope string, h func(http.ResponseWriter, *http.Request, *auth.Principal) error) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		// The body first, as the API's pipeline reads it (step 4): an
		// oversized one is refused before the token costs a read.
		if _, err := pipeline.LimitBody(r); err != nil {
			return err
		}
		ctx := r.Context()
		session, err := s.auth.Authenticate(ctx, r.Header.Get("Authorization"))
		if err != nil {
			return err
		}
		p := session.Principal
		decision, err := s.limiter.Admit(ctx, p.AdmissionID(), p.TokenID)
		if err != nil {
			return err
		}
		if decision.Revoked {
			session.Revoked()
			return apierror.InvalidToken("Invalid token: the token has been revoked")
		}
		decision.SetHeaders(w.Header())
		if !decision.Allowed {
			return decision.Err()
		}
		if err := session.Confirm(ctx, decision.StateBornAtUnix); err != nil {
			return err
		}
		if p.AccountID != "" || p.Install == "" {
			return apierror.Forbidden("This operation takes a marketplace app's company token (user_type Company)")
		}
		if !p.HasScope(scope) {
			return apierror.Forbidden("The token is not authorized for this scope: " + scope)
		}
		return h(w, r, p)
	}
}

// locationAnswer is /oauth/locationToken's answer (the public platform's).
type locationAnswer struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
	Scope       string `json:"scope"`
	LocationID  string `json:"locationId"`
	UserID      string `json:"userId"`
	UserType    string `json:"userType"`
	CompanyID   string `json:"companyId"`
	AppID       string `json:"appId"`
	VersionID   string `json:"versionId"`
}

// locationToken is POST /oauth/locationToken: an account's token from the
// company install's.
func (s *Server) locationToken(w http.ResponseWriter, r *http.Request, p *auth.Principal) error {
	if err := r.ParseForm(); err != nil {
		return apierror.BadRequest("The body must be application/x-www-form-urlencoded")
	}
	companyID, locationID := r.PostForm.Get("companyId"), r.PostForm.Get("locationId")
	if companyID == "" || locationID == "" {
		return apierror.BadRequest("companyId and locationId are required")
	}
	if companyID != p.CompanyID {
		return apierror.Forbidden("The token does not have access to this company")
	}
	value, inst, err := s.apps.LocationToken(r.Context(), p.Install, locationID, s.clock.Now().Add(s.accessTTL))
	if errors.Is(err, marketplace.ErrNotInstalled) {
		return apierror.BadRequest("The app is not installed in location %s", locationID)
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, locationAnswer{
		AccessToken: value, TokenType: "Bearer", ExpiresIn: int(s.accessTTL / time.Second), Scope: strings.Join(inst.Scopes, " "),
		LocationID: locationID, UserID: inst.UserID, UserType: marketplace.UserLocation, CompanyID: inst.CompanyID, AppID: inst.AppID, VersionID: inst.AppID,
	})
}

// installedLocation is one account of /oauth/installedLocations.
type installedLocation struct {
	ID          string `json:"_id"`
	Name        string `json:"name"`
	Address     string `json:"address"`
	IsInstalled bool   `json:"isInstalled"`
}

type installedAnswer struct {
	Locations               []installedLocation `json:"locations"`
	Count                   int                 `json:"count"`
	InstallToFutureLocation bool                `json:"installToFutureLocations"`
}

// installedLocations is GET /oauth/installedLocations: the company's
// accounts, and whether the app is installed in each.
func (s *Server) installedLocations(w http.ResponseWriter, r *http.Request, p *auth.Principal) error {
	q := r.URL.Query()
	companyID, appID := q.Get("companyId"), q.Get("appId")
	if companyID == "" || appID == "" {
		return apierror.BadRequest("companyId and appId are required")
	}
	if companyID != p.CompanyID {
		return apierror.Forbidden("The token does not have access to this company")
	}
	skip, limit, err := paging(q.Get("skip"), q.Get("limit"))
	if err != nil {
		return err
	}
	inst, err := s.apps.CompanyInstall(r.Context(), companyID, appID)
	if err != nil {
		return err
	}
	if inst == nil || inst.Ref() != p.Install {
		return apierror.Forbidden("The token is not the app's")
	}
	all, err := s.accounts.OfCompany(r.Context(), companyID)
	if err != nil {
		return err
	}
	var matches []installedLocation
	query := strings.ToLower(strings.TrimSpace(q.Get("query")))
	for _, a := range all {
		installed := inst.Installed() && slices.Contains(inst.Approved, a.ID)
		if query != "" && !strings.Contains(strings.ToLower(a.Name), query) && a.ID != q.Get("query") {
			continue
		}
		if v := q.Get("isInstalled"); v != "" && (v == "true") != installed {
			continue
		}
		matches = append(matches, installedLocation{ID: a.ID, Name: a.Name, IsInstalled: installed})
	}
	answer := installedAnswer{Locations: []installedLocation{}, Count: len(matches)}
	if skip < len(matches) {
		answer.Locations = matches[skip:min(len(matches), skip+limit)]
	}
	return writeJSON(w, http.StatusOK, answer)
}
