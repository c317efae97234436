package main

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/shared/marketplace"
)

func TestAppsCreatePrintsTheClientSecretOnceAndListNever(t *testing.T) {
	c, _ := setup(t)
	code, out, errOut := c.run("accounts", "create", "--id", "acctApps", "--company", "coApps", "--name", "Apps Test", "--company-name", "Apps Company")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "company coApps is named Apps Company")
	code, _, errOut = c.run("accounts", "create", "--id", "acctApps2", "--company", "coApps", "--name", "Apps Test 2", "--company-name", " ")
	assert.NotEqual(t, exitOK, code)
	assert.Contains(t, errOut, "company name must not be empty", "refused before the account is written")

	code, out, errOut = c.run("apps", "create", "--company", "coApps", "--name", "Bridge",
		"--redirect-uri", "https://bridge.example.com/cb", "--redirect-uri", "http://127.0.0.1:8080/cb",
		"--scopes", "contacts.readonly,payments/integration.write", "--webhook-url", "https://bridge.example.com/hooks", "--target", "company")
	require.Equal(t, exitOK, code, errOut)
	var created struct {
		AppID, ClientID, ClientSecret, Target string
		RedirectURIs                          []string
	}
	require.NoError(t, json.Unmarshal([]byte(out), &created), "stdout is one JSON object")
	assert.Equal(t, created.AppID, marketplace.AppIDOf(created.ClientID))
	assert.NoError(t, auth.CheckSecretFormat(marketplace.SecretPrefix, created.ClientSecret))
	assert.Equal(t, []string{"https://bridge.example.com/cb", "http://127.0.0.1:8080/cb"}, created.RedirectURIs, "loopback http on a local engine")
	assert.Equal(t, "company", created.Target)

	code, out, _ = c.run("apps", "list", "--company", "coApps")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, created.ClientID)
	assert.NotContains(t, out, created.ClientSecret)
	assert.Contains(t, out, `"requirePkce":false`)

	code, out, errOut = c.run("apps", "update", created.AppID, "--require-pkce")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `"requirePkce":true`)
	code, out, _ = c.run("apps", "list", "--company", "coApps")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, `"requirePkce":true`, "the change is stored")

	code, out, errOut = c.run("apps", "rotate-secret", created.AppID)
	require.Equal(t, exitOK, code, errOut)
	var rotated map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &rotated))
	assert.NotEqual(t, created.ClientSecret, rotated["clientSecret"])
	assert.Contains(t, errOut, "works for 24 hours more")

	code, out, errOut = c.run("apps", "deliveries", created.AppID)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "EVENT")

	code, _, errOut = c.run("apps", "delete", created.AppID)
	require.Equal(t, exitOK, code, errOut)
	code, out, _ = c.run("apps", "list", "--company", "coApps")
	require.Equal(t, exitOK, code)
	assert.Equal(t, "[]\n", out)
}

func TestAppsWebhookKeyPrintsAnEd25519PublicKeyInPEM(t *testing.T) {
	c, _ := setup(t)
	code, out, errOut := c.run("apps", "webhook-key")
	require.Equal(t, exitOK, code, errOut)
	block, _ := pem.Decode([]byte(out))
	require.NotNil(t, block)
	assert.Equal(t, "PUBLIC KEY", block.Type)
	_, err := x509.ParsePKIXPublicKey(block.Bytes)
	assert.NoError(t, err, "SubjectPublicKeyInfo")
	code, again, _ := c.run("apps", "webhook-key")
	require.Equal(t, exitOK, code)
	assert.Equal(t, out, again, "the same key every time")
}

func TestAppsUsageErrorsExitTwoNamingTheCommand(t *testing.T) {
	c, _ := setup(t)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"create without a name", []string{"apps", "create", "--company", "co", "--scopes", "contacts.readonly"}, "apps create: --name is required"},
		{"rotate without an id", []string{"apps", "rotate-secret"}, "apps rotate-secret: give the app id"},
		{"an unknown flag", []string{"apps", "list", "--compny", "co"}, "apps list: flag provided but not defined"},
		{"update without an id", []string{"apps", "update", "--require-pkce"}, "apps update: give the app id first"},
		{"update without a change", []string{"apps", "update", "0123456789abcdef01234567"}, "apps update: say what to change"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := c.run(tc.args...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.want)
		})
	}
}

