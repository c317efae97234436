// Package pipeline is the request pipeline every function and the local
// server put in front of their routes, up to admission: request id and log
// line, panic recovery, the path, body limit, Version, Accept and
// Content-Type, authentication, admission. docs/design.md ("The request
// pipeline") describes every step in order, with its answer; the router
// (package route) runs the steps that follow.
package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/ratelimit"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/storage"
)

// APIVersion is the contract's value of the Version header.
const APIVersion = "2021-07-28"

// SDKDefaultVersion is the Version the public API's official SDK (3.x)
// sends when its user sets none: accepted as the same contract, which names
// no other, so that `new HighLevel({privateIntegrationToken})` works as
// built. Every other value is refused.
const SDKDefaultVersion = "2023-02-21"

// MaxBodyBytes is the largest request body accepted (1 MiB).
const MaxBodyBytes = 1 << 20

// Authenticator checks a request's Authorization header.
type Authenticator interface {
	Authenticate(ctx context.Context, header string) (*auth.Session, error)
}

// Admitter counts a request against its account's limits.
type Admitter interface {
	Admit(ctx context.Context, accountID, tokenID string) (ratelimit.Decision, error)
}

var (
	_ Authenticator     = (*auth.Authenticator)(nil)
	_ Admitter          = (*ratelimit.Limiter)(nil)
	_ storage.Admission = (*admission)(nil)
	_ route.Recorder    = (*responseWriter)(nil)
)

// Routes tells whether a request names one of the operations served.
type Routes interface {
	// Match returns nil when an operation serves r, and otherwise the
	// error that answers it (404, 405).
	Match(r *http.Request) error
}

var _ Routes = (*route.Router)(nil)

// operationNamer names the operation serving a request that Routes matched.
type operationNamer interface {
	OperationOf(r *http.Request) string
}

var _ operationNamer = (*route.Router)(nil)

// Options are the pipeline's collaborators.
type Options struct {
	Logger  *slog.Logger
	Auth    Authenticator
	Limiter Admitter
	Clock   clock.Clock
	// Routes answers a request that names no operation before anything
	// else is checked, as API Gateway answers a route it does not have:
	// 404 whatever its headers. Nil leaves such requests to next.
	Routes Routes
	// Metrics, when set, adds the request's metrics to its log line.
	Metrics *metrics.RequestLines
	// Failures keeps the failed requests of known accounts for their
	// admins (failures.go); nil keeps none.
	Failures FailureRecorder
}

// New wraps next (the router) in the pipeline.
func New(opts Options, next http.Handler) http.Handler {
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	p := &pipeline{opts: opts, next: next}
	return http.HandlerFunc(p.serve)
}

type pipeline struct {
	opts Options
	next http.Handler
	// refused holds, per account, until when its last refusal holds.
	refused sync.Map // account id -> time.Time
}

func (p *pipeline) serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	r, id := httpserve.IdentifyRequest(r)
	ctx, figures := metrics.Begin(r.Context())
	r = r.WithContext(ctx)
	w, captured := p.captureFailures(w)
	rw := &responseWriter{Writer: httpserve.Writer{ResponseWriter: w}, requestID: id}
	rw.Header()["X-Request-Id"] = []string{id} // canonical already

	panicked := httpserve.Recover(r.Context(), p.opts.Logger, func() { p.handle(rw, r) }, slog.String("request_id", id))
	if !rw.wrote() {
		// Every request gets an answer; API Gateway would otherwise turn
		// an empty one into a 502.
		if panicked == nil {
			panicked = errors.New("handler wrote no response")
		}
		rw.RecordCause(apierror.Write(rw, apierror.Internal(panicked)))
	}
	end := time.Now()
	line := httpserve.Line{
		RequestID: id, Method: r.Method, Route: rw.operation, Path: r.URL.Path,
		Status: rw.Status(), Duration: end.Sub(start), Account: rw.account, Cause: rw.cause,
	}
	if p.opts.Metrics != nil {
		line.Metrics = p.opts.Metrics.Attrs(end, rw.operation, line.Status, line.Duration, figures)
	}
	line.Log(r.Context(), p.opts.Logger, "request")
	p.recordFailure(r, rw, captured)
}

func (p *pipeline) handle(w *responseWriter, r *http.Request) {
	authed, err := p.check(w, r)
	if err != nil {
		w.RecordCause(apierror.Write(w, err))
		return
	}
	p.next.ServeHTTP(w, authed)
}

