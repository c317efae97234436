// Package faults holds what the fault tests and the fuzz targets share: the
// sample request of every operation (events/, the API Gateway events that
// succeed once on a fresh demo dataset) and the check of the JSON error
// body. The fault tests themselves are this package's tests.
package faults

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Event is one operation's sample request.
type Event struct {
	// Name is the event file, e.g. "products/update-inventory".
	Name     string
	RouteKey string // "POST /products/inventory"
	Method   string
	Path     string // raw path, escaped as sent
	Query    string // raw query string
	Headers  map[string]string
	Body     string
}

// LoadEvents reads every events/<area>/*.json under dir (the events
// directory), sorted by name.
func LoadEvents(dir string) ([]Event, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Event
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var e struct {
			RouteKey        string            `json:"routeKey"`
			RawPath         string            `json:"rawPath"`
			RawQueryString  string            `json:"rawQueryString"`
			Headers         map[string]string `json:"headers"`
			Body            string            `json:"body"`
			IsBase64Encoded bool              `json:"isBase64Encoded"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		body := e.Body
		if e.IsBase64Encoded {
			b, err := base64.StdEncoding.DecodeString(e.Body)
			if err != nil {
				return nil, fmt.Errorf("%s: body: %w", f, err)
			}
			body = string(b)
		}
		rel, _ := filepath.Rel(dir, f)
		method, _, _ := strings.Cut(e.RouteKey, " ")
		out = append(out, Event{
			Name: strings.TrimSuffix(filepath.ToSlash(rel), ".json"), RouteKey: e.RouteKey, Method: method,
			Path: e.RawPath, Query: e.RawQueryString, Headers: e.Headers, Body: body,
		})
	}
	return out, nil
}

// Request builds the event's request against baseURL, with the event's
// headers (its demo token included) and body.
func (e Event) Request(baseURL string) (*http.Request, error) {
	u := baseURL + e.Path
	if e.Query != "" {
		u += "?" + e.Query
	}
	var body io.Reader
	if e.Body != "" {
		body = strings.NewReader(e.Body)
	}
	req, err := http.NewRequest(e.Method, u, body)
	if err != nil {
		return nil, err
	}
	for k, v := range e.Headers {
		switch strings.ToLower(k) {
		case "host", "content-length", "x-forwarded-for", "x-forwarded-port", "x-forwarded-proto":
			continue
		}
		req.Header.Set(k, v)
	}
	return req, nil
}

// ErrorBody is the JSON shape of every error answer.
type ErrorBody struct {
	StatusCode int    `json:"statusCode"`
	Message    any    `json:"message"`
	Error      string `json:"error"`
}

// CheckErrorBody returns why body is not the API's JSON error for status,
// or "" when it is: an object with exactly statusCode (equal to status),
// message (a non-empty string or a list of strings) and error (the status
// text).
func CheckErrorBody(status int, body []byte) string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return fmt.Sprintf("error body is not a JSON object: %v: %q", err, body)
	}
	if len(fields) != 3 {
		return fmt.Sprintf("error body has %d fields, want statusCode, message, error: %s", len(fields), body)
	}
	var b ErrorBody
	if err := json.Unmarshal(body, &b); err != nil {
		return fmt.Sprintf("error body has wrong types: %v: %s", err, body)
	}
	if b.StatusCode != status || b.Error != http.StatusText(status) {
		return fmt.Sprintf("error body says %d %q for status %d: %s", b.StatusCode, b.Error, status, body)
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
