package metrics_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/metrics/emftest"
)

var at = time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)

// logLine writes attrs as one slog JSON line, as the servers do, and
// returns it.
func logLine(t *testing.T, attrs []slog.Attr) []byte {
	t.Helper()
	var buf strings.Builder
	slog.New(slog.NewJSONHandler(&buf, nil)).LogAttrs(context.Background(), slog.LevelInfo, "request",
		append([]slog.Attr{slog.String("request_id", "req-1")}, attrs...)...)
	return []byte(strings.TrimSpace(buf.String()))
}

func decode(t *testing.T, line []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(line, &m))
	return m
}

func TestARequestLineIsAValidEMFDocumentWithItsFigures(t *testing.T) {
	lines := metrics.NewMeter("BizPlatform/test", "").RequestLines(metrics.Named("contacts"))
	for _, tc := range []struct {
		name      string
		operation string
		status    int
		record    func(r *metrics.Request)
		want      map[string]float64
		absent    []string
		wantOp    string
	}{
		{"a 200 counts one request and no error, and carries no rare zero", "GET /contacts/", 200, func(r *metrics.Request) { r.CountCall(); r.CountCall() },
			map[string]float64{"Requests": 1, "Status4xx": 0, "Status5xx": 0, "DynamoDBCalls": 2},
			[]string{"Status429", "DynamoDBThrottles", "IdempotentReplays"}, "GET /contacts/"},
		{"a 401 is a 4xx", "GET /contacts/", 401, nil, map[string]float64{"Status4xx": 1, "Status5xx": 0, "DynamoDBCalls": 0}, []string{"Status429"}, "GET /contacts/"},
		{"a 429 is a 4xx and a 429", "GET /contacts/", 429, nil, map[string]float64{"Status4xx": 1, "Status429": 1}, nil, "GET /contacts/"},
		{"a 503 after a throttle is a 5xx with its throttle", "DELETE /contacts/{contactId}/tasks/{taskId}", 503,
			func(r *metrics.Request) { r.CountCall(); r.CountThrottle(); r.CountThrottle() },
			map[string]float64{"Status5xx": 1, "Status4xx": 0, "DynamoDBCalls": 1, "DynamoDBThrottles": 2}, []string{"Status429"}, "DELETE /contacts/{contactId}/tasks/{taskId}"},
		{"a replayed answer counts a replay", "POST /contacts/", 201, func(r *metrics.Request) { r.Replayed() }, map[string]float64{"IdempotentReplays": 1}, nil, "POST /contacts/"},
		{"a request that named no operation is unmatched", "", 404, nil, map[string]float64{"Status4xx": 1}, nil, "unmatched"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, r := metrics.Begin(context.Background())
			require.Same(t, r, metrics.RequestFrom(ctx))
			if tc.record != nil {
				tc.record(r)
			}
			line := logLine(t, lines.Attrs(at, tc.operation, tc.status, 12500*time.Microsecond, r))
			require.NoError(t, emftest.Validate(line), "%s", line)
			m := decode(t, line)
			for k, v := range tc.want {
				assert.Equal(t, v, m[k], k)
			}
			for _, k := range tc.absent {
				assert.NotContains(t, m, k, "a rare metric is left out when 0")
				assert.NotContains(t, string(line), `"`+k+`"`, "and so is its declaration")
			}
			assert.Equal(t, 12.5, m["Latency"])
			assert.Equal(t, "contacts", m["Function"])
			assert.Equal(t, tc.wantOp, m["Operation"])
			assert.Equal(t, "req-1", m["request_id"], "the log line's own members stay")
			aws := m["_aws"].(map[string]any)
			assert.Equal(t, float64(at.UnixMilli()), aws["Timestamp"])
			ds := aws["CloudWatchMetrics"].([]any)
			require.Len(t, ds, 2, "one directive per group of dimension sets")
			byOp, byFunction := ds[0].(map[string]any), ds[1].(map[string]any)
			assert.Equal(t, "BizPlatform/test", byOp["Namespace"])
			assert.Equal(t, "BizPlatform/test", byFunction["Namespace"])
			assert.Equal(t, []any{[]any{"Function", "Operation"}, []any{"Function"}}, byOp["Dimensions"])
			assert.Equal(t, []any{[]any{"Function"}}, byFunction["Dimensions"])
			assert.Equal(t, names(metrics.OperationMetrics), names(byOp["Metrics"]), "requests, 5xx and latency by operation")
			declared := []string{"Status4xx", "DynamoDBCalls"}
			for _, rare := range []string{"Status429", "DynamoDBThrottles", "IdempotentReplays"} {
				if tc.want[rare] != 0 {
					declared = append(declared, rare)
				}
			}
			assert.Equal(t, declared, names(byFunction["Metrics"]), "4xx, DynamoDB calls and the rare metrics that are not 0, by function")
		})
	}
}

