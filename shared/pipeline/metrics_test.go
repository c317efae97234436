package pipeline_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/metrics/emftest"
)

// linesOf returns the log lines naming request id, decoded.
func linesOf(t *testing.T, logs *testenv.LogBuffer, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		if m["request_id"] == id {
			out = append(out, m)
		}
	}
	return out
}

// requestLine is the request's one line carrying its figures, checked
// against the Embedded Metric Format's schema when it declares metrics.
func requestLine(t *testing.T, logs *testenv.LogBuffer, id string) map[string]any {
	t.Helper()
	var found map[string]any
	for _, m := range linesOf(t, logs, id) {
		if m["msg"] == "request" {
			require.Nil(t, found, "one line per request")
			found = m
		}
	}
	require.NotNil(t, found, "the request has its line")
	if _, ok := found["_aws"]; ok {
		ms, err := emftest.MetricLines(logs.String())
		require.NoError(t, err, "every metric line is valid EMF")
		require.NotEmpty(t, ms)
	}
	return found
}

func TestEachRequestLineCarriesTheRequestsFigures(t *testing.T) {
	for _, byOperation := range []bool{false, true} {
		logs := &testenv.LogBuffer{}
		opts := []testenv.Option{testenv.WithLogOutput(logs)}
		if byOperation {
			opts = append(opts, testenv.WithOperationMetrics())
		}
		env := testenv.New(t, []app.Area{testArea}, opts...)
		env.Account(t, "acct1", "co1")
		token, _ := env.Token(t, "acct1", "contacts.write", "contacts.readonly")
		const trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
		for _, tc := range []struct {
			name      string
			req       testenv.Request
			status    int
			operation string
			want      map[string]any
		}{
			{"an answered request counts its DynamoDB calls and declares no failure",
				testenv.Request{Method: "POST", Path: "/echo", Token: token, Body: `{"a":1}`}, 200, "POST /echo", map[string]any{}},
			{"a request without a token is its operation's",
				testenv.Request{Method: "POST", Path: "/echo", Body: `{}`}, 401, "POST /echo", map[string]any{"DynamoDBCalls": 0.0}},
			{"a path that names no operation is unmatched, never the raw path",
				testenv.Request{Method: "GET", Path: "/nowhere/c-secret-id", Token: token}, 404, "unmatched", map[string]any{"DynamoDBCalls": 0.0}},
			{"a panic is a 5xx of the version that answered",
				testenv.Request{Method: "GET", Path: "/panic", Token: token}, 500, "GET /panic", map[string]any{"Status5xx": 1.0, "Version": metrics.LocalVersion}},
		} {
			t.Run(fmt.Sprintf("%s (by operation: %v)", tc.name, byOperation), func(t *testing.T) {
				if tc.req.Headers == nil {
					tc.req.Headers = map[string]string{}
				}
				tc.req.Headers["X-Amzn-Trace-Id"] = trace
				resp := env.Do(t, tc.req)
				require.Equal(t, tc.status, resp.Status, "body: %s", resp.Body)
				id := resp.Header.Get("X-Request-Id")
				line := requestLine(t, logs, id)
				assert.Equal(t, "test", line["Function"], "the area's name, as its function's directory")
				for k, v := range tc.want {
					assert.Equal(t, v, line[k], k)
				}
				_, declares := line["_aws"]
				assert.Equal(t, byOperation || tc.status >= 500, declares, "a line declares metrics when something failed, or by operation")
				if byOperation {
					assert.Equal(t, tc.operation, line["Operation"])
					assert.Contains(t, line, "Latency")
					assert.Equal(t, 1.0, line["Requests"])
				} else {
					assert.NotContains(t, line, "Operation", "the line's route says it")
				}
				assert.Equal(t, "1-5759e988-bd862e3fe1be46a994272793", line["trace_id"])
				if tc.status == 200 {
					assert.GreaterOrEqual(t, line["DynamoDBCalls"], 2.0, "authentication and admission at least")
				}
				for _, l := range linesOf(t, logs, id) {
					assert.Equal(t, "1-5759e988-bd862e3fe1be46a994272793", l["trace_id"], "every line of the request names its trace: %v", l["msg"])
				}
				if tc.status >= 400 {
					var body map[string]any
					resp.JSON(t, &body)
					assert.Equal(t, id, body["requestId"], "the error body names the request as its log line does")
				}
			})
		}
	}
}

func TestAReplayedAnswerIsCountedAsAReplay(t *testing.T) {
	env, token, logs := setup(t)
	req := testenv.Request{Method: "POST", Path: "/echo", Token: token, Body: `{"a":1}`, Headers: map[string]string{"Idempotency-Key": "k-1"}}
	first := env.Do(t, req)
	require.Equal(t, http.StatusOK, first.Status)
	again := env.Do(t, req)
	require.Equal(t, http.StatusOK, again.Status)
	assert.NotContains(t, requestLine(t, logs, first.Header.Get("X-Request-Id")), "IdempotentReplays", "left out when 0")
	assert.Equal(t, 1.0, requestLine(t, logs, again.Header.Get("X-Request-Id"))["IdempotentReplays"])
}

func TestAClientsTraceHeaderReachesTheLogOnlyAsAnXRayID(t *testing.T) {
	env, token, logs := setup(t)
	resp := env.Do(t, testenv.Request{Method: "POST", Path: "/echo", Token: token, Body: `{}`,
		Headers: map[string]string{"X-Amzn-Trace-Id": `Root="}{injected`}})
	require.Equal(t, http.StatusOK, resp.Status)
	line := requestLine(t, logs, resp.Header.Get("X-Request-Id"))
	assert.NotContains(t, line, "trace_id")
	assert.NotContains(t, logs.String(), "injected")
}
