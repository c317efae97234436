// Package apierror holds the one error type every layer returns and the one
// writer that turns it into the JSON error body clients see.
package apierror

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Code classifies an error; the writer maps each code to an HTTP status.
type Code int

const (
	// CodeInternal is an unexpected failure; its cause is logged, never shown.
	CodeInternal Code = iota
	// CodeBadRequest is a malformed request: bad JSON, a wrong header, a
	// query value of the wrong type.
	CodeBadRequest
	// CodeValidation is a well-formed request that breaks field rules. It
	// answers 422 on operations that list 422 and 400 on the others.
	CodeValidation
	CodeUnauthorized
	CodeForbidden
	CodeNotFound
	CodeMethodNotAllowed
	CodeNotAcceptable
	CodePayloadTooLarge
	CodeUnsupportedMediaType
	CodeTooManyRequests
	// CodeUnavailable is a storage outage or throttling: the client retries.
	CodeUnavailable
	// CodeConflict is a request that collides with another one still
	// running (the same Idempotency-Key): 409.
	CodeConflict
	// CodeUnprocessable is a well-formed request that cannot be carried out
	// as asked: 422 on every operation, whatever its validation status.
	CodeUnprocessable
)

// Error is the error type of the API.
type Error struct {
	Code Code
	// Message is shown to the client (not used for CodeValidation).
	Message string
	// Violations lists every broken field rule, each naming its field.
	Violations []string
	// RetryAfter, when set, becomes the Retry-After header (429, 503).
	RetryAfter time.Duration
	// Header holds headers the answer carries besides the body's (Allow on
	// a 405, WWW-Authenticate on a 401).
	Header http.Header
	// Cause is the underlying error; it is logged, never shown.
	Cause error
}

func (e *Error) Error() string {
	switch {
	case e.Code == CodeValidation:
		return fmt.Sprintf("validation: %v", e.Violations)
	case e.Cause != nil:
		return fmt.Sprintf("%s: %v", e.Message, e.Cause)
	default:
		return e.Message
	}
}

func (e *Error) Unwrap() error { return e.Cause }

// As returns err as an *Error when it is one (possibly wrapped).
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// HasCode reports whether err is an *Error with the given code.
func HasCode(err error, code Code) bool {
	e, ok := As(err)
	return ok && e.Code == code
}

// BadRequest is a malformed request.
func BadRequest(format string, args ...any) *Error {
	return &Error{Code: CodeBadRequest, Message: fmt.Sprintf(format, args...)}
}

// Invalid is a request that breaks one or more field rules; each violation
// names its field.
func Invalid(violations ...string) *Error {
	return &Error{Code: CodeValidation, Violations: violations}
}

// Unauthorized is a request without a bearer token. Its answer challenges
// the client to send one (WWW-Authenticate: Bearer).
func Unauthorized(msg string) *Error { return &Error{Code: CodeUnauthorized, Message: msg} }

// InvalidToken is a bearer token that is malformed, unknown or revoked. Its
// answer says so in the challenge too (RFC 6750):
// WWW-Authenticate: Bearer error="invalid_token".
func InvalidToken(msg string) *Error {
	return &Error{Code: CodeUnauthorized, Message: msg, Header: http.Header{"Www-Authenticate": {invalidTokenChallenge}}}
}

const (
	bearerChallenge       = "Bearer"
	invalidTokenChallenge = `Bearer error="invalid_token"`
)

// Forbidden is a valid token that may not do this.
func Forbidden(msg string) *Error { return &Error{Code: CodeForbidden, Message: msg} }

// NotFound is a record that is not in the caller's account.
func NotFound(format string, args ...any) *Error {
	return &Error{Code: CodeNotFound, Message: fmt.Sprintf(format, args...)}
}

// Conflict is a request that collides with the state another request left
// or is changing: 409.
func Conflict(format string, args ...any) *Error {
	return &Error{Code: CodeConflict, Message: fmt.Sprintf(format, args...)}
}

// Internal wraps an unexpected failure. The client sees a generic message.
func Internal(cause error) *Error {
	return &Error{Code: CodeInternal, Message: "Internal server error", Cause: cause}
}

// Unavailable is a temporary storage failure the client should retry.
func Unavailable(cause error, retryAfter time.Duration) *Error {
	return &Error{Code: CodeUnavailable, Message: "The service is temporarily unavailable; retry later", RetryAfter: retryAfter, Cause: cause}
}

// NoAccountAccess is the public API's answer when the request names an
// account other than the token's.
func NoAccountAccess() *Error {
	return Forbidden("The token does not have access to this location")
}