// names are the metric names of a directive's Metrics (decoded or not).
func names(ms any) []string {
	var out []string
	switch ms := ms.(type) {
	case []metrics.Metric:
		for _, m := range ms {
			out = append(out, m.Name)
		}
	case []any:
		for _, m := range ms {
			out = append(out, m.(map[string]any)["Name"].(string))
		}
	}
	return out
}

func TestTheOAuthServerAndThePortalGoByFunctionAloneWithTheirEvents(t *testing.T) {
	lines := metrics.NewMeter("", "").ServerLines(metrics.OAuthFunction)
	ctx, r := metrics.Begin(context.Background())
	metrics.RequestFrom(ctx).Count(metrics.OAuthRefreshReuse)
	line := logLine(t, lines.Attrs(at, "POST /oauth/token", 400, time.Millisecond, r))
	require.NoError(t, emftest.Validate(line), "%s", line)
	m := decode(t, line)
	assert.Equal(t, 1.0, m["OAuthRefreshReuse"])
	assert.NotContains(t, m, "OAuthCodeExchanges", "an event is only on the lines where it happened")
	assert.NotContains(t, m, "Operation", "its many routes are no dimension")
	ds := m["_aws"].(map[string]any)["CloudWatchMetrics"].([]any)
	require.Len(t, ds, 1, "every metric in one directive")
	d := ds[0].(map[string]any)
	assert.Equal(t, metrics.DefaultNamespace, d["Namespace"])
	assert.Equal(t, []any{[]any{"Function"}}, d["Dimensions"])
	assert.Equal(t, []string{"Requests", "Status5xx", "Latency", "Status4xx", "DynamoDBCalls", "OAuthRefreshReuse"}, names(d["Metrics"]))

	_, quiet := metrics.Begin(context.Background())
	plain := logLine(t, lines.Attrs(at, "POST /oauth/token", 200, time.Millisecond, quiet))
	require.NoError(t, emftest.Validate(plain), "%s", plain)
	assert.NotContains(t, string(plain), "OAuth", "a request without events declares none")

	_, portal := metrics.Begin(context.Background())
	portal.Count(metrics.PortalLockouts)
	undeclared := logLine(t, lines.Attrs(at, "POST /oauth/token", 200, time.Millisecond, portal))
	assert.NotContains(t, string(undeclared), "PortalLockouts", "a server writes only its own events")

	_, locked := metrics.Begin(context.Background())
	locked.Count(metrics.PortalLockouts)
	portalLine := logLine(t, metrics.NewMeter("", "").ServerLines(metrics.PortalFunction).Attrs(at, "POST /portal/sign-in", 429, 0, locked))
	require.NoError(t, emftest.Validate(portalLine), "%s", portalLine)
	assert.Equal(t, 1.0, decode(t, portalLine)["PortalLockouts"])
	assert.Equal(t, 1.0, decode(t, portalLine)["Status429"])
}