// check runs the steps from the path to authentication and starts
// admission, and returns the request carrying its principal.
//
// Admission is one conditional write; the handler's reads need not wait for
// it, so they run at the same time and a read-then-write operation costs two
// round trips instead of three. Nothing the handler does is visible before
// admission succeeds: its writes wait for it (storage.Admission) and so
// does its answer (responseWriter), which becomes admission's error when
// admission refuses. An account that was refused recently is admitted first,
// so that requests over the limit cost no reads.
func (p *pipeline) check(w *responseWriter, r *http.Request) (*http.Request, error) {
	if p.opts.Routes != nil {
		if err := p.opts.Routes.Match(r); err != nil {
			return nil, err
		}
		if named, ok := p.opts.Routes.(operationNamer); ok {
			// A request refused from here on is its operation's.
			w.RecordOperation(named.OperationOf(r))
		}
	}
	hasBody, err := LimitBody(r)
	if err != nil {
		return nil, err
	}
	if err := checkVersion(r.Header); err != nil {
		return nil, err
	}
	if err := checkAccept(r.Header.Get("Accept")); err != nil {
		return nil, err
	}
	if hasBody {
		if err := checkBodyHeaders(r.Header); err != nil {
			return nil, err
		}
	}
	ctx := r.Context()
	session, err := p.opts.Auth.Authenticate(ctx, r.Header.Get("Authorization"))
	if err != nil {
		return nil, err
	}
	principal := session.Principal
	w.account, w.principal = principal.AdmissionID(), principal

	a := &admission{done: make(chan struct{})}
	if p.recentlyRefused(principal.AdmissionID()) {
		p.admit(ctx, session, a)
		if a.headers {
			a.decision.SetHeaders(w.Header())
		}
		if a.err != nil {
			return nil, a.err
		}
	} else {
		go p.admit(ctx, session, a)
		w.admission = a
		ctx = storage.WithAdmission(ctx, a)
	}
	return r.WithContext(auth.WithPrincipal(ctx, principal)), nil
}

// admission is one request's admission, possibly still running.
type admission struct {
	done     chan struct{}
	decision ratelimit.Decision
	headers  bool // the decision's X-RateLimit-* headers belong on the answer
	err      error
}

// Wait blocks until admission is decided and returns its error, if any.
func (a *admission) Wait() error {
	<-a.done
	return a.err
}

func (p *pipeline) admit(ctx context.Context, session *auth.Session, a *admission) {
	defer close(a.done)
	principal := session.Principal
	decision, err := p.opts.Limiter.Admit(ctx, principal.AdmissionID(), principal.TokenID)
	if err != nil {
		a.err = err
		return
	}
	if decision.Revoked {
		session.Revoked()
		a.err = apierror.InvalidToken("Invalid token: the token has been revoked")
		return
	}
	if decision.Allowed {
		if err := session.Confirm(ctx, decision.StateBornAtUnix); err != nil {
			a.err = err
			return
		}
		if _, ok := p.refused.Load(principal.AdmissionID()); ok {
			p.refused.Delete(principal.AdmissionID())
		}
	} else {
		p.refused.Store(principal.AdmissionID(), p.opts.Clock.Now().Add(decision.RetryAfter))
	}
	a.decision, a.headers, a.err = decision, true, decision.Err()
}

// recentlyRefused reports whether this instance refused the account a
// request whose Retry-After has not yet passed.
func (p *pipeline) recentlyRefused(accountID string) bool {
	until, ok := p.refused.Load(accountID)
	return ok && p.opts.Clock.Now().Before(until.(time.Time))
}

// tooLarge is built without fmt, whose first use at every cold start costs
// more than the rest of this package's initialisation.
var tooLarge = &apierror.Error{Code: apierror.CodePayloadTooLarge, Message: "The request body exceeds the limit of " + strconv.Itoa(MaxBodyBytes) + " bytes"}

