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

func TestARequestLineDeclaresOnlyWhatFailed(t *testing.T) {
	lines := metrics.NewMeter("BizPlatform/test", "").Versioned("7").RequestLines(metrics.Named("contacts"))
	for _, tc := range []struct {
		name     string
		status   int
		record   func(r *metrics.Request)
		members  map[string]any
		absent   []string
		declared map[string][]string // metric -> its dimension set
	}{
		{"a 200 declares nothing and says its DynamoDB calls", 200, func(r *metrics.Request) { r.CountCall(); r.CountCall() },
			map[string]any{"DynamoDBCalls": 2.0}, []string{"_aws", "Status5xx", "Version", "DynamoDBThrottles", "IdempotentReplays", "Requests", "Latency", "Operation"}, nil},
		{"a 401 declares nothing either", 401, nil, map[string]any{"DynamoDBCalls": 0.0}, []string{"_aws", "Status5xx"}, nil},
		{"a 500 is a 5xx of the version that answered it", 500, nil, map[string]any{"Status5xx": 1.0, "Version": "7"}, []string{"DynamoDBThrottles"},
			map[string][]string{"Status5xx": {"Function", "Version"}}},
		{"a 503 after throttles is a 5xx and the stack's throttles", 503, func(r *metrics.Request) { r.CountCall(); r.CountThrottle(); r.CountThrottle() },
			map[string]any{"Status5xx": 1.0, "DynamoDBThrottles": 2.0, "DynamoDBCalls": 1.0},
			nil, map[string][]string{"Status5xx": {"Function", "Version"}, "DynamoDBThrottles": {}}},
		{"a 200 that was throttled on the way declares the throttles only", 200, func(r *metrics.Request) { r.CountCall(); r.CountThrottle() },
			map[string]any{"DynamoDBThrottles": 1.0}, []string{"Status5xx", "Version"}, map[string][]string{"DynamoDBThrottles": {}}},
		{"a replayed answer says so, as a member", 201, func(r *metrics.Request) { r.Replayed() }, map[string]any{"IdempotentReplays": 1.0}, []string{"_aws"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, r := metrics.Begin(context.Background())
			require.Same(t, r, metrics.RequestFrom(ctx))
			if tc.record != nil {
				tc.record(r)
			}
			line := logLine(t, lines.Attrs(at, "GET /contacts/", tc.status, 12500*time.Microsecond, r))
			m := decode(t, line)
			assert.Equal(t, "contacts", m["Function"])
			assert.Equal(t, "req-1", m["request_id"], "the log line's own members stay")
			for k, v := range tc.members {
				assert.Equal(t, v, m[k], k)
			}
			for _, k := range tc.absent {
				assert.NotContains(t, m, k)
			}
			if tc.declared == nil {
				return
			}
			require.NoError(t, emftest.Validate(line), "%s", line)
			aws := m["_aws"].(map[string]any)
			assert.Equal(t, float64(at.UnixMilli()), aws["Timestamp"])
			got := map[string][]string{}
			for _, d := range aws["CloudWatchMetrics"].([]any) {
				d := d.(map[string]any)
				assert.Equal(t, "BizPlatform/test", d["Namespace"])
				sets := d["Dimensions"].([]any)
				require.Len(t, sets, 1, "one dimension set per directive")
				for _, name := range names(d["Metrics"]) {
					dims := []string{}
					for _, dim := range sets[0].([]any) {
						dims = append(dims, dim.(string))
					}
					got[name] = dims
				}
			}
			assert.Equal(t, tc.declared, got)
		})
	}
}