// Writes is what the template's tests check alarms against: it must say
// exactly which series the lines make.
func TestWritesSaysExactlyWhatTheLinesCarry(t *testing.T) {
	meter := metrics.NewMeter("ns", "")
	sum := metrics.NewSummary()
	write := func(attrs []slog.Attr) {
		line := logLine(t, attrs)
		require.NoError(t, emftest.Validate(line), "%s", line)
		_, _ = sum.Write(append(line, '\n'))
	}
	everything := func() *metrics.Request {
		_, r := metrics.Begin(context.Background())
		r.CountCall()
		r.CountThrottle()
		r.Replayed()
		for e := metrics.OAuthCodeExchanges; e <= metrics.PortalLockouts; e++ {
			r.Count(e)
		}
		return r
	}
	write(meter.RequestLines(metrics.Named("contacts")).Attrs(at, "GET /contacts/", 429, time.Millisecond, everything()))
	for _, f := range []string{metrics.OAuthFunction, metrics.PortalFunction} {
		write(meter.ServerLines(f).Attrs(at, "POST /x", 429, time.Millisecond, everything()))
	}
	age := time.Minute
	write(meter.WebhookLines().Attrs(at, metrics.Deliveries{OldestPending: &age}))

	var all []string
	for _, ms := range [][]metrics.Metric{metrics.RequestMetrics, metrics.WebhookMetrics} {
		all = append(all, names(ms)...)
	}
	for e := metrics.OAuthCodeExchanges; e <= metrics.PortalLockouts; e++ {
		all = append(all, e.Name())
	}
	for _, f := range []string{"contacts", metrics.OAuthFunction, metrics.PortalFunction, metrics.WebhookFunction} {
		for _, dims := range [][]string{{"Function"}, {"Function", "Operation"}, {"Operation", "Function"}} {
			values := map[string]string{"Function": f}
			if len(dims) == 2 {
				values["Operation"] = "GET /contacts/"
			}
			entry := sum.Find(values)
			for _, m := range all {
				written := entry != nil && entry.Metrics[m] != nil
				assert.Equal(t, written, metrics.Writes(f, m, dims), "%s writes %s by %v", f, m, dims)
			}
		}
	}
	assert.True(t, metrics.Writes("contacts", "Latency", []string{"Function", "Operation"}), "the check is not vacuous")
	assert.False(t, metrics.Writes("contacts", "Status4xx", []string{"Function", "Operation"}), "4xx go by function alone")
	assert.False(t, metrics.Writes("portal", "Requests", []string{"Function", "Operation"}), "the portal's routes are no dimension")
}

func TestWorkOutsideARequestCountsNothingAndFails(t *testing.T) {
	var r *metrics.Request = metrics.RequestFrom(context.Background())
	require.Nil(t, r)
	assert.NotPanics(t, func() { r.CountCall(); r.CountThrottle(); r.Replayed(); r.Count(metrics.PortalLockouts) })
	assert.Zero(t, r.Calls())
}

func TestTheEnvironmentFixesTheFunctionDimension(t *testing.T) {
	assert.Equal(t, "contacts", metrics.NewMeter("", "").Function("contacts"))
	assert.Equal(t, "contacts-canary", metrics.NewMeter("", "contacts-canary").Function("contacts"))
	line := logLine(t, metrics.NewMeter("", "portal").ServerLines("x").Attrs(at, "GET /portal", 200, 0, nil))
	assert.Equal(t, "portal", decode(t, line)["Function"])
}

