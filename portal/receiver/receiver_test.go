package receiver_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/portal/receiver"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/webhooks"
)

// The snippets the portal's Webhooks page shows (verify.go, verify.js:
// the page renders these files) run against real deliveries: the
// deliverer posts real events to an endpoint, and a receiver built from
// the page's public key, the endpoint's secret as shown once and the
// snippet alone accepts each, and refuses it changed, replayed late or
// checked with another secret.

type delivery struct {
	header http.Header
	body   []byte
}

type capture struct {
	mu  sync.Mutex
	got []delivery
}

func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, delivery{r.Header.Clone(), body})
	w.WriteHeader(http.StatusOK)
}

// delivered is what real deliveries make: the published key, the
// endpoint's first secret and the secret it was rotated to (keeping the
// first), a delivery signed with the first alone and one with both.
type delivered struct {
	publicKeyPEM  string
	first, second string
	one, both     delivery
}

func deliver(t *testing.T) delivered {
	ctx := context.Background()
	// The real time: the Node library checks webhook-timestamp against
	// its own clock.
	env := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithClock(clock.NewManual(time.Now())))
	env.Account(t, "acctRecv", "coRecv")
	c := &capture{}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	store := endpoints.New(env.Table, env.Clock, true).Sealing(env.Deps.Secrets)
	e, err := store.Add(ctx, "acctRecv", endpoints.Input{URL: ptr(srv.URL + "/in"), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	d := webhooks.New(env.Table, env.Clock, key, nil, slog.New(slog.NewJSONHandler(io.Discard, nil)), metrics.NewMeter("", "")).WithSecrets(env.Deps.Secrets)
	require.NoError(t, d.PublishKey(ctx))
	published, err := deliveries.PublishedKey(ctx, env.Table)
	require.NoError(t, err)

	taskDelete := events.Type{Name: "TaskDelete", Scope: "contacts.readonly", Version: 1, Fields: map[string]string{}}
	write := func(id string) {
		tx := env.Table.Tx()
		// A body with what JSON re-encoding would change: the raw bytes
		// are what is signed.
		taskDelete.Add(tx, events.Owner{LocationID: "acctRecv"}, map[string]string{"id": id, "title": "<b>Q&A</b> \u2028 é"}, env.Clock.Now())
		require.NoError(t, tx.Commit(ctx))
		_, err := d.Sweep(ctx)
		require.NoError(t, err)
	}
	write("t1")
	rotated, err := store.RotateSecret(ctx, endpoints.Rotation{AccountID: "acctRecv", EndpointID: e.ID, KeepOld: true, By: auth.Operator})
	require.NoError(t, err)
	write("t2")
	require.Len(t, c.got, 2)
	require.Contains(t, c.got[1].header.Get("webhook-signature"), " ", "signed with both secrets")
	return delivered{publicKeyPEM: published.PEM, first: e.SigningSecret, second: rotated.SigningSecret, one: c.got[0], both: c.got[1]}
}

func ptr[T any](v T) *T { return &v }

// check is one verification a receiver makes, and what it should say.
type check struct {
	name   string
	secret string
	d      delivery
	later  time.Duration
	ok     bool
}

func checks(got delivered) []check {
	changed := delivery{header: got.one.header, body: []byte(strings.Replace(string(got.one.body), `"t1"`, `"t9"`, 1))}
	unsigned := delivery{header: got.one.header.Clone(), body: got.one.body}
	unsigned.header.Del("webhook-signature")
	return []check{
		{"a delivery, with its endpoint's secret", got.first, got.one, 0, true},
		{"a delivery during a rotation, with the new secret", got.second, got.both, 0, true},
		{"a delivery during a rotation, with the old secret", got.first, got.both, 0, true},
		{"a delivery made before the rotation, with the new secret", got.second, got.one, 0, false},
		{"a changed body", got.first, changed, 0, false},
		{"a delivery without webhook-signature", got.first, unsigned, 0, false},
		{"a delivery replayed 6 minutes later", got.first, got.one, 6 * time.Minute, false},
	}
}

func TestTheGoSnippetVerifiesRealDeliveries(t *testing.T) {
	got := deliver(t)
	for _, c := range checks(got) {
		t.Run(c.name, func(t *testing.T) {
			v, err := receiver.NewVerifier(got.publicKeyPEM, c.secret)
			require.NoError(t, err)
			err = v.Verify(c.d.body, c.d.header, time.Now().Add(c.later))
			assert.Equal(t, c.ok, err == nil, "%v", err)
		})
	}
}

// nodeCase is a check as the Node runner (testdata/run.js) reads it.
type nodeCase struct {
	Name         string            `json:"name"`
	Secret       string            `json:"secret"`
	Body         string            `json:"body"` // base64 of the raw body
	Headers      map[string]string `json:"headers"`
	LaterSeconds int               `json:"laterSeconds"`
}

func TestTheNodeSnippetVerifiesRealDeliveriesWithTheStandardWebhooksLibrary(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	probe := exec.Command(node, "-e", `require("standardwebhooks")`)
	probe.Dir = "."
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("the Node tools are not installed (npm ci): %s", out)
	}
	got := deliver(t)
	var cases []nodeCase
	want := ""
	for _, c := range checks(got) {
		headers := map[string]string{}
		for k := range c.d.header {
			headers[strings.ToLower(k)] = c.d.header.Get(k) // as Node's req.headers
		}
		cases = append(cases, nodeCase{Name: c.name, Secret: c.secret, Body: base64.StdEncoding.EncodeToString(c.d.body), Headers: headers, LaterSeconds: int(c.later / time.Second)})
		verdict := "refused"
		if c.ok {
			verdict = "ok"
		}
		want += c.name + ": " + verdict + "\n"
	}
	input, err := json.Marshal(map[string]any{"publicKeyPem": got.publicKeyPEM, "cases": cases})
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "deliveries.json")
	require.NoError(t, os.WriteFile(file, input, 0o600))
	run := exec.Command(node, filepath.Join("testdata", "run.js"), file)
	out, err := run.Output()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, want, string(out))
}
