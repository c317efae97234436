package httpserve_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/httpserve"
)

func TestTheTraceIDIsTheRootOfAnXRayHeader(t *testing.T) {
	for _, tc := range []struct{ name, header, want string }{
		{"Lambda's header gives its root", "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1", "1-5759e988-bd862e3fe1be46a994272793"},
		{"the root may come later, with spaces", "Self=1-67891234-12456789abcdef012345678; Root=1-67891233-abcdef012345678912345678", "1-67891233-abcdef012345678912345678"},
		{"no header is no trace", "", ""},
		{"a root not in X-Ray's form is no trace", `Root=1-"}{,"level":"x`, ""},
		{"upper-case hex is not X-Ray's form", "Root=1-5759E988-BD862E3FE1BE46A994272793", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, httpserve.TraceRoot(tc.header))
		})
	}
}

func TestARequestTakesItsTraceFromItsHeaderUnlessItHasOne(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("X-Amzn-Trace-Id", "Root=1-5759e988-bd862e3fe1be46a994272793")
	got, id := httpserve.IdentifyRequest(r)
	assert.NotEmpty(t, id)
	assert.Equal(t, "1-5759e988-bd862e3fe1be46a994272793", httpserve.TraceID(got.Context()))

	lambda := r.WithContext(httpserve.WithTraceID(httpserve.WithRequestID(context.Background(), "gw-1"), "1-00000000-000000000000000000000001"))
	got, id = httpserve.IdentifyRequest(lambda)
	assert.Equal(t, "gw-1", id)
	assert.Equal(t, "1-00000000-000000000000000000000001", httpserve.TraceID(got.Context()), "the invocation's trace wins over a header")
}

func TestEveryLineLoggedWithARequestsContextNamesTheRequest(t *testing.T) {
	var buf strings.Builder
	logger := slog.New(httpserve.WithIDs(slog.NewJSONHandler(&buf, nil)))
	ctx := httpserve.WithTraceID(httpserve.WithRequestID(context.Background(), "req-1"), "1-5759e988-bd862e3fe1be46a994272793")
	t.Run("a line of the request gets both ids", func(t *testing.T) {
		buf.Reset()
		logger.InfoContext(ctx, "idempotency: answer not kept")
		lines := logLines(t, &buf)
		require.Len(t, lines, 1)
		assert.Equal(t, "req-1", lines[0]["request_id"])
		assert.Equal(t, "1-5759e988-bd862e3fe1be46a994272793", lines[0]["trace_id"])
	})
	t.Run("a line naming the request itself names it once", func(t *testing.T) {
		buf.Reset()
		logger.With("component", "x").LogAttrs(ctx, slog.LevelInfo, "request", slog.String("request_id", "req-1"))
		assert.Equal(t, 1, strings.Count(buf.String(), `"request_id"`), buf.String())
		assert.Equal(t, 1, strings.Count(buf.String(), `"trace_id"`), buf.String())
	})
	t.Run("a line outside any request gets neither", func(t *testing.T) {
		buf.Reset()
		logger.Info("webhook sweep")
		assert.NotContains(t, buf.String(), "request_id")
		assert.NotContains(t, buf.String(), "trace_id")
	})
}