func TestAWebhookLineSaysTheOldestPendingAgeOnlyWhenItLooked(t *testing.T) {
	lines := metrics.NewMeter("ns", "").WebhookLines()
	age := 90 * time.Second
	looked := logLine(t, lines.Attrs(at, metrics.Deliveries{Delivered: 2, Failed: 1, Attempts: 3, OldestPending: &age}))
	require.NoError(t, emftest.Validate(looked), "%s", looked)
	m := decode(t, looked)
	assert.Equal(t, "webhooks", m["Function"])
	assert.Equal(t, 90.0, m["WebhookOldestPendingAgeSeconds"])
	assert.Equal(t, 3.0, m["WebhookAttempts"])
	assert.Contains(t, string(looked), `{"Name":"WebhookOldestPendingAgeSeconds","Unit":"Seconds"}`)

	streamed := logLine(t, lines.Attrs(at, metrics.Deliveries{Delivered: 1, Attempts: 1}))
	require.NoError(t, emftest.Validate(streamed), "%s", streamed)
	assert.NotContains(t, string(streamed), "WebhookOldestPendingAgeSeconds")
}

func TestTheValidatorRefusesWhatCloudWatchWouldNotExtract(t *testing.T) {
	good := `{"_aws":{"Timestamp":1,"CloudWatchMetrics":[{"Namespace":"n","Dimensions":[["Function"]],"Metrics":[{"Name":"Requests","Unit":"Count"}]}]},"Function":"f","Requests":1}`
	require.NoError(t, emftest.Validate([]byte(good)))
	for _, tc := range []struct{ name, line string }{
		{"a line without _aws", `{"Requests":1}`},
		{"a timestamp that is not an integer", strings.Replace(good, `"Timestamp":1`, `"Timestamp":"1"`, 1)},
		{"a directive without a namespace", strings.Replace(good, `"Namespace":"n",`, ``, 1)},
		{"no dimension set at all", strings.Replace(good, `[["Function"]]`, `[]`, 1)},
		{"a unit CloudWatch does not know", strings.Replace(good, `"Count"`, `"Requests"`, 1)},
		{"a dimension missing from the root", strings.Replace(good, `"Function":"f",`, ``, 1)},
		{"a dimension that is not a string", strings.Replace(good, `"Function":"f"`, `"Function":1`, 1)},
		{"a metric missing from the root", strings.Replace(good, `,"Requests":1`, ``, 1)},
		{"a metric that is not a number", strings.Replace(good, `"Requests":1}`, `"Requests":"1"}`, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Error(t, emftest.Validate([]byte(tc.line)))
		})
	}
}

func TestTheSummaryAddsUpWhatCloudWatchWouldExtract(t *testing.T) {
	s := metrics.NewSummary()
	lines := metrics.NewMeter("ns", "").RequestLines(metrics.Named("contacts"))
	var log []byte
	for _, status := range []int{200, 200, 401, 503} {
		log = append(log, logLine(t, lines.Attrs(at, "GET /contacts/", status, 10*time.Millisecond*time.Duration(status/100), nil))...)
		log = append(log, '\n')
	}
	log = append(log, []byte(`{"msg":"no metrics here"}`+"\n")...)
	_, err := s.Write(log)
	require.NoError(t, err)

	byOp := s.Find(map[string]string{"Function": "contacts", "Operation": "GET /contacts/"})
	require.NotNil(t, byOp)
	assert.Equal(t, 4.0, byOp.Metrics["Requests"].Sum)
	assert.Equal(t, 1.0, byOp.Metrics["Status5xx"].Sum)
	assert.Equal(t, 4, byOp.Metrics["Latency"].Samples)
	assert.Equal(t, 50.0, byOp.Metrics["Latency"].Max)
	assert.Equal(t, metrics.Milliseconds, byOp.Metrics["Latency"].Unit)
	byFunction := s.Find(map[string]string{"Function": "contacts"})
	require.NotNil(t, byFunction, "the second dimension set is a series of its own")
	assert.Equal(t, 4.0, byFunction.Metrics["Requests"].Sum)
	assert.Equal(t, 1.0, byFunction.Metrics["Status4xx"].Sum, "the second directive adds to the same series")
	assert.Len(t, s.Entries(), 2)
}
