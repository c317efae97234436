// Package portal is the web application where an account's admins manage
// the account's API tokens: sign in, list the tokens, generate one (its
// value shown once), rotate and revoke them, read the audit list; and the
// account's own webhook endpoints with their deliveries (webhooks.go). It serves
// server-rendered HTML under /portal, works without JavaScript, and has its
// own request handling (sessions, CSRF checks, throttling, security headers,
// error pages): the API's pipeline (Version header, bearer tokens, rate
// limit) does not apply to it. What every server does with a request (the
// status writer, panic recovery, log line, deadline) is package httpserve's,
// as in the pipeline. Identities and sessions are in package identity.
package portal

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/portal/userdir"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/failures"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/secrets/kmskey"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

// Base is the path every page lives under.
const Base = "/portal"

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed assets
var assetFiles embed.FS

// Options change how the portal serves.
type Options struct {
	// SecureCookies marks cookies Secure and takes the site's scheme as
	// https whatever the request says: always true behind API Gateway.
	// Without it, cookies are Secure when the request came over TLS.
	SecureCookies bool
	// RequestTimeout bounds each request's storage work (0: none).
	RequestTimeout time.Duration
	// LocalURLs lets webhook endpoints be http URLs on the loopback host:
	// on a local engine only (NewFromConfig sets it from the endpoint).
	LocalURLs bool
	// Schedule is the deliveries' retries the pages tell, and the failing
	// limit of the endpoints (zero: deliveries.Default; NewFromConfig
	// sets a local engine's WEBHOOK_RETRY_FOR).
	Schedule deliveries.Schedule
}

// Portal serves the pages.
type Portal struct {
	ids    *identity.Service
	tokens *auth.Tokens
	apps   *marketplace.Apps
	// failures are the accounts' failed API requests, which the API's
	// pipeline records.
	failures *failures.Store
	// endpoints are the accounts' own webhook endpoints.
	endpoints *endpoints.Store
	// schedule is the deliveries' retries (Options.Schedule).
	schedule deliveries.Schedule
	// table is where the webhook signing key is published.
	table *storage.Table
	// receiverCode is the receiver's code the Webhooks page shows.
	receiverCode receiverCode
	clock        clock.Clock
	logger       *slog.Logger
	metrics      *metrics.RequestLines
	opts         Options
	pages        map[string]*template.Template
	assets       fs.FS
	handler      http.Handler
}

// Function is the portal's Function dimension (functions/portal).
const Function = metrics.PortalFunction

// New returns the portal on core's table. core.Tokens is the token store
// the API's admission state is told about revocations through (the API
// server's, where the two share a process).
func New(core apiserver.Core, opts Options) (*Portal, error) {
	if opts.Schedule == (deliveries.Schedule{}) {
		opts.Schedule = deliveries.Default
	}
	pages, err := parsePages(opts.Schedule)
	if err != nil {
		return nil, err
	}
	assets, err := fs.Sub(assetFiles, "assets")
	if err != nil {
		return nil, err
	}
	code, err := loadReceiverCode()
	if err != nil {
		return nil, err
	}
	deps := core.Deps
	p := &Portal{table: deps.Table, receiverCode: code, ids: identity.New(deps.Table, deps.Clock, userdir.New(deps.Table)), tokens: core.Tokens, apps: marketplace.New(core.Tokens, deps.Clock, false),
		failures:  failures.New(deps.Table, deps.Clock),
		endpoints: endpoints.New(deps.Table, deps.Clock, opts.LocalURLs).Sealing(deps.Secrets).OnSchedule(opts.Schedule), schedule: opts.Schedule,
		clock: deps.Clock, logger: deps.Logger, opts: opts, pages: pages, assets: assets,
		metrics: core.Meter.ServerLines(Function)}
	p.handler = httpserve.WithDeadline(p.routes(), opts.RequestTimeout)
	return p, nil
}

// NewFromConfig builds the portal on a core of its own, as its Lambda
// function does.
func NewFromConfig(cfg config.Config, deps wiring.Deps, opts Options) (*Portal, error) {
	if opts.RequestTimeout == 0 {
		opts.RequestTimeout = cfg.RequestTimeout
	}
	opts.LocalURLs = opts.LocalURLs || dynamo.IsLocalEndpoint(cfg.Endpoint)
	schedule, err := deliveries.ScheduleFor(cfg.WebhookRetryFor, dynamo.IsLocalEndpoint(cfg.Endpoint))
	if err != nil {
		return nil, err
	}
	opts.Schedule = schedule
	return New(apiserver.NewCore(cfg, deps), opts)
}

// Identities is the portal's identity service (for the admin CLI's
// invites and the local demo sign-in).
func (p *Portal) Identities() *identity.Service { return p.ids }

// ServeHTTP serves every page under Base.
func (p *Portal) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.handler.ServeHTTP(w, r) }

// handlerFunc is a page handler: it writes its page, or returns an error
// that serveError turns into one.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