func TestByOperationTheAPIsLinesCarryRequestsFailuresAndLatencyPerOperation(t *testing.T) {
	lines := metrics.NewMeter("ns", "").ByOperation(true).RequestLines(metrics.Named("contacts"))
	for _, tc := range []struct {
		name      string
		operation string
		status    int
		wantOp    string
		failed    float64
	}{
		{"an answer of its operation", "GET /contacts/", 200, "GET /contacts/", 0},
		{"a 5xx of its operation, also by version", "GET /contacts/", 502, "GET /contacts/", 1},
		{"a request that named no operation is unmatched, never its path", "", 404, "unmatched", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := logLine(t, lines.Attrs(at, tc.operation, tc.status, 12500*time.Microsecond, nil))
			require.NoError(t, emftest.Validate(line), "%s", line)
			m := decode(t, line)
			assert.Equal(t, tc.wantOp, m["Operation"])
			assert.Equal(t, 1.0, m["Requests"])
			assert.Equal(t, 12.5, m["Latency"])
			assert.Equal(t, tc.failed, m["Status5xx"])
			ds := m["_aws"].(map[string]any)["CloudWatchMetrics"].([]any)
			last := ds[len(ds)-1].(map[string]any)
			assert.Equal(t, []any{[]any{"Function", "Operation"}}, last["Dimensions"])
			assert.Equal(t, names(metrics.OperationMetrics), names(last["Metrics"]))
			assert.Equal(t, tc.failed == 1, len(ds) == 2, "a 5xx is also declared by version")
		})
	}
	server := logLine(t, metrics.NewMeter("ns", "").ByOperation(true).ServerLines(metrics.PortalFunction).Attrs(at, "GET /portal", 200, 0, nil))
	assert.NotContains(t, string(server), "Operation", "the portal's and OAuth's routes are never a dimension")
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

func TestTheOAuthServerAndThePortalCountTheirEventsAsMembers(t *testing.T) {
	lines := metrics.NewMeter("", "").ServerLines(metrics.OAuthFunction)
	ctx, r := metrics.Begin(context.Background())
	metrics.RequestFrom(ctx).Count(metrics.OAuthRefreshReuse)
	line := logLine(t, lines.Attrs(at, "POST /oauth/token", 400, time.Millisecond, r))
	m := decode(t, line)
	assert.Equal(t, 1.0, m["OAuthRefreshReuse"])
	assert.Equal(t, "oauth", m["Function"])
	assert.NotContains(t, m, "OAuthCodeExchanges", "an event is only on the lines where it happened")
	assert.NotContains(t, m, "_aws", "no alarm reads an event: Logs Insights sums them")

	_, portal := metrics.Begin(context.Background())
	portal.Count(metrics.PortalLockouts)
	undeclared := logLine(t, lines.Attrs(at, "POST /oauth/token", 200, time.Millisecond, portal))
	assert.NotContains(t, string(undeclared), "PortalLockouts", "a server writes only its own events")

	_, locked := metrics.Begin(context.Background())
	locked.Count(metrics.PortalLockouts)
	failed := logLine(t, metrics.NewMeter("", "").ServerLines(metrics.PortalFunction).Attrs(at, "POST /portal/sign-in", 500, 0, locked))
	require.NoError(t, emftest.Validate(failed), "%s", failed)
	assert.Equal(t, 1.0, decode(t, failed)["PortalLockouts"])
	assert.Equal(t, metrics.LocalVersion, decode(t, failed)["Version"], "outside Lambda the version is local")
}

// Writes is what the template's tests check alarms against: it must say
// exactly which series the lines make.
func TestWritesSaysExactlyWhatTheLinesCarry(t *testing.T) {
	meter := metrics.NewMeter("ns", "").Versioned("3").ByOperation(true)
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
	write(meter.RequestLines(metrics.Named("contacts")).Attrs(at, "GET /contacts/", 500, time.Millisecond, everything()))
	for _, f := range []string{metrics.OAuthFunction, metrics.PortalFunction} {
		write(meter.ServerLines(f).Attrs(at, "POST /x", 500, time.Millisecond, everything()))
	}
	age := time.Minute
	write(meter.WebhookLines().Attrs(at, metrics.Deliveries{Attempts: 1, OldestPending: &age, Recovered: 1, EndpointsDisabled: 1}))
	write(meter.ProbeLines().Attrs(at, 0))

	all := []string{metrics.Requests, metrics.Status5xx, metrics.Latency, metrics.DynamoDBCalls, metrics.DynamoDBThrottles, metrics.IdempotentReplays}
	all = append(all, names(metrics.WebhookMetrics)...)
	all = append(all, metrics.WebhookDeliveries, metrics.WebhookGivenUp, metrics.ProbeFailures)
	for e := metrics.OAuthCodeExchanges; e <= metrics.PortalLockouts; e++ {
		all = append(all, e.Name())
	}
	for _, f := range []string{"contacts", metrics.OAuthFunction, metrics.PortalFunction, metrics.WebhookFunction, metrics.ProbeFunction} {
		for _, dims := range [][]string{{"Function"}, {"Function", "Operation"}, {"Operation", "Function"}, {"Function", "Version"}, {}} {
			values := map[string]string{}
			for _, d := range dims {
				values[d] = map[string]string{"Function": f, "Operation": "GET /contacts/", "Version": "3"}[d]
			}
			entry := sum.Find(values)
			for _, m := range all {
				written := entry != nil && entry.Metrics[m] != nil
				if len(dims) == 0 {
					assert.Equal(t, written, metrics.Writes(f, m, dims) || metrics.Writes("", m, dims), "the stack writes %s without dimensions", m)
					continue
				}
				assert.Equal(t, written, metrics.Writes(f, m, dims), "%s writes %s by %v", f, m, dims)
			}
		}
	}
	assert.True(t, metrics.Writes("contacts", "Status5xx", []string{"Version", "Function"}), "the check is not vacuous")
	assert.False(t, metrics.Writes("contacts", "Requests", []string{"Function"}), "requests are Lambda's Invocations")
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
	assert.Equal(t, "probe", decode(t, logLine(t, metrics.NewMeter("", "").ProbeLines().Attrs(at, 0)))["Function"])
}

