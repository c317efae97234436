package deploytest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/canary"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/metrics/emftest"
	"github.com/bizplatform/api/tools/bench/cost"
	"github.com/bizplatform/api/tools/lambdart"
)

// The probe runs every minute, calls the API's public URL (the one the
// stack outputs) with the canary token, and its alarm takes a minute
// without its figure for a failing one.
func TestTheProbeCallsThePublicURLEveryMinuteAndItsSilencePages(t *testing.T) {
	_, tpl, res := readTemplate(t)
	fn := res[catalog.ProbeFunction]
	require.NotNil(t, fn)
	assert.Equal(t, "Schedule", Path(fn, "Properties", "Events", "EveryMinute", "Type"))
	assert.Equal(t, "rate(1 minute)", Path(fn, "Properties", "Events", "EveryMinute", "Properties", "Schedule"))
	vars := Path(fn, "Properties", "Environment", "Variables")
	assert.Equal(t, Path(tpl, "Outputs", "ApiUrl", "Value"), Path(vars, "PROBE_URL"), "the URL clients use")
	assert.Equal(t, canaryParameter, Path(vars, "CANARY_TOKEN_PARAMETER"))
	assert.Equal(t, map[string]any{"Ref": "CanaryAccountId"}, Path(vars, "CANARY_ACCOUNT_ID"))
	lg := res[fmt.Sprint(Path(fn, "Properties", "LoggingConfig", "LogGroup", "Ref"))]
	assert.Equal(t, map[string]any{"Fn::Sub": "/aws/lambda/${AWS::StackName}-" + catalog.Probe}, Path(lg, "Properties", "LogGroupName"))
	assert.Equal(t, cost.ProbeMemoryMB, Path(fn, "Properties", "MemorySize"), "what bench cost prices the probe at")

	alarm := Path(res["ProbeAlarm"], "Properties")
	assert.Equal(t, []alarmMetric{{stackNamespace, metrics.ProbeFailures, map[string]any{metrics.DimFunction: metrics.ProbeFunction}}}, alarmMetrics(res["ProbeAlarm"]))
	assert.Equal(t, "breaching", Path(alarm, "TreatMissingData"), "a probe that wrote nothing pages")
	assert.Equal(t, 60, Path(alarm, "Period"))
	assert.LessOrEqual(t, toFloat(Path(alarm, "EvaluationPeriods"))*60, 300.0, "within 5 minutes")
}

// ssmStandIn answers SSM's GetParameter (AWS JSON 1.1) with the token.
func ssmStandIn(t *testing.T, token string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Amz-Target") != "AmazonSSM.GetParameter" {
			http.Error(w, `{"__type":"UnknownOperationException"}`, http.StatusBadRequest)
			return
		}
		var in map[string]any
		_ = json.NewDecoder(r.Body).Decode(&in)
		assert.Equal(t, true, in["WithDecryption"], "the canary token is a SecureString")
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		_ = json.NewEncoder(w).Encode(map[string]any{"Parameter": map[string]any{"Name": in["Name"], "Type": "SecureString", "Value": token}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The probe's binary, as Lambda runs it on the schedule: against a working
// API it writes ProbeFailures 0, against one nothing reaches 3; the
// invocation succeeds either way (the metric is the verdict).
func TestTheProbeBinaryJudgesTheAPIAsAClientUnderTheLambdaRuntimeAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the probe's binary")
	}
	root := repoRoot(t)
	binDir := t.TempDir()
	buildFunctions(t, root, binDir, catalog.Probe)

	const account = "canaryAccount0000001"
	env := testenv.New(t, []app.Area{contacts.Area})
	env.Account(t, account, "canaryCompany0000001")
	token, _ := env.Token(t, account, canary.Scopes...)
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+api.JSONPath, api.ServeDocument)
	mux.Handle("/", env.Server.Handler)
	apiSrv := httptest.NewServer(mux)
	defer apiSrv.Close()

	rt, err := lambdart.Start()
	require.NoError(t, err)
	defer rt.Close()
	logs := &testenv.LogBuffer{}
	fn := exec.Command(filepath.Join(binDir, catalog.Probe))
	fn.Env = append(lambdaEnv(t, rt.Addr, catalog.ProbeFunction, env.Table.Name),
		"PROBE_URL="+apiSrv.URL+"/", "CANARY_TOKEN_PARAMETER=/bizplatform/stack/canary-token", "CANARY_ACCOUNT_ID="+account,
		"AWS_ENDPOINT_URL_SSM="+ssmStandIn(t, token).URL, "AWS_ACCESS_KEY_ID=AKIDTEST", "AWS_SECRET_ACCESS_KEY=test", "AWS_SESSION_TOKEN=test",
		"METRICS_NAMESPACE=BizPlatform/stack")
	fn.Stdout, fn.Stderr = logs, logs
	require.NoError(t, fn.Start())
	defer func() { _ = fn.Process.Kill(); _ = fn.Wait() }()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	schedule := []byte(`{"version":"0","source":"aws.events","detail-type":"Scheduled Event","detail":{}}`)
	runs := 0
	run := func() map[string]any {
		res, err := rt.Invoke(ctx, schedule)
		require.NoError(t, err, "function output:\n%s", logs.String())
		require.False(t, res.Error, "the run's verdict is its metric, not a failed invocation: %s\n%s", res.Payload, logs.String())
		runs++
		var lines []map[string]any
		// The process's output reaches the buffer through a pipe: wait
		// for the run's line.
		require.Eventually(t, func() bool {
			lines, err = emftest.MetricLines(logs.String())
			return err == nil && len(lines) == runs
		}, 10*time.Second, 20*time.Millisecond, "one line a run:\n%s", logs.String())
		return lines[len(lines)-1]
	}
	line := run()
	assert.Equal(t, 0.0, line[metrics.ProbeFailures], "a working API: %v", line["checks"])
	assert.Equal(t, metrics.ProbeFunction, line[metrics.DimFunction])

	apiSrv.Close()
	line = run()
	assert.Equal(t, 3.0, line[metrics.ProbeFailures], "nothing reachable: every check fails")
	assert.NotContains(t, logs.String(), token, "the canary token is never logged")
}
