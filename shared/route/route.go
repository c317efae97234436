// Package route serves a set of operations on the standard library's router.
// Match tells the pipeline whether a path names an operation (404, 405);
// once the pipeline has authenticated the request (its admission may still
// run), the router refuses a body where the operation takes none, checks the
// operation's scope and token kind, runs the handler, and writes every
// error through apierror. docs/design.md ("The request
// pipeline") describes every step in order.
package route

import (
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/operations"
)

// HandlerFunc handles one operation. It writes the success answer itself and
// returns any failure, which the router writes.
//
// It may run before its request is admitted (rate limit, revocation): its
// reads go ahead, while its writes through the area's table (wiring.Deps.Table)
// and its answer wait for admission, so a refused request has no effect.
// storage.Admission says how.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Recorder is a ResponseWriter that keeps the facts of the request's log
// line (the pipeline's writer is one). The router tells it what only the
// router knows: the operation served, and the internal cause of a 5xx
// answer. Writers wrapped around it (middleware) are seen through when they
// have an Unwrap method, as for http.ResponseController.
type Recorder interface {
	RecordOperation(id string)
	RecordCause(err error)
}

// Route binds an operation to its handler.
type Route struct {
	Op     operations.Operation
	Handle HandlerFunc
}

// Router serves routes; unknown paths get a JSON 404 and known paths with
// another method a JSON 405.
type Router struct {
	mux    *http.ServeMux
	routes []Route
	// operation names the operation each registered pattern serves.
	operation map[string]string
}

// NewRouter registers routes on every pattern of their operation.
func NewRouter(routes []Route) (*Router, error) {
	mux := http.NewServeMux()
	operation := map[string]string{}
	for _, rt := range routes {
		if rt.Handle == nil {
			return nil, fmt.Errorf("route %s has no handler", rt.Op.ID())
		}
		h := serve(rt)
		for _, pattern := range rt.Op.Patterns() {
			if err := register(mux, pattern, h); err != nil {
				return nil, err
			}
			operation[pattern] = rt.Op.ID()
		}
	}
	return &Router{mux: mux, routes: routes, operation: operation}, nil
}

func register(mux *http.ServeMux, pattern string, h http.Handler) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("register %s: %v", pattern, v)
		}
	}()
	mux.Handle(pattern, h)
	return nil
}

// Routes returns the routes served.
func (rt *Router) Routes() []Route { return rt.routes }

func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := rt.Match(r); err != nil {
		apierror.Write(w, err)
		return
	}
	rt.mux.ServeHTTP(w, r)
}

// OperationOf is the id of the operation that serves r ("GET /contacts/",
// the route template, never the path); "" when none does. The pipeline
// names it on the log line of a request refused before routing (a 401).
func (rt *Router) OperationOf(r *http.Request) string {
	_, pattern := rt.mux.Handler(r)
	return rt.operation[pattern]
}

// Checked serves requests that Match has passed already, without matching
// them a second time: the pipeline matches each request before
// authenticating it, then hands it on here.
func (rt *Router) Checked() http.Handler { return rt.mux }

// Match returns nil when one of the router's operations serves r, and
// otherwise the error that answers it: 405 (with Allow) for a path served
// with other methods, 404 for any other path, including a path the
// standard router would clean (an empty, "." or ".." segment): an API
// serves the paths it documents as written, and never redirects.
func (rt *Router) Match(r *http.Request) error {
	if p := r.URL.EscapedPath(); !IsCanonical(p) {
		return apierror.NotFound("No operation is served at %s %s: paths hold no empty, '.' or '..' segments", r.Method, clipPath(p))
	}
	if _, pattern := rt.mux.Handler(r); pattern != "" {
		return nil
	}
	// Ask the standard router what it would answer, then answer in JSON.
	probe := &statusProbe{header: http.Header{}}
	rt.mux.ServeHTTP(probe, r)
	if probe.status == http.StatusMethodNotAllowed {
		return &apierror.Error{
			Code:    apierror.CodeMethodNotAllowed,
			Message: fmt.Sprintf("Method %s is not allowed on %s", r.Method, clipPath(r.URL.Path)),
			Header:  http.Header{"Allow": {probe.header.Get("Allow")}},
		}
	}
	return apierror.NotFound("No operation is served at %s %s", r.Method, clipPath(r.URL.Path))
}

func serve(rt Route) http.Handler {
	op := rt.Op
	id := op.ID()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := RecorderOf(w)
		rec.RecordOperation(id)
		if !op.Body && hasBody(r) {
			apierror.WriteForOperation(w, apierror.BadRequest("%s takes no request body: send it without one", id), op.ValidationStatus)
			return
		}
		err := authorize(r, op)
		if err == nil {
			err = rt.Handle(w, r)
		}
		if err != nil {
			rec.RecordCause(apierror.WriteForOperation(w, err, op.ValidationStatus))
		}
	})
}

// RecorderOf finds the Recorder among w and the writers it wraps; without
// one, the facts go nowhere.
func RecorderOf(w http.ResponseWriter) Recorder {
	for {
		if rec, ok := w.(Recorder); ok {
			return rec
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return noRecorder{}
		}
		w = u.Unwrap()
	}
}

type noRecorder struct{}

func (noRecorder) RecordOperation(string) {}
func (noRecorder) RecordCause(error)      {}

func authorize(r *http.Request, op operations.Operation) error {
	p, err := auth.PrincipalFrom(r.Context())
	if err != nil {
		return err
	}
	if !p.HasScope(op.Scope) {
		return apierror.Forbidden(fmt.Sprintf("The token is not authorized for this scope: %s needs %s", op.ID(), op.Scope))
	}
	if op.MarketplaceOnly && p.Kind != auth.KindMarketplace {
		return apierror.Forbidden(fmt.Sprintf("%s accepts only a marketplace-app token", op.ID()))
	}
	return nil
}

// hasBody reports whether the request carries a body of at least one byte.
// It consumes the body, so it is only asked of operations that take none.
func hasBody(r *http.Request) bool {
	if r.ContentLength > 0 {
		return true
	}
	if r.Body == nil || r.Body == http.NoBody {
		return false
	}
	var b [1]byte
	n, _ := io.ReadFull(r.Body, b[:])
	return n > 0
}

// IsCanonical reports whether an escaped path is one the standard router
// leaves as it is: no empty, "." or ".." segments. Others are never served
// (the router would clean them and redirect).
func IsCanonical(escapedPath string) bool { return escapedPath == canonicalPath(escapedPath) }

// canonicalPath is p as the standard router cleans it: no empty, "." or
// ".." segments, the trailing slash kept.
func canonicalPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	return clean
}

// clipPath shortens a path before it is echoed in a message.
func clipPath(p string) string {
	const max = 200
	if len(p) <= max {
		return p
	}
	return p[:max] + "..."
}

// statusProbe captures the status and headers the standard router would
// answer with, discarding its plain-text body.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header { return p.header }
func (p *statusProbe) WriteHeader(status int) {
	if p.status == 0 {
		p.status = status
	}
}
func (p *statusProbe) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	return len(b), nil
}
