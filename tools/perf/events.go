package perf

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bizplatform/api/internal/catalog"
)

// Event is one API Gateway (HTTP API, payload 2.0) sample event of events/.
type Event struct {
	File     string // events/<area>/<name>.json, relative to the root
	Area     string
	RouteKey string // the operation: "DELETE /contacts/{contactId}/tasks/{taskId}"

	RawPath         string            `json:"rawPath"`
	RawQueryString  string            `json:"rawQueryString"`
	Headers         map[string]string `json:"headers"`
	Body            string            `json:"body"`
	IsBase64Encoded bool              `json:"isBase64Encoded"`
	RequestContext  struct {
		HTTP struct {
			Method string `json:"method"`
		} `json:"http"`
	} `json:"requestContext"`
}

// ReadEvents reads every sample event under root/events, sorted by file.
func ReadEvents(root string) ([]Event, error) {
	files, err := filepath.Glob(filepath.Join(root, "events", "*", "*.json"))
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
		var ev struct {
			Event
			RouteKey string `json:"routeKey"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if ev.RouteKey == "" || filepath.Base(filepath.Dir(f)) == catalog.Portal {
			continue // env.json; the portal's pages are not API operations
		}
		e := ev.Event
		e.RouteKey = ev.RouteKey
		e.Area = filepath.Base(filepath.Dir(f))
		e.File, _ = filepath.Rel(root, f)
		out = append(out, e)
	}
	return out, nil
}

// Name is the event's file without the events/ folder and the extension:
// "products/update-inventory".
func (e Event) Name() string {
	return strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(e.File), "events/"), ".json")
}

// Method is the event's HTTP method.
func (e Event) Method() string { return e.RequestContext.HTTP.Method }

// BodyBytes is the event's request body.
func (e Event) BodyBytes() ([]byte, error) {
	if e.IsBase64Encoded {
		return base64.StdEncoding.DecodeString(e.Body)
	}
	return []byte(e.Body), nil
}

// Request is the event as an HTTP request to baseURL, with the event's
// headers (its token included) minus the ones API Gateway adds.
func (e Event) Request(baseURL string) (*http.Request, error) {
	body, err := e.BodyBytes()
	if err != nil {
		return nil, err
	}
	return e.RequestWith(baseURL, e.RawPath, body)
}

// RequestWith is Request with another path and body (a record made for the
// run, a fresh unique name) and the event's query and headers.
func (e Event) RequestWith(baseURL, path string, body []byte) (*http.Request, error) {
	target := baseURL + path
	if e.RawQueryString != "" {
		target += "?" + e.RawQueryString
	}
	r, err := http.NewRequest(e.Method(), target, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	if len(body) == 0 {
		r.Body = http.NoBody
	}
	for k, v := range e.Headers {
		switch strings.ToLower(k) {
		case "host", "content-length", "x-forwarded-for", "x-forwarded-port", "x-forwarded-proto":
			continue
		}
		r.Header.Set(k, v)
	}
	return r, nil
}
