package route

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/operations"
)

func serveOne(t *testing.T, op operations.Operation, method, target, body string) (*httptest.ResponseRecorder, bool) {
	t.Helper()
	called := false
	rt, err := NewRouter([]Route{{Op: op, Handle: func(w http.ResponseWriter, r *http.Request) error {
		called = true
		w.WriteHeader(http.StatusNoContent)
		return nil
	}}})
	require.NoError(t, err)
	var reader *strings.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, nil)
	if reader != nil {
		req = httptest.NewRequest(method, target, reader)
	}
	ctx := auth.WithPrincipal(req.Context(), &auth.Principal{AccountID: "a", Scopes: []string{op.Scope}})
	rec := httptest.NewRecorder()
	rt.ServeHTTP(rec, req.WithContext(ctx))
	return rec, called
}

func message(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var b struct {
		Message string `json:"message"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &b), rec.Body.String())
	return b.Message
}

func TestABodyOnAnOperationThatTakesNoneIsABadRequest(t *testing.T) {
	for _, op := range []operations.Operation{operations.ListCampaigns, operations.DeleteTask} {
		target := strings.NewReplacer("{contactId}", "c1", "{taskId}", "t1").Replace(op.Path)
		rec, called := serveOne(t, op, op.Method, target, `{}`)
		assert.Equal(t, http.StatusBadRequest, rec.Code, op.ID())
		assert.Contains(t, message(t, rec), op.ID()+" takes no request body")
		assert.False(t, called, "the handler does not run")

		rec, called = serveOne(t, op, op.Method, target, "")
		assert.Equal(t, http.StatusNoContent, rec.Code, "%s without a body runs", op.ID())
		assert.True(t, called)
	}
	rec, called := serveOne(t, operations.DeleteCoupon, "DELETE", "/payments/coupon", `{}`)
	assert.Equal(t, http.StatusNoContent, rec.Code, "a delete that takes a body gets it")
	assert.True(t, called)
}

func TestPathsThatAreNotCanonicalAnswerJSONNotARedirect(t *testing.T) {
	op := operations.DeleteTask
	for _, target := range []string{
		"/contacts/c1/tasks/../tasks/t1",
		"/contacts/c1/tasks/./t1",
		"/contacts//c1/tasks/t1",
	} {
		rec, called := serveOne(t, op, op.Method, target, "")
		assert.Equal(t, http.StatusNotFound, rec.Code, target)
		assert.Equal(t, "application/json; charset=utf-8", rec.Header().Get("Content-Type"), target)
		assert.Contains(t, message(t, rec), "No operation is served", target)
		assert.False(t, called, target)
	}
}

// logFacts is a Recorder, as the pipeline's writer is.
type logFacts struct {
	http.ResponseWriter
	operation string
	cause     error
}

func (f *logFacts) RecordOperation(id string) { f.operation = id }
func (f *logFacts) RecordCause(err error)     { f.cause = err }

// middlewareWriter wraps the writer it is given, as a middleware between the
// pipeline and the router would.
type middlewareWriter struct{ http.ResponseWriter }

func (m middlewareWriter) Unwrap() http.ResponseWriter { return m.ResponseWriter }

func TestTheRouterTellsTheLogWhichOperationServedAndWhyItFailed(t *testing.T) {
	op := operations.ListCampaigns
	failure := errors.New("table on fire")
	rt, err := NewRouter([]Route{{Op: op, Handle: func(http.ResponseWriter, *http.Request) error { return failure }}})
	require.NoError(t, err)
	for name, wrap := range map[string]func(http.ResponseWriter) http.ResponseWriter{
		"when it writes to the recorder itself":         func(w http.ResponseWriter) http.ResponseWriter { return w },
		"when a middleware's writer wraps the recorder": func(w http.ResponseWriter) http.ResponseWriter { return middlewareWriter{w} },
	} {
		t.Run(name, func(t *testing.T) {
			facts := &logFacts{ResponseWriter: httptest.NewRecorder()}
			req := httptest.NewRequest("GET", "/campaigns/?locationId=a", nil)
			req = req.WithContext(auth.WithPrincipal(req.Context(), &auth.Principal{AccountID: "a", Scopes: []string{op.Scope}}))
			rt.ServeHTTP(wrap(facts), req)
			assert.Equal(t, op.ID(), facts.operation)
			assert.ErrorIs(t, facts.cause, failure, "the 500's cause is kept for the log")
			assert.Equal(t, http.StatusInternalServerError, facts.ResponseWriter.(*httptest.ResponseRecorder).Code)
			assert.NotContains(t, facts.ResponseWriter.(*httptest.ResponseRecorder).Body.String(), "fire", "never shown")
		})
	}
}