// LimitBody reads the whole body (at most MaxBodyBytes) so that an
// oversized body is refused (413) before anything else looks at it, and
// reports whether the body holds any byte. A body announced larger is
// refused unread. The OAuth server reads its bodies with it too.
func LimitBody(r *http.Request) (bool, error) {
	if r.ContentLength > MaxBodyBytes {
		return false, tooLarge
	}
	if r.Body == nil || r.Body == http.NoBody {
		return false, nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
	_ = r.Body.Close()
	if err != nil {
		return false, apierror.BadRequest("The request body could not be read")
	}
	if len(body) > MaxBodyBytes {
		return false, tooLarge
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return len(body) > 0, nil
}

func checkVersion(h http.Header) error {
	switch v := h.Get("Version"); v {
	case APIVersion, SDKDefaultVersion:
		return nil
	case "":
		return apierror.BadRequest("The Version header is required: send Version: %s (%s, the official SDK's default, is accepted too)", APIVersion, SDKDefaultVersion)
	default:
		return apierror.BadRequest("Version %q is not supported: send Version: %s (%s, the official SDK's default, is accepted too)", clip(v), APIVersion, SDKDefaultVersion)
	}
}

// checkAccept passes an absent header and any header naming a media range
// that includes application/json with a non-zero quality.
func checkAccept(header string) error {
	switch strings.TrimSpace(header) {
	case "", "application/json", "*/*": // what clients send, without parsing
		return nil
	}
	for _, part := range strings.Split(header, ",") {
		mediaType, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		if q, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(q, 64); err != nil || f <= 0 {
				continue
			}
		}
		switch mediaType {
		case "*/*", "application/*", "application/json":
			return nil
		}
	}
	return &apierror.Error{Code: apierror.CodeNotAcceptable, Message: "Every response is JSON: the Accept header must allow application/json"}
}

// checkBodyHeaders refuses a body whose headers are ambiguous or name what
// the server does not read, rather than guess: one Content-Type, JSON in
// UTF-8, and no Content-Encoding but identity (bodies are never decoded).
func checkBodyHeaders(h http.Header) error {
	contentTypes := h.Values("Content-Type")
	if len(contentTypes) > 1 || (len(contentTypes) == 1 && isMediaTypeList(contentTypes[0])) {
		return apierror.BadRequest("The request has more than one Content-Type: send one, Content-Type: application/json")
	}
	if err := checkContentType(h.Get("Content-Type")); err != nil {
		return err
	}
	for _, v := range h.Values("Content-Encoding") {
		for _, coding := range strings.Split(v, ",") {
			if c := strings.TrimSpace(coding); c != "" && !strings.EqualFold(c, "identity") {
				return &apierror.Error{Code: apierror.CodeUnsupportedMediaType, Message: fmt.Sprintf("Content-Encoding %q is not supported: send the body uncompressed, without Content-Encoding", clip(c))}
			}
		}
	}
	return nil
}

// isMediaTypeList reports whether a header value is a list of media types
// (two headers joined with a comma, as API Gateway passes them), which no
// single media type is: a comma in one may only sit in a quoted parameter.
func isMediaTypeList(v string) bool {
	if !strings.Contains(v, ",") {
		return false
	}
	if _, _, err := mime.ParseMediaType(v); err == nil {
		return false
	}
	for _, part := range strings.Split(v, ",") {
		if _, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err != nil {
			return false
		}
	}
	return true
}

func checkContentType(header string) error {
	unsupported := &apierror.Error{Code: apierror.CodeUnsupportedMediaType, Message: "Request bodies must be JSON: send Content-Type: application/json"}
	mediaType, params, err := mime.ParseMediaType(header)
	if err != nil || mediaType != "application/json" {
		return unsupported
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return unsupported
	}
	return nil
}

// clip shortens a client's value before a message echoes it.
func clip(v string) string {
	const max = 40
	if len(v) <= max {
		return v
	}
	return v[:max] + "..."
}

// responseWriter is the request's answer and the facts of its log line,
// which inner layers record on it (it outlives them all). While admission is
// pending, the first write waits for it and answers admission's error
// instead of the handler's answer when it fails.
type responseWriter struct {
	httpserve.Writer
	admission *admission // pending admission, until the first write
	discard   bool       // the handler's answer lost to admission's error

	// The log line's facts.
	requestID string
	account   string // the authenticated account; "" before authentication
	principal *auth.Principal
	operation string // the operation served ("GET /contacts/"); "" when none matched
	cause     error  // the internal cause of a 5xx answer, never shown
}

// RecordOperation notes the operation that serves the request.
func (w *responseWriter) RecordOperation(id string) { w.operation = id }

// RecordCause notes the internal cause of the answer, unless that answer
// was dropped for admission's error (whose cause is noted instead).
func (w *responseWriter) RecordCause(err error) {
	if !w.discard {
		w.cause = err
	}
}

// wrote reports whether the answer has begun.
func (w *responseWriter) wrote() bool { return w.Status() != 0 }

func (w *responseWriter) WriteHeader(status int) {
	if w.wrote() {
		return
	}
	if a := w.admission; a != nil {
		w.admission = nil
		<-a.done
		if a.err != nil {
			// Only the request id survives of what the handler set.
			h := w.Header()
			for k := range h {
				if k != "X-Request-Id" {
					delete(h, k)
				}
			}
			if a.headers {
				a.decision.SetHeaders(h)
			}
			w.cause = apierror.Write(w, a.err)
			w.discard = true
			return
		}
		a.decision.SetHeaders(w.Header())
	}
	w.Writer.WriteHeader(status)
}

func (w *responseWriter) Write(b []byte) (int, error) {
	if !w.wrote() {
		w.WriteHeader(http.StatusOK)
	}
	if w.discard {
		return len(b), nil
	}
	return w.Writer.Write(b)
}
