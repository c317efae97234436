package pipeline_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/idempotency"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/wiring"
)

// A test area whose operations exercise the pipeline itself.
var (
	echoOp   = operations.Operation{Method: "POST", Path: "/echo", Area: "test", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	panicOp  = operations.Operation{Method: "GET", Path: "/panic", Area: "test", Scope: "contacts.readonly", ValidationStatus: 422}
	silentOp = operations.Operation{Method: "GET", Path: "/silent", Area: "test", Scope: "contacts.readonly", ValidationStatus: 422}
	failOp   = operations.Operation{Method: "GET", Path: "/fail", Area: "test", Scope: "contacts.readonly", ValidationStatus: 400}
)

var testArea = app.Area{Name: "test", Routes: func(wiring.Deps) []route.Route {
	return []route.Route{
		{Op: echoOp, Handle: func(w http.ResponseWriter, r *http.Request) error {
			var body map[string]any
			if err := httpio.DecodeJSON(r, &body); err != nil {
				return err
			}
			p, _ := auth.PrincipalFrom(r.Context())
			return httpio.WriteJSON(w, http.StatusOK, map[string]any{"echo": body, "account": p.AccountID})
		}},
		{Op: panicOp, Handle: func(http.ResponseWriter, *http.Request) error { panic("boom: secret internals") }},
		{Op: silentOp, Handle: func(http.ResponseWriter, *http.Request) error { return nil }},
		{Op: failOp, Handle: func(http.ResponseWriter, *http.Request) error {
			return apierror.Invalid("name is required", "size must be positive")
		}},
	}
}, GuardRetries: idempotency.GuardRoutes}

func setup(t *testing.T) (*testenv.Env, string, *testenv.LogBuffer) {
	logs := &testenv.LogBuffer{}
	env := testenv.New(t, []app.Area{testArea}, testenv.WithLogOutput(logs))
	env.Account(t, "acct1", "co1")
	token, _ := env.Token(t, "acct1", "contacts.write", "contacts.readonly")
	return env, token, logs
}

func TestPipelineChecksHeadersBeforeAuthentication(t *testing.T) {
	env, token, _ := setup(t)
	cases := []struct {
		name    string
		req     testenv.Request
		status  int
		message string
	}{
		{"a missing Version header is 400", testenv.Request{Headers: map[string]string{"Version": ""}}, 400, "Version header is required"},
		{"a wrong Version header is 400", testenv.Request{Headers: map[string]string{"Version": "2021-04-15"}}, 400, "not supported"},
		{"an Accept header excluding JSON is 406", testenv.Request{Headers: map[string]string{"Accept": "text/html"}}, 406, "application/json"},
		{"an Accept header giving JSON quality zero is 406", testenv.Request{Headers: map[string]string{"Accept": "application/json;q=0, text/plain"}}, 406, "application/json"},
		{"a body that is not JSON is 415", testenv.Request{Headers: map[string]string{"Content-Type": "text/plain"}}, 415, "Content-Type: application/json"},
		{"a body without Content-Type is 415", testenv.Request{Headers: map[string]string{"Content-Type": ""}}, 415, "Content-Type"},
		{"a body in another charset is 415", testenv.Request{Headers: map[string]string{"Content-Type": "application/json; charset=latin1"}}, 415, "Content-Type"},
		{"a body over 1 MiB is 413", testenv.Request{Body: `{"x":"` + strings.Repeat("a", 1<<20) + `"}`}, 413, "exceeds"},
		{"malformed JSON is 400", testenv.Request{Body: `{"x":`}, 400, "malformed JSON"},
		{"a JSON array is 400", testenv.Request{Body: `[1]`}, 400, "JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.Method, req.Path, req.Token = "POST", "/echo", token
			if req.Body == nil {
				req.Body = `{"hello":"world"}`
			}
			msg := env.Do(t, req).RequireError(t, tc.status)
			assert.Contains(t, msg, tc.message)
		})
	}
	t.Run("header checks come before authentication", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "POST", Path: "/echo", Body: `{}`, Headers: map[string]string{"Version": "1"}})
		resp.RequireError(t, http.StatusBadRequest)
	})
}

func TestPipelineAcceptsReasonableAcceptHeaders(t *testing.T) {
	env, token, _ := setup(t)
	for _, accept := range []string{"", "*/*", "application/*", "application/json", "text/html, application/json;q=0.5", "application/json; charset=utf-8"} {
		t.Run("Accept "+accept, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "POST", Path: "/echo", Token: token, Body: `{"a":1}`, Headers: map[string]string{"Accept": accept}})
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			assert.JSONEq(t, `{"echo":{"a":1},"account":"acct1"}`, string(resp.Body))
		})
	}
}

func TestPipelineRecoversFromPanicsWithoutLeakingThem(t *testing.T) {
	env, token, logs := setup(t)
	resp := env.Do(t, testenv.Request{Method: "GET", Path: "/panic", Token: token})
	msg := resp.RequireError(t, http.StatusInternalServerError)
	assert.Equal(t, "Internal server error", msg)
	assert.NotContains(t, string(resp.Body), "secret internals")
	assert.Contains(t, logs.String(), "secret internals", "the cause is logged")
}

func TestPipelineAnswersEvenWhenAHandlerWritesNothing(t *testing.T) {
	env, token, _ := setup(t)
	env.Do(t, testenv.Request{Method: "GET", Path: "/silent", Token: token}).RequireError(t, http.StatusInternalServerError)
}

