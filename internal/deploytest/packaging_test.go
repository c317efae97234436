package deploytest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/metrics/emftest"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/wiring"
	"github.com/bizplatform/api/tools/lambdart"
)

// built holds the binaries this test run has built, each built once: the
// packaging tests share them (linking every function again per test would
// take minutes on a busy machine).
var built struct {
	sync.Mutex
	dir  string
	have map[string]bool
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// buildFunctions builds the functions for this machine with the flags the
// Makefile uses for Lambda, and links them into dir/<function>.
func buildFunctions(t *testing.T, root, dir string, functions ...string) {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	if built.dir == "" {
		d, err := os.MkdirTemp("", "deploytest-functions-")
		require.NoError(t, err)
		built.dir, built.have = d, map[string]bool{}
	}
	args := []string{"build", "-tags", "lambda.norpc", "-trimpath", "-ldflags", "-s -w", "-o", built.dir + string(filepath.Separator)}
	var missing []string
	for _, fn := range functions {
		if !built.have[fn] {
			missing = append(missing, fn)
			args = append(args, "./functions/"+fn)
		}
	}
	if len(missing) > 0 {
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go build: %s", out)
		for _, fn := range missing {
			built.have[fn] = true
		}
	}
	for _, fn := range functions {
		require.NoError(t, os.Symlink(filepath.Join(built.dir, fn), filepath.Join(dir, fn)))
	}
}

// lambdaEnv is the environment Lambda (and the template) gives a function
// talking to the local engine's table, and the Runtime API at runtimeAddr.
func lambdaEnv(t *testing.T, runtimeAddr, functionName, tableName string) []string {
	return []string{
		"AWS_LAMBDA_RUNTIME_API=" + runtimeAddr,
		"AWS_LAMBDA_FUNCTION_NAME=" + functionName,
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=256",
		"AWS_LAMBDA_FUNCTION_VERSION=$LATEST",
		"AWS_REGION=us-east-1",
		"TABLE_NAME=" + tableName,
		"DYNAMODB_ENDPOINT=" + testenv.Endpoint(t),
		"LOG_LEVEL=INFO",
	}
}

// loadDemo fills a fresh table with the demo dataset and demo tokens, as
// make run does on first start, sealing its secrets with the local key in
// keyFile (the one the functions are given).
func loadDemo(t *testing.T, keyFile string) (tableName string) {
	t.Helper()
	ctx := context.Background()
	table := testenv.NewTable(t)
	key, err := secrets.LoadOrCreateKeyFile(keyFile)
	require.NoError(t, err)
	local, err := secrets.NewLocalKey(key)
	require.NoError(t, err)
	deps := wiring.Deps{Table: table, Clock: clock.System{}, Secrets: secrets.NewKeeper(local)}
	ds, err := demo.Default()
	require.NoError(t, err)
	_, err = demo.Load(ctx, deps, ds, catalog.Areas)
	require.NoError(t, err, "load the demo dataset")
	srv, err := apiserver.New(config.Config{Burst: 100, Window: 10 * time.Second, Daily: 200000}, deps)
	require.NoError(t, err)
	_, err = demo.CreateTokens(ctx, srv.Tokens, testenv.Endpoint(t))
	require.NoError(t, err)
	return table.Name
}

type sampleEvent struct {
	file    string
	payload []byte
	event   struct {
		RouteKey       string            `json:"routeKey"`
		Headers        map[string]string `json:"headers"`
		RequestContext struct {
			RequestID string `json:"requestId"`
		} `json:"requestContext"`
	}
}

func readEvents(t *testing.T, root, area string) []sampleEvent {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "events", area, "*.json"))
	require.NoError(t, err)
	sort.Strings(files)
	var out []sampleEvent
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		ev := sampleEvent{file: filepath.Base(f), payload: raw}
		require.NoError(t, json.Unmarshal(raw, &ev.event), f)
		out = append(out, ev)
	}
	return out
}

// withoutAuthorization returns the event with its Authorization header
// removed and its own request id.
func withoutAuthorization(t *testing.T, payload []byte) []byte {
	var ev map[string]any
	require.NoError(t, json.Unmarshal(payload, &ev))
	delete(ev["headers"].(map[string]any), "authorization")
	ev["requestContext"].(map[string]any)["requestId"] = "unauthenticated-probe"
	out, err := json.Marshal(ev)
	require.NoError(t, err)
	return out
}

