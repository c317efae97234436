package deploytest

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/tools/lambdart"
)

// The deliverer's binary, as Lambda runs it: started under the Runtime API
// with the template's environment (the key as a file here, an SSM parameter
// deployed), woken by a stream record of a new event, it posts the signed
// INSTALL event to the app and records the delivery.
func TestTheWebhookFunctionDeliversNewEventsUnderTheLambdaRuntimeAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the webhook deliverer's binary")
	}
	root := repoRoot(t)
	binDir := t.TempDir()
	buildFunctions(t, root, binDir, catalog.Webhooks)

	var mu sync.Mutex
	var bodies [][]byte
	var sigs []string
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		bodies, sigs = append(bodies, body), append(sigs, r.Header.Get("x-ghl-signature"))
	}))
	defer receiver.Close()

	env := testenv.New(t, []app.Area{testenv.PingArea})
	env.Account(t, "acctHook", "coHook")
	ctx := context.Background()
	apps := marketplace.New(env.Server.Tokens, env.Clock, true)
	a, _, err := apps.Create(ctx, marketplace.NewApp{CompanyID: "coHook", Name: "Hooked", RedirectURIs: []string{"https://hooked.example.com/cb"},
		Scopes: []string{"contacts.readonly"}, WebhookURL: receiver.URL + "/hooks"})
	require.NoError(t, err)
	code, err := apps.IssueCode(ctx, marketplace.Consent{App: a, RedirectURI: a.RedirectURIs[0], Scopes: a.Scopes, CompanyID: "coHook", AccountID: "acctHook", UserID: "usr1"})
	require.NoError(t, err)
	g := apps.NewGrant()
	g.UseCode(auth.HashToken(code))
	value, err := auth.GenerateToken()
	require.NoError(t, err)
	g.IssueAccess(auth.HashToken(value), env.Clock.Now().Add(time.Hour))
	_, err = g.Commit(ctx)
	require.NoError(t, err, "the install and its INSTALL event")

	keyFile := filepath.Join(t.TempDir(), "webhook.pem")
	key, err := signingkey.Load(ctx, config.Config{WebhookKeyFile: keyFile}, nil)
	require.NoError(t, err)
	rt, err := lambdart.Start()
	require.NoError(t, err)
	defer rt.Close()
	logs := &testenv.LogBuffer{}
	fn := exec.Command(filepath.Join(binDir, catalog.Webhooks))
	fn.Env = append(lambdaEnv(t, rt.Addr, catalog.WebhookFunction, env.Table.Name), "WEBHOOK_KEY_FILE="+keyFile, "SECRETS_LOCAL_KEY_FILE="+filepath.Join(t.TempDir(), "secrets.key"))
	fn.Stdout, fn.Stderr = logs, logs
	require.NoError(t, fn.Start())
	defer func() { _ = fn.Process.Kill(); _ = fn.Wait() }()

	invokeCtx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	// The stream record names the INSTALL event's item, as the table's
	// stream does.
	made := testenv.Events(t, env.Table, events.Owner{LocationID: "acctHook"})
	require.Len(t, made, 1)
	madeKey := made[0].Key()
	record := `{"Records":[{"eventName":"INSERT","eventSource":"aws:dynamodb","dynamodb":{"Keys":{"PK":{"S":"` + madeKey.PK + `"},"SK":{"S":"` + madeKey.SK + `"}}}}]}`
	res, err := rt.Invoke(invokeCtx, []byte(record))
	require.NoError(t, err, "function output:\n%s", logs.String())
	require.False(t, res.Error, "%s\n%s", res.Payload, logs.String())

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, bodies, 1, "one INSTALL event, posted once")
	sig, err := base64.StdEncoding.DecodeString(sigs[0])
	require.NoError(t, err)
	assert.True(t, ed25519.Verify(key.Public().(ed25519.PublicKey), bodies[0], sig), "signed with the key it was given")
	sent, _, err := apps.Deliveries(ctx, a.ID, "", 10, "")
	require.NoError(t, err)
	require.Len(t, sent, 1)
	assert.Equal(t, deliveries.Delivered, sent[0].Status)
	assert.NotContains(t, logs.String(), value)
}
