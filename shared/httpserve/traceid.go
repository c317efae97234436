package httpserve

import (
	"context"
	"log/slog"
	"strings"
)

type traceIDKey struct{}

// WithTraceID makes id (an X-Ray trace id, "1-5759e988-bd862e3fe1be46a994272793")
// the trace id of the request ctx belongs to.
func WithTraceID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceIDKey{}, id)
}

// TraceID is the X-Ray trace id of the request ctx belongs to; "" when it
// has none.
func TraceID(ctx context.Context) string {
	id, _ := ctx.Value(traceIDKey{}).(string)
	return id
}

// TraceRoot is the trace id an X-Ray trace header names
// ("Root=1-…;Parent=…;Sampled=1", as Lambda's _X_AMZN_TRACE_ID and the
// X-Amzn-Trace-Id header carry it); "" when it names none in X-Ray's form:
// a client's header reaches the log only as such an id.
func TraceRoot(header string) string {
	for _, part := range strings.Split(header, ";") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), "Root="); ok && isTraceID(v) {
			return v
		}
	}
	return ""
}

// isTraceID reports whether v is "1-" 8 hex digits "-" 24 hex digits.
func isTraceID(v string) bool {
	if len(v) != 35 || v[:2] != "1-" || v[10] != '-' {
		return false
	}
	for i, c := range v {
		if i < 2 || i == 10 {
			continue
		}
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// WithIDs wraps a log handler so that every line logged with a request's
// context carries its request_id and, where it has one, its trace_id (a
// line that names them itself keeps its own): an operator goes from any
// line, or an alarm's metric line, to every line of the same request.
func WithIDs(h slog.Handler) slog.Handler { return idHandler{h} }

type idHandler struct{ slog.Handler }

func (h idHandler) Handle(ctx context.Context, r slog.Record) error {
	requestID, traceID := RequestID(ctx), TraceID(ctx)
	if requestID != "" || traceID != "" {
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "request_id":
				requestID = ""
			case "trace_id":
				traceID = ""
			}
			return true
		})
		if requestID != "" {
			r.AddAttrs(slog.String("request_id", requestID))
		}
		if traceID != "" {
			r.AddAttrs(slog.String("trace_id", traceID))
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h idHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return idHandler{h.Handler.WithAttrs(attrs)}
}

func (h idHandler) WithGroup(name string) slog.Handler {
	return idHandler{h.Handler.WithGroup(name)}
}