func (p *Portal) routes() http.Handler {
	mux := http.NewServeMux()
	handle := func(pattern string, h handlerFunc) { mux.Handle(pattern, p.serve(h)) }
	handle("GET "+Base, p.home)
	handle("GET "+Base+"/{$}", p.home)
	handle("GET "+Base+"/sign-in", p.signInPage)
	handle("POST "+Base+"/sign-in", p.signIn)
	handle("POST "+Base+"/sign-out", p.signOut)
	handle("GET "+Base+"/invite/{code}", p.invitePage)
	handle("POST "+Base+"/invite", p.redeemInvite)
	handle("GET "+Base+"/accounts", p.signedIn(p.accountsPage))
	handle("GET "+Base+"/accounts/{account}", p.admin(p.settingsPage))
	handle("GET "+Base+"/accounts/{account}/tokens/new", p.admin(p.newTokenPage))
	handle("POST "+Base+"/accounts/{account}/tokens", p.admin(p.createToken))
	handle(revealPattern, getOnly(p.admin(p.revealPage)))
	handle("GET "+Base+"/accounts/{account}/tokens/{token}/revoke", p.admin(p.revokePage))
	handle("POST "+Base+"/accounts/{account}/tokens/{token}/revoke", p.admin(p.revokeToken))
	handle("GET "+Base+"/accounts/{account}/tokens/{token}/rotate", p.admin(p.rotatePage))
	handle("POST "+Base+"/accounts/{account}/tokens/{token}/rotate", p.admin(p.rotateToken))
	handle("GET "+Base+"/accounts/{account}/tokens/{token}/edit", p.admin(p.editPage))
	handle("POST "+Base+"/accounts/{account}/tokens/{token}/edit", p.admin(p.editToken))
	handle("GET "+Base+"/accounts/{account}/audit", p.admin(p.auditPage))
	handle("GET "+Base+"/accounts/{account}/failures", p.admin(p.failuresPage))
	hook := Base + "/accounts/{account}/webhooks/{webhook}"
	handle("GET "+Base+"/accounts/{account}/webhooks", p.admin(p.webhooksPage))
	handle("GET "+Base+"/accounts/{account}/webhooks/new", p.admin(p.newHookPage))
	handle("POST "+Base+"/accounts/{account}/webhooks", p.admin(p.addHook))
	handle("GET "+hook+"/edit", p.admin(p.editHookPage))
	handle("POST "+hook+"/edit", p.admin(p.editHook))
	handle("POST "+hook+"/state", p.admin(p.setHookState))
	handle("GET "+hook+"/remove", p.admin(p.removeHookPage))
	handle("POST "+hook+"/remove", p.admin(p.removeHook))
	handle("GET "+hook+"/deliveries", p.admin(p.deliveriesPage))
	handle("POST "+hook+"/redeliver", p.admin(p.redeliver))
	handle("POST "+hook+"/retry", p.admin(p.retry))
	handle("POST "+hook+"/test", p.admin(p.sendTest))
	handle("POST "+hook+"/redeliver-failed", p.admin(p.redeliverFailed))
	handle(hookSecretPattern, getOnly(p.admin(p.hookSecretPage)))
	handle("GET "+hook+"/rotate-secret", p.admin(p.rotateSecretPage))
	handle("POST "+hook+"/rotate-secret", p.admin(p.rotateSecret))
	handle("GET "+Base+"/accounts/{account}/apps/{app}/uninstall", p.admin(p.uninstallPage))
	handle("POST "+Base+"/accounts/{account}/apps/{app}/uninstall", p.admin(p.uninstall))
	for _, path := range ConsentPaths {
		handle("GET "+path, p.toConsent)
	}
	handle("GET "+consentPath, p.consentPage)
	handle("POST "+consentPath, p.consent)
	mux.Handle("GET "+Base+"/assets/{name}", p.serve(p.asset))
	// The API's contract, public as make run serves it: deployed, the
	// portal's function answers its paths (catalog.PortalRoutes), and the
	// synthetic probe reads it.
	for _, path := range api.DocumentPaths {
		handle("GET "+path, func(w http.ResponseWriter, r *http.Request) error {
			api.ServeDocument(w, r)
			return nil
		})
	}
	// What no route above serves: another method on a page (405), or no
	// page at all (404). Without the exact Base, the mux would answer a
	// PUT /portal with its own bare redirect to Base+"/".
	handle(Base, notServed(mux))
	handle(Base+"/", notServed(mux))
	return mux
}

// revealPattern is the route of the page that shows a value once: only its
// GET may take the value, so it answers no HEAD.
const revealPattern = "GET " + Base + "/accounts/{account}/tokens/shown-once"

// getOnly refuses a HEAD of h's page (which the mux routes to GET
// patterns): for the page that uses a value up by showing it.
func getOnly(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", http.MethodGet)
			return errMethodNotAllowed
		}
		return h(w, r)
	}
}

// notServed answers a request no route of mux serves: 405 with the methods
// the path is served with (Allow), or 404 when it is served with none.
func notServed(mux *http.ServeMux) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var allow []string
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			probe := r.Clone(r.Context())
			probe.Method = method
			_, pattern := mux.Handler(probe)
			if pattern == "" || pattern == Base || pattern == Base+"/" {
				continue
			}
			allow = append(allow, method)
			if method == http.MethodGet && pattern != revealPattern && pattern != hookSecretPattern {
				allow = append(allow, http.MethodHead)
			}
		}
		if len(allow) == 0 {
			return errNotFound
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		return errMethodNotAllowed
	}
}