func TestEveryFunctionBinaryAnswersItsEventsUnderTheLambdaRuntimeAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every function's binary")
	}
	root := repoRoot(t)
	binDir := t.TempDir()
	buildFunctions(t, root, binDir, operations.Areas...)
	keyFile := filepath.Join(t.TempDir(), "secrets.key")
	tableName := loadDemo(t, keyFile)

	timings := map[string]time.Duration{}
	for _, area := range operations.Areas {
		t.Run(area, func(t *testing.T) {
			events := readEvents(t, root, area)
			require.NotEmpty(t, events, "events/%s has no event", area)

			rt, err := lambdart.Start()
			require.NoError(t, err)
			defer rt.Close()
			logs := &testenv.LogBuffer{}
			cmd := exec.Command(filepath.Join(binDir, area))
			cmd.Env = append(lambdaEnv(t, rt.Addr, catalog.FunctionName(area), tableName), "SECRETS_LOCAL_KEY_FILE="+keyFile)
			cmd.Stdout, cmd.Stderr = logs, logs
			start := time.Now()
			require.NoError(t, cmd.Start())
			stopped := false
			stop := func() {
				if !stopped {
					stopped = true
					_ = cmd.Process.Kill()
					_ = cmd.Wait() // also waits for the output to be copied
				}
			}
			defer stop()

			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			for i, ev := range events {
				res, err := rt.Invoke(ctx, ev.payload)
				require.NoError(t, err, "%s; function output:\n%s", ev.file, logs.String())
				if i == 0 {
					timings[area] = time.Since(start)
				}
				gr, err := lambdart.DecodeGatewayResponse(res)
				require.NoError(t, err, ev.file)
				assert.True(t, gr.StatusCode >= 200 && gr.StatusCode < 300, "%s: status %d, body %s", ev.file, gr.StatusCode, gr.Body)
				assert.True(t, json.Valid([]byte(gr.Body)), "%s: body is JSON: %s", ev.file, gr.Body)
				assert.Contains(t, gr.Headers["Content-Type"], "application/json", ev.file)
				assert.Equal(t, ev.event.RequestContext.RequestID, gr.Headers["X-Request-Id"], "%s: API Gateway's request id is the request id", ev.file)
				assert.NotEmpty(t, gr.Headers["X-Ratelimit-Remaining"]+gr.Headers["X-RateLimit-Remaining"], "%s: rate-limit headers", ev.file)
			}

			res, err := rt.Invoke(ctx, withoutAuthorization(t, events[0].payload))
			require.NoError(t, err)
			gr, err := lambdart.DecodeGatewayResponse(res)
			require.NoError(t, err)
			assert.Equal(t, http.StatusUnauthorized, gr.StatusCode, "an event without a token: %s", gr.Body)
			assert.JSONEq(t, `{"statusCode":401,"message":"Missing bearer token: send Authorization: Bearer <token>","error":"Unauthorized","traceId":"unauthenticated-probe","requestId":"unauthenticated-probe"}`, gr.Body)
			assert.Equal(t, "Bearer", gr.Headers["Www-Authenticate"], "a 401 challenges the client")

			stop()
			for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
				assert.True(t, json.Valid([]byte(line)), "every log line is JSON: %s", line)
				assert.NotContains(t, line, "bpt_", "no token in the log")
			}
			// Each request has its one line, under the function's own name
			// and with the invocation's trace id: the runtime API passes an
			// unsampled header (Sampled=0), as Lambda does with TracingMode
			// PassThrough. A request that succeeded, or was refused, declares
			// no metric (only a failure does); what a line declares is valid
			// EMF.
			var requestLines []map[string]any
			for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
				var m map[string]any
				require.NoError(t, json.Unmarshal([]byte(line), &m))
				if m["msg"] == "request" {
					requestLines = append(requestLines, m)
				}
			}
			assert.Len(t, requestLines, len(events)+1, "one line per request")
			for _, m := range requestLines {
				assert.Equal(t, area, m["Function"])
				assert.NotContains(t, m, "_aws", "nothing failed: nothing declared")
				assert.Contains(t, m, "DynamoDBCalls")
				assert.Equal(t, "1-00000000-000000000000000000000000", m["trace_id"], "an unsampled trace still joins the lines")
			}
			_, err = emftest.MetricLines(logs.String())
			require.NoError(t, err)
		})
	}
	var lines []string
	for _, area := range operations.Areas {
		lines = append(lines, fmt.Sprintf("%-22s %-15s %8.1f ms", catalog.FunctionName(area), area, float64(timings[area].Microseconds())/1000))
	}
	t.Logf("process start to first answer:\n%s", strings.Join(lines, "\n"))
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	return root
}