func TestAWebhookLineDeclaresWhatTheInvocationDid(t *testing.T) {
	lines := metrics.NewMeter("ns", "").WebhookLines()
	age := 90 * time.Second
	looked := logLine(t, lines.Attrs(at, metrics.Deliveries{Delivered: 2, Failed: 1, Attempts: 3, OldestPending: &age}))
	require.NoError(t, emftest.Validate(looked), "%s", looked)
	m := decode(t, looked)
	assert.Equal(t, "webhooks", m["Function"])
	assert.Equal(t, 90.0, m["WebhookOldestPendingAgeSeconds"])
	assert.Equal(t, 3.0, m["WebhookAttempts"])
	assert.Equal(t, 2.0, m["WebhookDeliveries"], "a member")
	assert.Contains(t, string(looked), `{"Name":"WebhookOldestPendingAgeSeconds","Unit":"Seconds"}`)
	assert.Contains(t, string(looked), `{"Name":"WebhookFailures","Unit":"Count"}`)
	assert.NotContains(t, string(looked), `"Name":"WebhookDeliveries"`, "deliveries are no metric")
	assert.NotContains(t, m, "WebhookRecovered", "left out when 0")

	streamed := logLine(t, lines.Attrs(at, metrics.Deliveries{Delivered: 1, Attempts: 1, Recovered: 2, EndpointsDisabled: 1}))
	require.NoError(t, emftest.Validate(streamed), "%s", streamed)
	assert.NotContains(t, string(streamed), "WebhookOldestPendingAgeSeconds")
	assert.Equal(t, 2.0, decode(t, streamed)["WebhookRecovered"])
	assert.Contains(t, string(streamed), `{"Name":"WebhookEndpointsDisabled","Unit":"Count"}`)

	idle := logLine(t, lines.Attrs(at, metrics.Deliveries{}))
	assert.NotContains(t, string(idle), "_aws", "an invocation that did nothing and did not look declares nothing")
}

func TestAProbeLineAlwaysDeclaresItsFailures(t *testing.T) {
	line := logLine(t, metrics.NewMeter("ns", "").ProbeLines().Attrs(at, 0))
	require.NoError(t, emftest.Validate(line), "%s", line)
	assert.Equal(t, 0.0, decode(t, line)["ProbeFailures"], "written at 0, so that silence means the probe stopped")
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
	lines := metrics.NewMeter("ns", "").ByOperation(true).RequestLines(metrics.Named("contacts"))
	var log []byte
	for _, status := range []int{200, 200, 401, 503} {
		_, r := metrics.Begin(context.Background())
		if status == 503 {
			r.CountThrottle()
		}
		log = append(log, logLine(t, lines.Attrs(at, "GET /contacts/", status, 10*time.Millisecond*time.Duration(status/100), r))...)
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
	byVersion := s.Find(map[string]string{"Function": "contacts", "Version": metrics.LocalVersion})
	require.NotNil(t, byVersion, "the 5xx's own series")
	assert.Equal(t, 1, byVersion.Metrics["Status5xx"].Samples, "only the failed line declares it")
	stack := s.Find(map[string]string{})
	require.NotNil(t, stack, "the stack's series has no dimension")
	assert.Equal(t, 1.0, stack.Metrics["DynamoDBThrottles"].Sum)
	assert.Len(t, s.Entries(), 3)
}
