// Package reqctx carries the facts about one request that several layers fill
// in and the request log line reports: its id, the matched route, the account
// and the internal cause of a failure.
package reqctx

import "context"

// Info is filled in as the request passes through the pipeline. The pipeline
// creates it; inner layers set fields on the same pointer.
type Info struct {
	RequestID string
	// Route is the operation the request matched, as the spec writes it
	// ("GET /contacts/"); empty when no route matched.
	Route string
	// Account is the authenticated account id; empty before authentication.
	Account string
	// ValidationStatus is the status a validation failure gets on the matched
	// operation: 422 where the operation lists it, 400 otherwise.
	ValidationStatus int
	// Cause is the internal error behind a 5xx answer, for the log only.
	Cause error
}

type key struct{}

// With returns a context carrying info.
func With(ctx context.Context, info *Info) context.Context {
	return context.WithValue(ctx, key{}, info)
}

// From returns the request's Info, or a detached empty one when the context
// carries none (so callers never need a nil check).
func From(ctx context.Context) *Info {
	if info, ok := ctx.Value(key{}).(*Info); ok {
		return info
	}
	return &Info{}
}
