package httpserve_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/httpserve"
)

// logLines decodes the JSON lines logged into buf.
func logLines(t *testing.T, buf *strings.Builder) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, raw := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var line map[string]any
		require.NoError(t, json.Unmarshal([]byte(raw), &line), raw)
		out = append(out, line)
	}
	return out
}

func TestTheWriterRecordsTheStatusTheClientGets(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(w http.ResponseWriter)
		want  int
	}{
		{"nothing written is no status yet", func(http.ResponseWriter) {}, 0},
		{"a body without a header is 200", func(w http.ResponseWriter) { _, _ = w.Write([]byte("x")) }, http.StatusOK},
		{"a second status changes nothing", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusNotFound)
			w.WriteHeader(http.StatusInternalServerError)
		}, http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			w := &httpserve.Writer{ResponseWriter: rec}
			tc.write(w)
			assert.Equal(t, tc.want, w.Status())
			if tc.want != 0 {
				assert.Equal(t, tc.want, rec.Code)
			}
		})
	}
}

func TestAPanicIsLoggedWithItsStackAndReturnedForTheAnswer(t *testing.T) {
	var buf strings.Builder
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	ctx := context.Background()

	t.Run("a handler that returns is no error and no line", func(t *testing.T) {
		assert.NoError(t, httpserve.Recover(ctx, logger, func() {}))
		assert.Empty(t, buf.String())
	})
	t.Run("a panic is an error and one line with its value and stack", func(t *testing.T) {
		err := httpserve.Recover(ctx, logger, func() { panic("boom") }, slog.String("request_id", "req-1"))
		require.EqualError(t, err, "panic: boom")
		lines := logLines(t, &buf)
		require.Len(t, lines, 1)
		assert.Equal(t, "panic", lines[0]["msg"])
		assert.Equal(t, "ERROR", lines[0]["level"])
		assert.Equal(t, "req-1", lines[0]["request_id"])
		assert.Equal(t, "boom", lines[0]["panic"])
		assert.Contains(t, lines[0]["stack"], "TestAPanicIsLoggedWithItsStackAndReturnedForTheAnswer", "the stack shows where it panicked")
	})
	t.Run("a deliberate abort goes on to net/http", func(t *testing.T) {
		assert.PanicsWithValue(t, http.ErrAbortHandler, func() {
			_ = httpserve.Recover(ctx, logger, func() { panic(http.ErrAbortHandler) })
		})
	})
}

func TestTheLogLineIsAnErrorOnlyFor5xxAndAWarningForARefusalThatMeansSomething(t *testing.T) {
	cause := errors.New("engine gone")
	for _, tc := range []struct {
		name      string
		line      httpserve.Line
		wantLevel string
		want      map[string]any
		absent    []string
	}{
		{"an API answer carries every fact",
			httpserve.Line{RequestID: "req-1", Method: "GET", Route: "GET /contacts/", Path: "/contacts/", Status: 200, Duration: 1500 * time.Microsecond, Account: "acct1"},
			"INFO", map[string]any{"request_id": "req-1", "method": "GET", "route": "GET /contacts/", "path": "/contacts/", "status": 200.0, "duration_ms": 1.5, "account": "acct1"},
			[]string{"error"}},
		{"a 4xx is no error, whatever its cause",
			httpserve.Line{Method: "POST", Route: "POST /portal/sign-in", Status: 401, Cause: cause},
			"INFO", map[string]any{"status": 401.0}, []string{"error"}},
		{"a refusal that means something is a warning naming it, never its cause",
			httpserve.Line{Method: "POST", Route: "POST /portal/sign-in", Status: 429, Refusal: "lockout", Cause: cause},
			"WARN", map[string]any{"refusal": "lockout"}, []string{"error"}},
		{"a 5xx is an error with its cause",
			httpserve.Line{Method: "GET", Route: "GET /portal/accounts", Status: 503, Cause: cause},
			"ERROR", map[string]any{"error": "engine gone"}, nil},
		{"what a server does not know is left out",
			httpserve.Line{Method: "GET", Route: "GET /portal/invite/{code}", Status: 200},
			"INFO", map[string]any{"route": "GET /portal/invite/{code}"}, []string{"request_id", "path", "account"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf strings.Builder
			tc.line.Log(context.Background(), slog.New(slog.NewJSONHandler(&buf, nil)), "request")
			lines := logLines(t, &buf)
			require.Len(t, lines, 1)
			assert.Equal(t, tc.wantLevel, lines[0]["level"])
			for k, v := range tc.want {
				assert.Equal(t, v, lines[0][k], k)
			}
			for _, k := range tc.absent {
				assert.NotContains(t, lines[0], k)
			}
		})
	}
}

func TestTheDeadlineBoundsEachRequestsWork(t *testing.T) {
	var deadline time.Time
	var bounded bool
	next := http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { deadline, bounded = r.Context().Deadline() })

	start := time.Now()
	httpserve.WithDeadline(next, 2*time.Second).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	require.True(t, bounded)
	assert.WithinDuration(t, start.Add(2*time.Second), deadline, time.Second)

	httpserve.WithDeadline(next, 0).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	assert.False(t, bounded, "no deadline is configured")
}