// maxFormBytes bounds a form's body: the largest form (every scope ticked,
// a description at its limit) is far below it.
const maxFormBytes = 64 << 10

// serve runs a handler with what every page gets: a request id (API
// Gateway's when deployed) in X-Request-Id and the log line, security
// headers (and HSTS over HTTPS), a same-origin check of every POST and its
// bounded body read whole, panic recovery, an error page for a returned
// error, and one log line (the route pattern, never the path: an invite
// link's code stays out).
func (p *Portal) serve(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		r, id := httpserve.IdentifyRequest(r)
		ctx, figures := metrics.Begin(r.Context())
		r = r.WithContext(ctx)
		sw := &httpserve.Writer{ResponseWriter: w}
		sw.Header().Set("X-Request-Id", id)
		setSecurityHeaders(sw.Header())
		if p.secure(r) {
			// Browsers keep to HTTPS for the site for a year; the portal
			// claims nothing for other hosts (no includeSubDomains).
			sw.Header().Set("Strict-Transport-Security", "max-age=31536000")
		}
		r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visitSlot{}))
		var err error
		if panicked := httpserve.Recover(r.Context(), p.logger, func() { err = p.check(sw, r, h) }); panicked != nil {
			err = panicked
		}
		if err != nil {
			p.serveError(sw, r, err)
		}
		end := time.Now()
		httpserve.Line{RequestID: id, Method: r.Method, Route: r.Pattern, Status: sw.Status(), Duration: end.Sub(start), Cause: err, Refusal: refusalOf(r, err),
			Metrics: p.metrics.Attrs(end, r.Pattern, sw.Status(), end.Sub(start), figures)}.
			Log(r.Context(), p.logger, "portal request")
	})
}

// check runs h once a POST's origin is checked and its form read whole
// within the body limit: a form over it is refused here (413), before any
// CSRF check could read a cut form and call it expired.
func (p *Portal) check(w http.ResponseWriter, r *http.Request, h handlerFunc) error {
	if r.Method == http.MethodPost {
		if err := p.checkOrigin(r); err != nil {
			return err
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		err := r.ParseForm()
		if err == nil {
			if err = r.ParseMultipartForm(maxFormBytes); errors.Is(err, http.ErrNotMultipart) {
				err = nil
			}
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return errFormTooLarge
			}
			return errBadForm
		}
	}
	return h(w, r)
}

// refusalOf names the answer's refusal for the log line when it is one an
// operator should notice (see errors.go), else "".
func refusalOf(r *http.Request, err error) string {
	var pe *pageError
	if errors.As(err, &pe) && pe.Refusal != "" {
		return pe.Refusal
	}
	if slot, ok := r.Context().Value(visitKey{}).(*visitSlot); ok {
		return slot.refusal
	}
	return ""
}

// setSecurityHeaders sets what every answer carries: a policy that allows
// only this site's own stylesheet and script (no inline script), no
// framing, no referrer, no content sniffing, and no caching (pages show
// secrets and per-person data; assets override it).
func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}

// secure tells whether the site is served over HTTPS.
func (p *Portal) secure(r *http.Request) bool { return p.opts.SecureCookies || r.TLS != nil }

// checkOrigin refuses a POST that a browser says came from another site.
// Sec-Fetch-Site, where sent, decides: only same-origin passes. Otherwise an
// Origin other than this site's is refused; "null" is what browsers send
// under this site's Referrer-Policy (no-referrer), so it proves nothing
// either way. The CSRF token, checked by each form's handler, is required
// in every case.
func (p *Portal) checkOrigin(r *http.Request) error {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		if site != "same-origin" {
			return errCrossSite
		}
		return nil
	}
	if origin := r.Header.Get("Origin"); origin != "" && origin != "null" {
		scheme := "http"
		if p.secure(r) {
			scheme = "https"
		}
		if origin != scheme+"://"+r.Host {
			return errCrossSite
		}
	}
	return nil
}

// clientAddr is the address sign-ins are throttled by: API Gateway's
// source IP (the adapter's RemoteAddr), or the connection's locally. Never
// a header the client chooses.
func clientAddr(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// randomValue returns 256 random bits, hex-encoded.
func randomValue() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails on supported platforms
	return hex.EncodeToString(b)
}

// LambdaHandler is the portal as its Lambda function serves it: behind API
// Gateway, always over HTTPS, so cookies are always Secure.
// It seals account endpoints' signing secrets with the secrets key.
func LambdaHandler(cfg config.Config, deps wiring.Deps) (http.Handler, error) {
	keeper, err := wiring.OpenKeeper(context.Background(), cfg, wiring.EnvAWSConfig, "the portal", kmskey.Open)
	if err != nil {
		return nil, err
	}
	deps.Secrets = keeper
	return NewFromConfig(cfg, deps, Options{SecureCookies: true})
}
