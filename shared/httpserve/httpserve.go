// Package httpserve is what every server of the project wraps each request
// in, the API's pipeline and the portal alike: a writer that records the
// answer's status, panic recovery, one JSON log line per request, and a
// deadline on the request's work. What a server answers (the API's JSON
// errors, the portal's pages) stays its own.
package httpserve

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"
)

// Writer is a request's ResponseWriter that records the status it answers
// with, for the log line.
type Writer struct {
	http.ResponseWriter
	status int
}

// WriteHeader sends the status once; a later call changes nothing (net/http
// would ignore it too, with a warning).
func (w *Writer) WriteHeader(status int) {
	if w.status != 0 {
		return
	}
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *Writer) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Status is the status answered; 0 until the answer has begun.
func (w *Writer) Status() int { return w.status }

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *Writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Recover runs serve and recovers its panic: it logs the panic and its
// stack (one "panic" line, attrs first) and returns it as an error, for the
// server to answer with its 500; nil when serve returned. A panic with
// http.ErrAbortHandler, a handler aborting its answer on purpose, goes on.
func Recover(ctx context.Context, logger *slog.Logger, serve func(), attrs ...slog.Attr) (err error) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler {
			panic(v)
		}
		err = fmt.Errorf("panic: %v", v)
		logger.LogAttrs(ctx, slog.LevelError, "panic", append(attrs,
			slog.String("panic", fmt.Sprint(v)), slog.String("stack", string(debug.Stack())))...)
	}()
	serve()
	return nil
}

// Line is a request's one log line. Never a body, a token or a header.
type Line struct {
	RequestID string
	Method    string
	// Route is what served the request: the operation ("GET /contacts/")
	// or route pattern; "" when none did.
	Route string
	// Path is the path as sent. The portal leaves it out (""): an invite
	// link's path holds its code.
	Path     string
	Status   int
	Duration time.Duration
	// Account is the authenticated account; "" before authentication and
	// on the portal.
	Account string
	// Cause is the internal cause of a 5xx answer, never shown to the
	// client.
	Cause error
	// Refusal names a 4xx answer an operator should notice (a lockout, a
	// forged or expired form, an oversized body): such a line is a
	// warning that says it. "" for the rest (wrong input, a redirect).
	Refusal string
	// Metrics are the line's metric members (package metrics), last: the
	// request's figures ride on its one line.
	Metrics []slog.Attr
}

// Log writes the line as one JSON record with the message msg: at level
// Error, with its cause, for a 5xx answer (what an operator must act on);
// at Warn, with the refusal, for a refusal that means something; else at
// Info. An empty request id, path or account is left out.
func (l Line) Log(ctx context.Context, logger *slog.Logger, msg string) {
	attrs := make([]slog.Attr, 0, 9+len(l.Metrics))
	if l.RequestID != "" {
		attrs = append(attrs, slog.String("request_id", l.RequestID))
	}
	attrs = append(attrs, slog.String("method", l.Method), slog.String("route", l.Route))
	if l.Path != "" {
		attrs = append(attrs, slog.String("path", l.Path))
	}
	attrs = append(attrs, slog.Int("status", l.Status), slog.Float64("duration_ms", float64(l.Duration.Microseconds())/1000))
	if l.Account != "" {
		attrs = append(attrs, slog.String("account", l.Account))
	}
	level := slog.LevelInfo
	switch {
	case l.Status >= 500:
		level = slog.LevelError
		if l.Cause != nil {
			attrs = append(attrs, slog.String("error", l.Cause.Error()))
		}
	case l.Refusal != "":
		level = slog.LevelWarn
		attrs = append(attrs, slog.String("refusal", l.Refusal))
	}
	attrs = append(attrs, l.Metrics...)
	logger.LogAttrs(ctx, level, msg, attrs...)
}

// WithDeadline bounds the work of each request next serves to d
// (REQUEST_TIMEOUT_MS): a storage call still running at the deadline fails
// with a 503 well before the function's own timeout. d <= 0: no bound.
func WithDeadline(next http.Handler, d time.Duration) http.Handler {
	if d <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
