package deploytest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/canary"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/tools/lambdart"
)

// standInAWS answers the hook's calls the way AWS would: CodeDeploy's
// GetDeployment and PutLifecycleEventHookExecutionStatus and SSM's
// GetParameter (AWS JSON 1.1, by X-Amz-Target), and Lambda's Invoke (REST),
// which it hands to the function processes under their Runtime APIs.
type standInAWS struct {
	t        *testing.T
	token    string
	versions map[string]*lambdart.Server // function name -> its new version
	// broken function names answer what a broken version would.
	broken map[string]string

	mu       sync.Mutex
	statuses map[string]string // deployment id -> the verdict reported
	invoked  []string          // function:qualifier
}

const targetVersion = "7"

func (s *standInAWS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
		http.Error(w, `{"__type":"MissingAuthenticationTokenException"}`, http.StatusForbidden)
		return
	}
	var in map[string]any
	switch target := r.Header.Get("X-Amz-Target"); target {
	case "CodeDeploy_20141006.GetDeployment":
		_ = json.Unmarshal(body, &in)
		name, _ := strings.CutPrefix(fmt.Sprint(in["deploymentId"]), "d-")
		spec := fmt.Sprintf(`{"version":0.0,"Resources":[{"Fn":{"Type":"AWS::Lambda::Function","Properties":{"Name":%q,"Alias":"live","CurrentVersion":"6","TargetVersion":%q}}}]}`, name, targetVersion)
		s.json(w, map[string]any{"deploymentInfo": map[string]any{"deploymentId": in["deploymentId"], "computePlatform": "Lambda",
			"revision": map[string]any{"revisionType": "AppSpecContent", "appSpecContent": map[string]any{"content": spec}}}})
	case "CodeDeploy_20141006.PutLifecycleEventHookExecutionStatus":
		_ = json.Unmarshal(body, &in)
		s.mu.Lock()
		s.statuses[fmt.Sprint(in["deploymentId"])] = fmt.Sprint(in["status"])
		s.mu.Unlock()
		s.json(w, map[string]any{"lifecycleEventHookExecutionId": in["lifecycleEventHookExecutionId"]})
	case "AmazonSSM.GetParameter":
		_ = json.Unmarshal(body, &in)
		assert.Equal(s.t, true, in["WithDecryption"], "the canary token is a SecureString")
		s.json(w, map[string]any{"Parameter": map[string]any{"Name": in["Name"], "Type": "SecureString", "Value": s.token}})
	case "":
		s.invoke(w, r, body)
	default:
		http.Error(w, `{"__type":"UnknownOperationException"}`, http.StatusBadRequest)
	}
}

func (s *standInAWS) json(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	_ = json.NewEncoder(w).Encode(v)
}

