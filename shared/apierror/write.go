package apierror

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// Body is the JSON shape of every error answer. Message is a string, except
// for validation failures where it is the list of violations. TraceID and
// RequestID are both the answer's X-Request-Id, for the client to quote:
// traceId as the public API names it, requestId as the operator's log
// lines and metrics name it (request_id).
type Body struct {
	StatusCode int    `json:"statusCode"`
	Message    any    `json:"message"`
	Error      string `json:"error"`
	TraceID    string `json:"traceId"`
	RequestID  string `json:"requestId"`
}

// Status returns the HTTP status of err on a route whose validation failures
// answer validationStatus (422 or 400; 0 means 422).
func Status(err error, validationStatus int) int {
	e, ok := As(err)
	if !ok {
		return http.StatusInternalServerError
	}
	switch e.Code {
	case CodeBadRequest:
		return http.StatusBadRequest
	case CodeValidation:
		if validationStatus == http.StatusBadRequest {
			return http.StatusBadRequest
		}
		return http.StatusUnprocessableEntity
	case CodeUnauthorized:
		return http.StatusUnauthorized
	case CodeForbidden:
		return http.StatusForbidden
	case CodeNotFound:
		return http.StatusNotFound
	case CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case CodeNotAcceptable:
		return http.StatusNotAcceptable
	case CodePayloadTooLarge:
		return http.StatusRequestEntityTooLarge
	case CodeUnsupportedMediaType:
		return http.StatusUnsupportedMediaType
	case CodeTooManyRequests:
		return http.StatusTooManyRequests
	case CodeUnavailable:
		return http.StatusServiceUnavailable
	case CodeConflict:
		return http.StatusConflict
	case CodeUnprocessable:
		return http.StatusUnprocessableEntity
	default:
		return http.StatusInternalServerError
	}
}

// Write answers err as JSON outside any operation: before the request's
// operation is known, or when it names none. It returns the internal cause
// of a 5xx answer (nil otherwise) for the caller to log; the body never
// shows it. The body's traceId is the X-Request-Id header already on w (the
// pipeline sets it first), so the two never differ; a 401 challenges the
// client (WWW-Authenticate).
func Write(w http.ResponseWriter, err error) (cause error) {
	return WriteForOperation(w, err, http.StatusUnprocessableEntity)
}

// WriteForOperation is Write on an operation whose field-rule failures
// answer validationStatus (its operations.Operation.ValidationStatus: 422
// or 400).
func WriteForOperation(w http.ResponseWriter, err error, validationStatus int) (cause error) {
	status := Status(err, validationStatus)
	id := w.Header().Get("X-Request-Id")
	body := Body{StatusCode: status, Error: http.StatusText(status), TraceID: id, RequestID: id}

	e, ok := As(err)
	switch {
	case !ok:
		cause = err
		body.Message = "Internal server error"
	case e.Code == CodeValidation:
		body.Message = e.Violations
	default:
		body.Message = e.Message
		if status >= 500 {
			cause = e.Cause
		}
	}
	if ok {
		for k, v := range e.Header {
			w.Header()[k] = v
		}
	}
	if status == http.StatusUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
		w.Header().Set("WWW-Authenticate", bearerChallenge)
	}
	if ok && e.RetryAfter > 0 {
		secs := int((e.RetryAfter + 999_999_999) / 1_000_000_000) // round up to whole seconds
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	writeJSON(w, status, body)
	return cause
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
