package main

import (
	"io"
	"net/http"
	"time"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/shared/route"
)

// site is what the local server answers with: pages (the API reference and
// what leads to it; mount more on pages) at their own paths, and the API
// for every other request.
//
// The API gets each request with its path as sent. The standard library's
// router would clean a path first (//contacts/, /contacts/./x, /a/../b)
// and answer 307 with an HTML body before the API saw it; a 307 keeps the
// method, so a client following it would send a DELETE to another path.
// So pages are only asked for paths that need no cleaning, and everything
// else reaches the API, which answers what names no operation with its
// JSON 404 (X-Request-Id, log line), as it does behind API Gateway.
type site struct {
	pages *http.ServeMux
	api   http.Handler
}

// newPages are the pages the local server shows beside the API, without a
// token: the API reference (its script at redocBundle), to which / leads.
func newPages(redocBundle string) *http.ServeMux {
	pages := http.NewServeMux()
	api.Mount(pages, api.Options{RedocBundle: redocBundle})
	pages.Handle("GET /{$}", http.RedirectHandler(api.DocsPath, http.StatusFound)) // a browser's first visit
	return pages
}

func newSite(pages *http.ServeMux, apiHandler http.Handler) *site {
	return &site{pages: pages, api: apiHandler}
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if route.IsCanonical(r.URL.EscapedPath()) {
		if h, pattern := s.pages.Handler(r); pattern != "" {
			h.ServeHTTP(w, r)
			return
		}
	}
	s.api.ServeHTTP(w, r)
}

// timeouts bound how long a client may hold a connection of the local
// server.
type timeouts struct {
	// readHeader: from accepting a connection (or the end of the previous
	// answer) to the end of a request's headers.
	readHeader time.Duration
	// read: to the end of a request's body; a body that never finishes
	// fails, and the connection is closed.
	read time.Duration
	// write: from the end of a request's headers to the end of its answer:
	// room for the slowest body and the longest request (whose storage work
	// ends by REQUEST_TIMEOUT_MS).
	write time.Duration
	// idle: how long a kept-alive connection may wait for its next request.
	idle time.Duration
}

func defaultTimeouts(requestTimeout time.Duration) timeouts {
	const read = 30 * time.Second
	return timeouts{readHeader: 10 * time.Second, read: read, write: read + requestTimeout + 5*time.Second, idle: 60 * time.Second}
}

func newHTTPServer(h http.Handler, t timeouts) *http.Server {
	return &http.Server{Handler: drainBodies(h), ReadHeaderTimeout: t.readHeader, ReadTimeout: t.read, WriteTimeout: t.write, IdleTimeout: t.idle}
}

// maxDrained is how much of a body the local server reads past what its
// handler read, before the answer goes out: a little more than API
// Gateway's 10 MB payload limit.
const maxDrained = 16 << 20

// drainBodies reads what a handler left of a request's body (at most
// maxDrained, within the read timeout) before the answer is sent. Go's
// server reads at most 256 KB of it and then closes the connection, so a
// client that sends its whole body before reading (Python's http.client,
// many scripts) got a broken pipe instead of the 413 of a body over the
// limit; deployed, API Gateway reads whole requests before any function
// runs, and answers.
func drainBodies(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := r.Body
		if body == nil || body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		// The handlers close the body when they are done with it; the
		// rest is read here, then the body is closed.
		r.Body = io.NopCloser(body)
		h.ServeHTTP(w, r)
		_, _ = io.CopyN(io.Discard, body, maxDrained)
		_ = body.Close()
	})
}
