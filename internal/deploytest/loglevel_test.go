package deploytest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/metrics/emftest"
	"github.com/bizplatform/api/tools/lambdart"
)

// lambdaLevels are the levels of Lambda's log-level filtering, lowest first.
var lambdaLevels = []string{"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"}

// lambdaKeeps reports whether Lambda's application log-level filtering at
// level passes a JSON line on to CloudWatch Logs: by its "level" member,
// which Lambda takes for INFO when it is missing or not a level
// (docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs-log-level.html).
func lambdaKeeps(line, level string) bool {
	var m struct {
		Level string `json:"level"`
	}
	_ = json.Unmarshal([]byte(line), &m)
	got := slices.Index(lambdaLevels, strings.ToUpper(m.Level))
	if got < 0 {
		got = slices.Index(lambdaLevels, "INFO")
	}
	return got >= slices.Index(lambdaLevels, level)
}

// kept are the metric lines of log that Lambda keeps at level.
func kept(t *testing.T, log, level string) []map[string]any {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if lambdaKeeps(l, level) {
			lines = append(lines, l)
		}
	}
	ms, err := emftest.MetricLines(strings.Join(lines, "\n"))
	require.NoError(t, err)
	return ms
}

// The metric lines reach CloudWatch at every level the template allows:
// Lambda filters the functions' JSON lines by their level
// (ApplicationLogLevel is LogLevel), and the metric lines are INFO (a
// request by operation, the deliverer's report, the probe's run) or above
// (a 5xx is an ERROR line). WARN and ERROR would drop the INFO ones: they
// are not allowed.
func TestTheMetricLinesAreWrittenAtEveryAllowedLogLevel(t *testing.T) {
	_, tpl, _ := readTemplate(t)
	logging := Path(tpl, "Globals", "Function", "LoggingConfig")
	assert.Equal(t, "JSON", Path(logging, "LogFormat"))
	assert.Equal(t, map[string]any{"Ref": "LogLevel"}, Path(logging, "ApplicationLogLevel"), "Lambda filters at the chosen level")
	assert.Equal(t, map[string]any{"Ref": "LogLevel"}, Path(tpl, "Globals", "Function", "Environment", "Variables", "LOG_LEVEL"), "and so do the functions")
	var allowed []string
	for _, v := range asList(Path(tpl, "Parameters", "LogLevel", "AllowedValues")) {
		allowed = append(allowed, v.(string))
	}
	require.NotEmpty(t, allowed)
	if testing.Short() {
		t.Skip("runs the functions' binaries at each level")
	}
	root := repoRoot(t)
	binDir := t.TempDir()
	buildFunctions(t, root, binDir, "contacts", catalog.Webhooks, catalog.Probe)
	keyFile := filepath.Join(t.TempDir(), "secrets.key")
	tableName := loadDemo(t, keyFile)
	webhookKey := filepath.Join(t.TempDir(), "webhook.pem")
	events := readEvents(t, root, "contacts")
	require.NotEmpty(t, events)
	probeTarget := httptest.NewServer(http.NotFoundHandler()) // every check fails: still INFO-or-above lines
	defer probeTarget.Close()

	// run starts a function's binary at level with env, invokes it once
	// with payload and returns its output.
	run := func(t *testing.T, dir, logical, level string, payload []byte, env ...string) string {
		rt, err := lambdart.Start()
		require.NoError(t, err)
		defer rt.Close()
		logs := &testenv.LogBuffer{}
		fn := exec.Command(filepath.Join(binDir, dir))
		fn.Env = append(append(lambdaEnv(t, rt.Addr, logical, tableName), "LOG_LEVEL="+level, "SECRETS_LOCAL_KEY_FILE="+keyFile), env...)
		fn.Stdout, fn.Stderr = logs, logs
		require.NoError(t, fn.Start())
		defer func() { _ = fn.Process.Kill(); _ = fn.Wait() }()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		_, err = rt.Invoke(ctx, payload)
		require.NoError(t, err, logs.String())
		_ = fn.Process.Kill()
		_ = fn.Wait()
		return logs.String()
	}
	schedule := []byte(`{"version":"0","source":"aws.events","detail-type":"Scheduled Event","detail":{}}`)
	outputs := map[string]map[string]string{}
	for _, level := range allowed {
		outputs[level] = map[string]string{
			"a request by operation": run(t, "contacts", "ContactsFunction", level, events[0].payload, "METRICS_BY_OPERATION=true"),
			"a 5xx (the table unreachable)": run(t, "contacts", "ContactsFunction", level, events[0].payload, "AWS_LAMBDA_FUNCTION_VERSION=7",
				"DYNAMODB_ENDPOINT=http://127.0.0.1:1", "DYNAMODB_CALL_TIMEOUT_MS=300", "DYNAMODB_MAX_ATTEMPTS=1", "REQUEST_TIMEOUT_MS=600"),
			"the deliverer's report": run(t, catalog.Webhooks, catalog.WebhookFunction, level, schedule, "WEBHOOK_KEY_FILE="+webhookKey),
			"the probe's run": run(t, catalog.Probe, catalog.ProbeFunction, level, schedule, "PROBE_URL="+probeTarget.URL,
				"CANARY_TOKEN_PARAMETER=/p", "CANARY_ACCOUNT_ID=canaryAccount0000001", "AWS_ENDPOINT_URL_SSM="+probeTarget.URL,
				"AWS_ACCESS_KEY_ID=AKIDTEST", "AWS_SECRET_ACCESS_KEY=test"),
		}
		for what, log := range outputs[level] {
			t.Run(what+" at "+level, func(t *testing.T) {
				lines := kept(t, log, level)
				require.Len(t, lines, 1, "the metric line reaches CloudWatch:\n%s", log)
				switch what {
				case "a request by operation":
					assert.Equal(t, 1.0, lines[0][metrics.Requests])
				case "a 5xx (the table unreachable)":
					assert.Equal(t, 1.0, lines[0][metrics.Status5xx])
					assert.Equal(t, "7", lines[0][metrics.DimVersion])
				case "the deliverer's report":
					assert.Contains(t, lines[0], metrics.WebhookOldestPendingAgeSeconds)
				case "the probe's run":
					assert.Equal(t, 3.0, lines[0][metrics.ProbeFailures])
				}
			})
		}
	}
	for _, level := range []string{"WARN", "ERROR"} {
		t.Run(level+" would drop metric lines, so it is not allowed", func(t *testing.T) {
			assert.NotContains(t, allowed, level)
			dropped := 0
			for _, log := range outputs["INFO"] {
				dropped += len(kept(t, log, "INFO")) - len(kept(t, log, level))
			}
			assert.Positive(t, dropped, "Lambda at %s keeps fewer of the metric lines than at INFO", level)
		})
	}
}