func TestValidationFailuresAnswerTheOperationsStatusWithEveryViolation(t *testing.T) {
	env, token, _ := setup(t)
	resp := env.Do(t, testenv.Request{Method: "GET", Path: "/fail", Token: token})
	resp.RequireError(t, http.StatusBadRequest)
	var body struct{ Message []string }
	resp.JSON(t, &body)
	assert.Equal(t, []string{"name is required", "size must be positive"}, body.Message)

	resp = env.Do(t, testenv.Request{Method: "POST", Path: "/echo", Token: token, Body: `{"a":1,"b":`})
	resp.RequireError(t, http.StatusBadRequest)
}

func TestUnknownRoutesAndMethodsAnswerJSON(t *testing.T) {
	env, token, _ := setup(t)
	env.Do(t, testenv.Request{Method: "GET", Path: "/nowhere", Token: token}).RequireError(t, http.StatusNotFound)
	resp := env.Do(t, testenv.Request{Method: "DELETE", Path: "/echo", Token: token})
	resp.RequireError(t, http.StatusMethodNotAllowed)
	assert.Equal(t, "POST", resp.Header.Get("Allow"))
}

func TestEveryAnswerCarriesARequestIDAndOneLogLineWithoutSecrets(t *testing.T) {
	env, token, logs := setup(t)
	resp := env.Do(t, testenv.Request{Method: "POST", Path: "/echo", Token: token, Body: `{"password":"hunter2"}`})
	require.Equal(t, http.StatusOK, resp.Status)
	id := resp.Header.Get("X-Request-Id")
	require.NotEmpty(t, id)

	var line map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), "every log line is JSON: %s", l)
		if m["request_id"] == id {
			require.Nil(t, line, "one log line per request")
			line = m
		}
	}
	require.NotNil(t, line)
	assert.Equal(t, "POST", line["method"])
	assert.Equal(t, "POST /echo", line["route"])
	assert.EqualValues(t, 200, line["status"])
	assert.Equal(t, "acct1", line["account"])
	assert.Contains(t, line, "duration_ms")
	assert.NotContains(t, logs.String(), token, "the token is never logged")
	assert.NotContains(t, logs.String(), "hunter2", "bodies are never logged")
}

func TestATokenWithoutTheOperationsScopeIsForbidden(t *testing.T) {
	env, _, _ := setup(t)
	readOnly, _ := env.Token(t, "acct1", "contacts.readonly")
	msg := env.Do(t, testenv.Request{Method: "POST", Path: "/echo", Token: readOnly, Body: `{}`}).RequireError(t, http.StatusForbidden)
	assert.Contains(t, msg, "contacts.write")
}

func TestAmbiguousBodiesAreRefusedRatherThanGuessed(t *testing.T) {
	env, token, _ := setup(t)
	cases := []struct {
		name    string
		headers map[string]string
		add     http.Header
		status  int
		message string
	}{
		{"two Content-Type headers are 400", nil, http.Header{"Content-Type": {"application/json"}}, 400, "more than one Content-Type"},
		{"two Content-Type headers that disagree are 400", nil, http.Header{"Content-Type": {"text/plain"}}, 400, "more than one Content-Type"},
		{"a Content-Type listing two media types is 400", map[string]string{"Content-Type": "application/json, text/plain"}, nil, 400, "more than one Content-Type"},
		{"a gzip body is 415", map[string]string{"Content-Encoding": "gzip"}, nil, 415, `Content-Encoding "gzip" is not supported`},
		{"a body with two encodings is 415", map[string]string{"Content-Encoding": "identity, br"}, nil, 415, `Content-Encoding "br"`},
		{"a second Content-Encoding header is 415", map[string]string{"Content-Encoding": "identity"}, http.Header{"Content-Encoding": {"deflate"}}, 415, `"deflate"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "POST", Path: "/echo", Token: token, Body: `{"a":1}`, Headers: tc.headers, AddHeaders: tc.add})
			assert.Contains(t, resp.RequireError(t, tc.status), tc.message)
		})
	}
	t.Run("an identity Content-Encoding passes", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "POST", Path: "/echo", Token: token, Body: `{"a":1}`, Headers: map[string]string{"Content-Encoding": "identity"}})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	})
	t.Run("a charset parameter holding a comma is one media type", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "POST", Path: "/echo", Token: token, Body: `{"a":1}`, Headers: map[string]string{"Content-Type": `application/json; x="a,b"`}})
		require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
	})
}

func TestARequestThatNamesNoOperationIs404BeforeAnyHeaderIsChecked(t *testing.T) {
	env, _, logs := setup(t)
	for _, path := range []string{"/nowhere", "/favicon.ico", "//echo", "/echo/.", "/x/../echo"} {
		t.Run(path+" without Version or token", func(t *testing.T) {
			resp := env.Do(t, testenv.Request{Method: "POST", Path: path, Bare: true, Body: "not json"})
			resp.RequireError(t, http.StatusNotFound)
			id := resp.Header.Get("X-Request-Id")
			require.NotEmpty(t, id)
			assert.Contains(t, logs.String(), `"request_id":"`+id+`"`, "the request has its log line")
		})
	}
	t.Run("a known path with another method is 405 naming the allowed one", func(t *testing.T) {
		resp := env.Do(t, testenv.Request{Method: "GET", Path: "/echo", Bare: true})
		resp.RequireError(t, http.StatusMethodNotAllowed)
		assert.Equal(t, "POST", resp.Header.Get("Allow"))
	})
}
