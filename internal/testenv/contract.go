package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
)

// The contract check: every exchange that goes through Send is held against
// api/openapi.yaml.
//
//   - Every answer must be one the document allows for the operation: a
//     listed status, its headers and its body schema. A mismatch fails the
//     test, naming the operation and the mismatch.
//   - Tests send invalid requests on purpose, so a request the document
//     rejects is fine when the server refuses it too (4xx). A request the
//     document rejects but the server accepts (2xx) fails the test: one of
//     the two is wrong. A request the document accepts and the server
//     refuses is fine: some rules (a record's existence, relations between
//     fields) are beyond a schema.
//   - A request that names none of the API's operations (shared/operations)
//     is either for a test-only area (PingArea and the like), or must get
//     an error in the document's error shape. An operation of the API that
//     the document lacks fails the test.
//
// CONTRACT_LOG=<file> appends one line per checked exchange to the file
// (operation, status, whether the request was checked, and how long
// the check took), for counting what a run covered and what checking costs.

// contractChecker is the document, loaded and indexed once per test binary.
type contractChecker struct {
	router   routers.Router
	errorRef *openapi3.SchemaRef
	// served matches the patterns of the API's operations, to tell them
	// from the routes of test-only areas.
	served *http.ServeMux
	logMu  sync.Mutex
	log    *os.File
}

var contract struct {
	once    sync.Once
	checker *contractChecker
	err     error
}

func loadContract() (*contractChecker, error) {
	contract.once.Do(func() { contract.checker, contract.err = newContractChecker() })
	return contract.checker, contract.err
}

func newContractChecker() (*contractChecker, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.YAML())
	if err != nil {
		return nil, fmt.Errorf("load api/openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("api/openapi.yaml is not a valid OpenAPI document: %w", err)
	}
	// Match operations on any host: tests serve on random local ports.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route api/openapi.yaml: %w", err)
	}
	errorRef := doc.Components.Schemas["Error"]
	if errorRef == nil {
		return nil, fmt.Errorf("api/openapi.yaml has no Error schema")
	}
	c := &contractChecker{router: router, errorRef: errorRef, served: http.NewServeMux()}
	for _, op := range operations.All {
		for _, pattern := range op.Patterns() {
			c.served.Handle(pattern, http.NotFoundHandler())
		}
	}
	if path := os.Getenv("CONTRACT_LOG"); path != "" {
		if c.log, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// exchange is one request and its answer, as sent and received.
type exchange struct {
	method, url string
	reqHeader   http.Header
	reqBody     []byte
	status      int
	respHeader  http.Header
	respBody    []byte
}

// checkContract fails t when the exchange contradicts the document.
func checkContract(t testing.TB, x exchange) {
	t.Helper()
	c, err := loadContract()
	if err != nil {
		t.Fatalf("contract: %v", err)
	}
	if err := c.check(x); err != nil {
		t.Errorf("contract: %v\nrequest: %s %s %s\nanswer: %d %s", err, x.method, x.url, clip(x.reqBody), x.status, clip(x.respBody))
	}
}

func (c *contractChecker) check(x exchange) error {
	start := time.Now()
	ctx := context.Background()
	req, err := x.request()
	if err != nil {
		return err
	}
	if !route.IsCanonical(req.URL.EscapedPath()) {
		// A path with an empty, "." or ".." segment names no operation,
		// whatever a template would make of it ("." as an id).
		return c.checkUndocumented(x, req, start)
	}
	found, params, err := c.findRoute(req)
	if err != nil {
		return c.checkUndocumented(x, req, start)
	}
	op := found.Operation.OperationID
	named := fmt.Sprintf("%s (%s %s)", op, found.Method, found.Path)
	in := &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      found,
		Options: &openapi3filter.Options{
			MultiError:          true,
			SkipSettingDefaults: true,
			AuthenticationFunc:  bearerPresent,
		},
	}
	// Only a request the server accepted can contradict the document: a
	// refused one is consistent whatever the document says of it.
	requestChecked := x.status < 300
	if requestChecked {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			return fmt.Errorf("%s: the server accepted (%d) a request the document rejects: %v", named, x.status, err)
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 x.status,
		Header:                 x.respHeader,
		Body:                   io.NopCloser(bytes.NewReader(x.respBody)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("%s: the answer %d does not match the document: %v", named, x.status, err)
	}
	c.record(op, x.status, requestChecked, start)
	return nil
}

// findRoute finds the documented operation of req. A path the spec writes
// with a trailing slash is also served without it.
func (c *contractChecker) findRoute(req *http.Request) (*routers.Route, map[string]string, error) {
	route, params, err := c.router.FindRoute(req)
	if err == nil || strings.HasSuffix(req.URL.Path, "/") {
		return route, params, err
	}
	alt := req.Clone(req.Context())
	alt.URL.Path += "/"
	alt.URL.RawPath = ""
	if route, params, err2 := c.router.FindRoute(alt); err2 == nil {
		return route, params, nil
	}
	return nil, nil, err
}

// checkUndocumented holds an exchange that names no documented operation.
// An operation of the API must be in the document; any other route is a
// test-only area's, whose successes are its own business, but every error
// has the document's error shape.
func (c *contractChecker) checkUndocumented(x exchange, req *http.Request, start time.Time) error {
	id := x.method + " " + req.URL.Path
	if _, pattern := c.served.Handler(req); pattern != "" && route.IsCanonical(req.URL.EscapedPath()) {
		return fmt.Errorf("%s is an operation of the API (%s) that the document does not describe", id, pattern)
	}
	if x.status < 400 {
		c.record("test-only "+id, x.status, false, start)
		return nil
	}
	value, err := decodeJSON(x.respBody)
	if err != nil {
		return fmt.Errorf("%s (not in the document) answered %d with a body that is not JSON: %v", id, x.status, err)
	}
	if err := c.errorRef.Value.VisitJSON(value, openapi3.EnableJSONSchema2020()); err != nil {
		return fmt.Errorf("%s (not in the document) answered %d with a body that is not the error shape: %v", id, x.status, err)
	}
	c.record("undocumented", x.status, false, start)
	return nil
}

func (c *contractChecker) record(op string, status int, requestChecked bool, start time.Time) {
	if c.log == nil {
		return
	}
	took := time.Since(start)
	c.logMu.Lock()
	defer c.logMu.Unlock()
	fmt.Fprintf(c.log, "%s\t%d\trequest-checked=%t\t%dus\n", op, status, requestChecked, took.Microseconds())
}

func (x exchange) request() (*http.Request, error) {
	var body io.Reader = http.NoBody
	if len(x.reqBody) > 0 {
		body = bytes.NewReader(x.reqBody)
	}
	req, err := http.NewRequest(x.method, x.url, body)
	if err != nil {
		return nil, err
	}
	req.Header = x.reqHeader.Clone()
	return req, nil
}

// bearerPresent is the document's security check as far as a document can
// tell: a bearer token is sent. Whether it is valid is the server's call.
func bearerPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	h := in.RequestValidationInput.Request.Header.Get("Authorization")
	if token, ok := strings.CutPrefix(h, "Bearer "); !ok || strings.TrimSpace(token) == "" {
		return fmt.Errorf("no bearer token")
	}
	return nil
}

func decodeJSON(b []byte) (any, error) {
	var v any
	err := json.Unmarshal(b, &v)
	return v, err
}

func clip(b []byte) string {
	const max = 2000
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}
