package testenv

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// ErrorBody is the JSON shape of every error answer. CheckErrorBody holds
// an answer to it: integration tests (RequireError), the fault tests and the
// fuzz targets alike.
type ErrorBody struct {
	StatusCode int    `json:"statusCode"`
	Message    any    `json:"message"`
	Error      string `json:"error"`
	TraceID    string `json:"traceId"`
	RequestID  string `json:"requestId"`
}

// CheckErrorBody returns why body is not the API's JSON error for status,
// or "" when it is: an object with exactly statusCode (equal to status),
// message (a non-empty string or a list of strings), error (the status
// text), traceId and requestId (both the answer's X-Request-Id, from
// header).
func CheckErrorBody(status int, header http.Header, body []byte) string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return fmt.Sprintf("error body is not a JSON object: %v: %q", err, body)
	}
	if len(fields) != 5 {
		return fmt.Sprintf("error body has %d fields, want statusCode, message, error, traceId, requestId: %s", len(fields), body)
	}
	var b ErrorBody
	if err := json.Unmarshal(body, &b); err != nil {
		return fmt.Sprintf("error body has wrong types: %v: %s", err, body)
	}
	if b.StatusCode != status || b.Error != http.StatusText(status) {
		return fmt.Sprintf("error body says %d %q for status %d: %s", b.StatusCode, b.Error, status, body)
	}
	if id := header.Get("X-Request-Id"); b.TraceID == "" || b.TraceID != id {
		return fmt.Sprintf("error body's traceId %q is not the answer's X-Request-Id %q: %s", b.TraceID, id, body)
	}
	if id := header.Get("X-Request-Id"); b.RequestID != id {
		return fmt.Sprintf("error body's requestId %q is not the answer's X-Request-Id %q: %s", b.RequestID, id, body)
	}
	switch m := b.Message.(type) {
	case string:
		if m == "" {
			return fmt.Sprintf("error message is empty: %s", body)
		}
	case []any:
		if len(m) == 0 {
			return fmt.Sprintf("error message list is empty: %s", body)
		}
		for _, v := range m {
			if s, ok := v.(string); !ok || s == "" {
				return fmt.Sprintf("error message list holds a non-string or empty entry: %s", body)
			}
		}
	default:
		return fmt.Sprintf("error message is neither a string nor a list: %s", body)
	}
	return ""
}
