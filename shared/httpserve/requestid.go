package httpserve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
)

type requestIDKey struct{}

// WithRequestID makes every server use id (API Gateway's request id)
// instead of generating one.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID is the id of the request ctx belongs to, as its answer's
// X-Request-Id header and its log line give it (the API's traceId where an
// answer holds one); "" before a server has given the request one.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// IdentifyRequest returns r carrying a request id (API Gateway's when it
// came with one, else a new UUID) and, when its context has none, the trace
// id its X-Amzn-Trace-Id header names; and the request id.
func IdentifyRequest(r *http.Request) (*http.Request, string) {
	ctx := r.Context()
	if TraceID(ctx) == "" {
		if root := TraceRoot(r.Header.Get("X-Amzn-Trace-Id")); root != "" {
			ctx = WithTraceID(ctx, root)
		}
	}
	id := RequestID(ctx)
	if id == "" {
		id = newRequestID()
		ctx = WithRequestID(ctx, id)
	}
	if ctx != r.Context() {
		r = r.WithContext(ctx)
	}
	return r, id
}

func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	hex.Encode(s[9:13], b[4:6])
	hex.Encode(s[14:18], b[6:8])
	hex.Encode(s[19:23], b[8:10])
	hex.Encode(s[24:36], b[10:16])
	s[8], s[13], s[18], s[23] = '-', '-', '-', '-'
	return string(s[:])
}