// invoke is Lambda's POST /2015-03-31/functions/{name}/invocations.
func (s *standInAWS) invoke(w http.ResponseWriter, r *http.Request, payload []byte) {
	name, ok := strings.CutPrefix(r.URL.Path, "/2015-03-31/functions/")
	name, ok2 := strings.CutSuffix(name, "/invocations")
	if !ok || !ok2 {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.invoked = append(s.invoked, name+":"+r.URL.Query().Get("Qualifier"))
	s.mu.Unlock()
	switch s.broken[name] {
	case "500":
		_, _ = w.Write([]byte(`{"statusCode":500,"headers":{"Content-Type":"application/json"},"body":"{\"statusCode\":500,\"message\":\"Internal server error\",\"error\":\"Internal Server Error\"}"}`))
		return
	case "401 without the body":
		_, _ = w.Write([]byte(`{"statusCode":401,"headers":{"Content-Type":"text/plain"},"body":"Unauthorized"}`))
		return
	case "crash":
		w.Header().Set("X-Amz-Function-Error", "Unhandled")
		_, _ = w.Write([]byte(`{"errorMessage":"Runtime exited with error: exit status 2","errorType":"Runtime.ExitError"}`))
		return
	}
	rt := s.versions[name]
	if rt == nil {
		w.Header().Set("X-Amzn-Errortype", "ResourceNotFoundException")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"Type":"User","Message":"Function not found"}`))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 60*time.Second)
	defer cancel()
	res, err := rt.Invoke(ctx, payload)
	if err != nil {
		w.Header().Set("X-Amz-Function-Error", "Unhandled")
		_, _ = w.Write([]byte(`{"errorMessage":"` + strings.ReplaceAll(err.Error(), `"`, `'`) + `"}`))
		return
	}
	if res.Error {
		w.Header().Set("X-Amz-Function-Error", "Unhandled")
	}
	// After the shift (the PostTraffic hook) the alias runs the new version.
	w.Header().Set("X-Amz-Executed-Version", targetVersion)
	_, _ = w.Write(res.Payload)
}

// The hook's binary, as Lambda runs it when CodeDeploy calls it before
// shifting traffic: for every function of the stack, a working new version
// (the function's own binary, on a table holding the canary account)
// passes, and a version that answers 500, a 401 without the API's JSON
// error, or crashes fails, each reported to CodeDeploy.
func TestThePreTrafficHookPassesWorkingVersionsAndFailsBrokenOnes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every function's binary and the hook's")
	}
	root := repoRoot(t)
	binDir := t.TempDir()
	dirs := functionDirs()
	all := []string{"pretraffic"}
	for dir := range dirs {
		all = append(all, dir)
	}
	sort.Strings(all)
	buildFunctions(t, root, binDir, all...)

	const canaryAccount = "canaryAccount0000001"
	env := testenv.New(t, []app.Area{testenv.PingArea})
	env.Account(t, canaryAccount, "canaryCompany0000001")
	token, _ := env.Token(t, canaryAccount, canary.Scopes...)
	secretsKey := filepath.Join(t.TempDir(), "secrets.key")
	webhookKey := filepath.Join(t.TempDir(), "webhook.pem")
	_, err := signingkey.Load(context.Background(), config.Config{WebhookKeyFile: webhookKey}, nil)
	require.NoError(t, err)

	aws := &standInAWS{t: t, token: token, versions: map[string]*lambdart.Server{}, statuses: map[string]string{},
		broken: map[string]string{"stack-Broken500": "500", "stack-Broken401": "401 without the body", "stack-Crashing": "crash"}}
	logs := map[string]*testenv.LogBuffer{}
	var pairs []string
	for dir, logical := range dirs {
		name := "stack-" + logical // as CloudFormation names it: <stack>-<logical id>-<suffix>
		rt, err := lambdart.Start()
		require.NoError(t, err)
		t.Cleanup(func() { _ = rt.Close() })
		logs[dir] = &testenv.LogBuffer{}
		fn := exec.Command(filepath.Join(binDir, dir))
		fn.Env = append(lambdaEnv(t, rt.Addr, logical, env.Table.Name), "SECRETS_LOCAL_KEY_FILE="+secretsKey, "WEBHOOK_KEY_FILE="+webhookKey)
		fn.Stdout, fn.Stderr = logs[dir], logs[dir]
		require.NoError(t, fn.Start())
		t.Cleanup(func() { _ = fn.Process.Kill(); _ = fn.Wait() })
		aws.versions[name] = rt
		pairs = append(pairs, dir+"="+name)
	}
	for name := range aws.broken {
		pairs = append(pairs, "contacts="+name)
	}
	srv := httptest.NewServer(aws)
	defer srv.Close()

	hookRT, err := lambdart.Start()
	require.NoError(t, err)
	defer hookRT.Close()
	hookLogs := &testenv.LogBuffer{}
	hook := exec.Command(filepath.Join(binDir, "pretraffic"))
	hook.Env = []string{
		"AWS_LAMBDA_RUNTIME_API=" + hookRT.Addr, "AWS_LAMBDA_FUNCTION_NAME=CodeDeployHook_stack", "AWS_REGION=us-east-1",
		"AWS_ACCESS_KEY_ID=AKIDTEST", "AWS_SECRET_ACCESS_KEY=test", "AWS_SESSION_TOKEN=test",
		"AWS_ENDPOINT_URL_LAMBDA=" + srv.URL, "AWS_ENDPOINT_URL_CODEDEPLOY=" + srv.URL, "AWS_ENDPOINT_URL_SSM=" + srv.URL,
		"HOOK_FUNCTIONS=" + strings.Join(pairs, ","), "CANARY_TOKEN_PARAMETER=/bizplatform/canary-token", "CANARY_ACCOUNT_ID=" + canaryAccount,
	}
	hook.Stdout, hook.Stderr = hookLogs, hookLogs
	require.NoError(t, hook.Start())
	defer func() { _ = hook.Process.Kill(); _ = hook.Wait() }()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	deploy := func(t *testing.T, name string) string {
		t.Helper()
		res, err := hookRT.Invoke(ctx, []byte(`{"DeploymentId":"d-`+name+`","LifecycleEventHookExecutionId":"hook-`+name+`"}`))
		require.NoError(t, err, "hook output:\n%s", hookLogs.String())
		require.False(t, res.Error, "the hook reported its verdict: %s\n%s", res.Payload, hookLogs.String())
		aws.mu.Lock()
		defer aws.mu.Unlock()
		return aws.statuses["d-"+name]
	}
	for dir, logical := range dirs {
		t.Run("a working version of "+dir+" passes", func(t *testing.T) {
			assert.Equal(t, "Succeeded", deploy(t, "stack-"+logical), "hook output:\n%s\nfunction output:\n%s", hookLogs.String(), logs[dir].String())
		})
	}
	for name, how := range aws.broken {
		t.Run("a version that answers "+how+" fails", func(t *testing.T) {
			assert.Equal(t, "Failed", deploy(t, name), hookLogs.String())
		})
	}
	t.Run("a deployment of a function the hook does not know fails", func(t *testing.T) {
		assert.Equal(t, "Failed", deploy(t, "another-stack-ContactsFunction"))
	})

	aws.mu.Lock()
	defer aws.mu.Unlock()
	throughAlias := 0
	for _, call := range aws.invoked {
		assert.True(t, strings.HasSuffix(call, ":"+targetVersion) || strings.HasSuffix(call, ":live"), "the hook invokes the new version or the alias, never $LATEST: %s", call)
		if strings.HasSuffix(call, ":live") {
			throughAlias++
		}
	}
	assert.Positive(t, throughAlias, "after the shift the same checks go through the alias")
	_ = hook.Process.Kill()
	_ = hook.Wait()
	assert.NotContains(t, hookLogs.String(), token, "the canary token is never logged")
	assert.Contains(t, hookLogs.String(), "answered 500", "a failure says why")
	assert.NotContains(t, logs["webhooks"].String(), `"msg":"webhook deliveries"`, "the deliverer's check is a dry run: no sweep, so no sweep's report")
}
