package deploytest

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/portal/userdir"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/tools/lambdart"
)

// portalEvent is the portal's sample event changed into another request.
func portalEvent(t *testing.T, root, method, path, cookie, body string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "events", catalog.Portal, "sign-in-page.json"))
	require.NoError(t, err)
	var ev map[string]any
	require.NoError(t, json.Unmarshal(raw, &ev))
	ev["rawPath"] = path
	rc := ev["requestContext"].(map[string]any)
	rc["http"].(map[string]any)["method"] = method
	rc["http"].(map[string]any)["path"] = path
	if cookie != "" {
		ev["cookies"] = []string{cookie}
	}
	if body != "" {
		ev["body"] = body
		ev["headers"].(map[string]any)["content-type"] = "application/x-www-form-urlencoded"
	}
	out, err := json.Marshal(ev)
	require.NoError(t, err)
	return out
}

func TestThePortalFunctionServesItsPagesUnderTheLambdaRuntimeAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the portal's binary")
	}
	root := repoRoot(t)
	binDir := t.TempDir()
	buildFunctions(t, root, binDir, catalog.Portal)
	tableName := loadDemo(t, filepath.Join(t.TempDir(), "secrets.key"))
	table := &storage.Table{DB: testenv.NewTable(t).DB, Name: tableName}
	email, err := demo.CreateSignIn(context.Background(), identity.New(table, clock.System{}, userdir.New(table)), testenv.Endpoint(t))
	require.NoError(t, err)

	rt, err := lambdart.Start()
	require.NoError(t, err)
	defer rt.Close()
	logs := &testenv.LogBuffer{}
	fn := exec.Command(filepath.Join(binDir, catalog.Portal))
	fn.Env = append(lambdaEnv(t, rt.Addr, catalog.FunctionName(catalog.Portal), tableName), "SECRETS_LOCAL_KEY_FILE="+filepath.Join(t.TempDir(), "secrets.key"))
	fn.Stdout, fn.Stderr = logs, logs
	require.NoError(t, fn.Start())
	defer func() { _ = fn.Process.Kill(); _ = fn.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	invoke := func(payload []byte) lambdart.GatewayResponse {
		t.Helper()
		res, err := rt.Invoke(ctx, payload)
		require.NoError(t, err, "function output:\n%s", logs.String())
		gr, err := lambdart.DecodeGatewayResponse(res)
		require.NoError(t, err)
		return gr
	}

	page := invoke(portalEvent(t, root, "GET", "/portal/sign-in", "", ""))
	require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
	assert.Equal(t, "text/html; charset=utf-8", page.Headers["Content-Type"])
	assert.Contains(t, page.Headers["Content-Security-Policy"], "frame-ancestors 'none'")
	assert.Equal(t, "no-store", page.Headers["Cache-Control"])
	assert.Contains(t, page.Body, `<button type="submit" class="button primary">Sign in</button>`)
	require.Len(t, page.Cookies, 1)
	formCookie := page.Cookies[0]
	assert.Contains(t, formCookie, "; Secure", "behind API Gateway every cookie is Secure")
	formValue := strings.TrimPrefix(strings.Split(formCookie, ";")[0], "portal_form=")

	wrong := invoke(portalEvent(t, root, "POST", "/portal/sign-in", "portal_form="+formValue,
		"csrf="+formValue+"&email="+email+"&password=wrong-password-1"))
	assert.Equal(t, http.StatusUnauthorized, wrong.StatusCode)
	assert.Contains(t, wrong.Body, "The email or password is incorrect.")

	signedIn := invoke(portalEvent(t, root, "POST", "/portal/sign-in", "portal_form="+formValue,
		"csrf="+formValue+"&email="+email+"&password="+demo.SignInPassword))
	require.Equal(t, http.StatusSeeOther, signedIn.StatusCode, signedIn.Body)
	require.Len(t, signedIn.Cookies, 1)
	session := signedIn.Cookies[0]
	for _, attr := range []string{"portal_session=", "; HttpOnly", "; Secure", "; SameSite=Lax", "; Path=/portal"} {
		assert.Contains(t, session, attr)
	}
	settings := invoke(portalEvent(t, root, "GET", "/portal/accounts/"+demo.AccountAlpha, strings.Split(session, ";")[0], ""))
	require.Equal(t, http.StatusOK, settings.StatusCode, settings.Body)
	assert.Contains(t, settings.Body, "tok_demo_all")

	_ = fn.Process.Kill()
	_ = fn.Wait()
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		assert.True(t, json.Valid([]byte(line)), "every log line is JSON: %s", line)
		assert.NotContains(t, line, demo.SignInPassword)
		assert.NotContains(t, line, formValue)
	}
}