// fakeSSM is SSM Parameter Store's JSON protocol for GetParameter and
// PutParameter, enough for apps webhook-key.
type fakeSSM struct {
	mu     sync.Mutex
	params map[string]string
	types  map[string]string
	puts   int
}

func (f *fakeSSM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name, Value, Type string
		Overwrite         bool
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	fail := func(typ string) {
		w.Header().Set("X-Amzn-ErrorType", typ)
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"__type": typ, "message": typ})
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	switch r.Header.Get("X-Amz-Target") {
	case "AmazonSSM.GetParameter":
		v, ok := f.params[in.Name]
		if !ok {
			fail("ParameterNotFound")
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"Parameter": map[string]any{"Name": in.Name, "Type": f.types[in.Name], "Value": v}})
	case "AmazonSSM.PutParameter":
		if _, ok := f.params[in.Name]; ok && !in.Overwrite {
			fail("ParameterAlreadyExists")
			return
		}
		f.puts++
		f.params[in.Name], f.types[in.Name] = in.Value, in.Type
		_ = json.NewEncoder(w).Encode(map[string]any{"Version": 1})
	default:
		http.Error(w, "unexpected "+r.Header.Get("X-Amz-Target"), http.StatusBadRequest)
	}
}

func TestAppsWebhookKeyCreatesTheSSMSecureStringOnFirstUseAndPrintsOnlyItsPublicKey(t *testing.T) {
	ssm := &fakeSSM{params: map[string]string{}, types: map[string]string{}}
	srv := httptest.NewServer(ssm)
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ENDPOINT_URL_SSM", srv.URL)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	c, _ := setup(t)
	c.env["WEBHOOK_KEY_PARAMETER"] = "/bizplatform/webhook-signing-key"

	code, first, errOut := c.run("apps", "webhook-key")
	require.Equal(t, exitOK, code, errOut)
	require.Equal(t, 1, ssm.puts, "created on first use")
	assert.Equal(t, "SecureString", ssm.types["/bizplatform/webhook-signing-key"])
	priv, err := signingkey.Parse([]byte(ssm.params["/bizplatform/webhook-signing-key"]))
	require.NoError(t, err)
	assert.Equal(t, signingkey.PublicPEM(priv), first, "the stored key's public half")
	assert.NotContains(t, first, "PRIVATE")

	code, again, _ := c.run("apps", "webhook-key")
	require.Equal(t, exitOK, code)
	assert.Equal(t, first, again)
	assert.Equal(t, 1, ssm.puts, "read, not replaced, afterwards")
}

func TestAppsChooseTheEventTypesTheyReceiveFromTheRegistry(t *testing.T) {
	c, _ := setup(t)
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctEv", "--company", "coEv", "--name", "Ev")))
	code, out, errOut := c.run("apps", "create", "--company", "coEv", "--name", "Listener", "--redirect-uri", "https://l.example.com/cb",
		"--scopes", "contacts.readonly,associations/relation.write", "--webhook-url", "https://l.example.com/hooks", "--events", "TaskDelete, RelationCreate")
	require.Equal(t, exitOK, code, errOut)
	var app struct {
		AppID  string
		Events []string
	}
	require.NoError(t, json.Unmarshal([]byte(out), &app))
	assert.Equal(t, []string{"TaskDelete", "RelationCreate"}, app.Events)

	code, out, errOut = c.run("apps", "update", app.AppID, "--events", "NoteCreate")
	require.Equal(t, exitOK, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &app))
	assert.Equal(t, []string{"NoteCreate"}, app.Events)

	cases := []struct {
		name string
		args []string
		want string
	}{
		{"an unknown type is refused", []string{"apps", "update", app.AppID, "--events", "TaskDeleted"}, `"TaskDeleted" is not an event type`},
		{"update needs something to change", []string{"apps", "update", app.AppID}, "say what to change: --events, --require-pkce"},
		{"update needs the app", []string{"apps", "update", "--events", "TaskDelete"}, "give the app id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := c.run(tc.args...)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, errOut, tc.want)
		})
	}
}
