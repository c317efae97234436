package delivery_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/marketplace/delivery"
	"github.com/bizplatform/api/shared/storage"
)

// receiver is an app's webhook endpoint that fails its first failures
// requests, then answers 200; it keeps what it received.
type receiver struct {
	mu       sync.Mutex
	failures int
	bodies   [][]byte
	sigs     []string
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.bodies = append(rc.bodies, body)
	rc.sigs = append(rc.sigs, r.Header.Get(delivery.SignatureHeader))
	if rc.failures > 0 {
		rc.failures--
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (rc *receiver) received() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.bodies)
}

type fixture struct {
	env  *testenv.Env
	apps *marketplace.Apps
	app  marketplace.App
	key  ed25519.PrivateKey
	rc   *receiver
}

// newFixture registers an app whose webhook URL is a local receiver, and
// installs and uninstalls it n times: 2n events.
func newFixture(t *testing.T, failures, installs int) *fixture {
	env := testenv.New(t, []app.Area{testenv.PingArea})
	env.Account(t, "acctHook", "coHook")
	require.NoError(t, accounts.NewRegistry(env.Table, env.Clock).SetCompanyName(context.Background(), "coHook", "Hook & Sons"))
	rc := &receiver{failures: failures}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	apps := marketplace.New(env.Server.Tokens, env.Clock, true)
	ctx := context.Background()
	a, _, err := apps.Create(ctx, marketplace.NewApp{CompanyID: "coHook", Name: "Hooked", RedirectURIs: []string{"https://hooked.example.com/cb"},
		Scopes: []string{"contacts.readonly"}, WebhookURL: srv.URL + "/hooks"})
	require.NoError(t, err)
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	f := &fixture{env: env, apps: apps, app: a, key: key, rc: rc}
	for range installs {
		f.installAndUninstall(t)
	}
	return f
}

func (f *fixture) installAndUninstall(t *testing.T) {
	ctx := context.Background()
	code, err := f.apps.IssueCode(ctx, marketplace.Consent{App: f.app, RedirectURI: f.app.RedirectURIs[0], Scopes: f.app.Scopes, CompanyID: "coHook", AccountID: "acctHook", UserID: "usr1"})
	require.NoError(t, err)
	g := f.apps.NewGrant()
	g.UseCode(auth.HashToken(code))
	value, err := auth.GenerateToken()
	require.NoError(t, err)
	g.IssueAccess(auth.HashToken(value), f.env.Clock.Now().Add(time.Hour))
	_, err = g.Commit(ctx)
	require.NoError(t, err)
	require.NoError(t, f.apps.Uninstall(ctx, "acctHook", f.app.ID, auth.Operator))
}

func (f *fixture) deliverer() *delivery.Deliverer {
	return delivery.New(f.env.Table, f.env.Clock, f.key, nil, slog.New(slog.NewJSONHandler(io.Discard, nil)))
}

func (f *fixture) events(t *testing.T) []marketplace.Event {
	events, err := f.apps.Events(context.Background(), f.app.ID)
	require.NoError(t, err)
	return events
}

func TestEventsAreSignedWithEd25519OverTheRawBodyAndCarryThePublicPlatformsFields(t *testing.T) {
	f := newFixture(t, 0, 1)
	n, err := f.deliverer().Sweep(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	require.Equal(t, 2, f.rc.received())
	types := map[string]bool{}
	for i, body := range f.rc.bodies {
		sig, err := base64.StdEncoding.DecodeString(f.rc.sigs[i])
		require.NoError(t, err)
		assert.True(t, ed25519.Verify(f.key.Public().(ed25519.PublicKey), body, sig), "the signature is over the raw body")
		var ev map[string]any
		require.NoError(t, json.Unmarshal(body, &ev))
		types[ev["type"].(string)] = true
		for _, field := range []string{"type", "appId", "versionId", "installType", "locationId", "companyId", "timestamp", "webhookId"} {
			assert.Contains(t, ev, field)
		}
		assert.Equal(t, f.app.ID, ev["appId"])
		assert.Equal(t, "acctHook", ev["locationId"])
		assert.Equal(t, "coHook", ev["companyId"])
		assert.Equal(t, "Hook & Sons", ev["companyName"], "the company's name, as the public platform's INSTALL carries it")
	}
	assert.Equal(t, map[string]bool{marketplace.EventInstall: true, marketplace.EventUninstall: true}, types)
	for _, e := range f.events(t) {
		assert.Equal(t, marketplace.DeliveryDelivered, e.Status)
		require.Len(t, e.Attempts, 1)
		assert.Equal(t, http.StatusOK, e.Attempts[0].Status)
	}
	n, err = f.deliverer().Sweep(context.Background())
	require.NoError(t, err)
	assert.Zero(t, n, "a delivered event is not sent again")
}

func TestDeliveryIsRetriedWithBackoffWhileTheReceiverFailsAndStopsOnceItSucceeds(t *testing.T) {
	f := newFixture(t, 3, 0)
	f.installAndUninstall(t)
	d := f.deliverer()
	ctx := context.Background()
	// Two events, three failures: the first event fails twice, the second
	// once, then both succeed.
	waits := []time.Duration{0, delivery.NextRetry(1), delivery.NextRetry(2)}
	for i, wait := range waits {
		f.env.Clock.Advance(wait)
		_, err := d.Sweep(ctx)
		require.NoError(t, err, "sweep %d", i)
		n, err := d.Sweep(ctx)
		require.NoError(t, err)
		assert.Zero(t, n, "nothing is due again before its backoff ends")
	}
	assert.Equal(t, time.Minute, delivery.NextRetry(1))
	assert.Equal(t, 2*time.Minute, delivery.NextRetry(2))
	assert.Equal(t, delivery.MaxRetry, delivery.NextRetry(20))
	assert.Equal(t, 5, f.rc.received(), "3 failed attempts and 2 successful ones")
	attempts := 0
	for _, e := range f.events(t) {
		assert.Equal(t, marketplace.DeliveryDelivered, e.Status)
		attempts += len(e.Attempts)
		assert.Equal(t, http.StatusOK, e.Attempts[len(e.Attempts)-1].Status)
		for _, a := range e.Attempts[:len(e.Attempts)-1] {
			assert.Equal(t, http.StatusServiceUnavailable, a.Status, "each failed attempt's result is recorded")
		}
	}
	assert.Equal(t, 5, attempts)
	f.env.Clock.Advance(delivery.MaxRetry)
	n, err := d.Sweep(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "stopped once it succeeded")
}

func TestAnEventIsMarkedFailedAfterThreeDaysOfFailures(t *testing.T) {
	f := newFixture(t, 1_000_000, 0)
	f.installAndUninstall(t)
	d := f.deliverer()
	ctx := context.Background()
	for range 40 {
		_, err := d.Sweep(ctx)
		require.NoError(t, err)
		f.env.Clock.Advance(delivery.MaxRetry)
	}
	for _, e := range f.events(t) {
		assert.Equal(t, marketplace.DeliveryFailed, e.Status)
		assert.Empty(t, e.NextAt)
		first, last := e.Attempts[0].At, e.Attempts[len(e.Attempts)-1].At
		f, _ := time.Parse(time.RFC3339Nano, first)
		l, _ := time.Parse(time.RFC3339Nano, last)
		assert.LessOrEqual(t, l.Sub(f), delivery.GiveUp, "tried for 3 days at most")
		assert.Greater(t, l.Sub(f), delivery.GiveUp-delivery.MaxRetry, "and for nearly 3 days")
	}
	received := f.rc.received()
	f.env.Clock.Advance(delivery.MaxRetry)
	_, err := d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, received, f.rc.received(), "a failed event is not tried again")
}

func TestConcurrentDeliverersSendEachAttemptOnce(t *testing.T) {
	f := newFixture(t, 0, 3)
	var wg sync.WaitGroup
	var attempted atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := f.deliverer().Sweep(context.Background())
			assert.NoError(t, err)
			attempted.Add(int64(n))
		}()
	}
	wg.Wait()
	assert.Equal(t, 6, f.rc.received(), "6 events, each sent once")
	assert.EqualValues(t, 6, attempted.Load())
	for _, e := range f.events(t) {
		assert.Equal(t, marketplace.DeliveryDelivered, e.Status)
		assert.Len(t, e.Attempts, 1, "one attempt recorded")
	}
}

func TestAnAttemptWhoseDelivererDiedIsTakenUpOnceItsLeaseEnds(t *testing.T) {
	f := newFixture(t, 0, 0)
	f.installAndUninstall(t)
	ctx := context.Background()
	items, err := storage.QueryPartition[marketplace.EventItem](ctx, f.env.Table, marketplace.EventsPK(f.app.ID), "EVENT#")
	require.NoError(t, err)
	require.Len(t, items, 2)
	// A deliverer claimed the first event's attempt, then died before
	// posting it.
	claimed := expression.Set(expression.Name("leaseUntil"), expression.Value(clock.Timestamp(f.env.Clock.Now().Add(delivery.Lease))))
	require.NoError(t, f.env.Table.Update(ctx, items[0].Key, claimed, nil))

	d := f.deliverer()
	n, err := d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the claimed attempt is left to its deliverer while the lease lasts")
	f.env.Clock.Advance(delivery.Lease + time.Second)
	n, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "then taken up")
	assert.Equal(t, 2, f.rc.received())
	for _, e := range f.events(t) {
		assert.Equal(t, marketplace.DeliveryDelivered, e.Status)
		assert.Len(t, e.Attempts, 1)
	}
}

func TestTheDeployedDelivererRefusesAWebhookHostThatResolvesToAPrivateAddress(t *testing.T) {
	f := newFixture(t, 0, 1) // the receiver listens on 127.0.0.1
	d := delivery.New(f.env.Table, f.env.Clock, f.key, delivery.PublicOnlyClient(), slog.New(slog.NewJSONHandler(io.Discard, nil)))
	_, err := d.Sweep(context.Background())
	require.NoError(t, err)
	assert.Zero(t, f.rc.received(), "nothing posted to a loopback address")
	for _, e := range f.events(t) {
		assert.Equal(t, marketplace.DeliveryPending, e.Status, "tried again later, as any failed attempt")
		require.Len(t, e.Attempts, 1)
		assert.Equal(t, "the webhook host is not a public address", e.Attempts[0].Error)
	}
}

func TestAnEventAStreamRecordNamesIsDeliveredFromItsOwnItemBeforeTheIndexShowsIt(t *testing.T) {
	f := newFixture(t, 0, 0)
	ctx := context.Background()
	f.installAndUninstall(t)
	items, _, err := storage.QueryPage[marketplace.EventItem](ctx, f.env.Table,
		storage.Query{Key: expression.Key(storage.AttrPK).Equal(expression.Value(marketplace.EventsPK(f.app.ID)))}, 10, nil)
	require.NoError(t, err)
	require.Len(t, items, 2, "an INSTALL and an UNINSTALL")
	// The index has not caught up with the first event yet: only its own
	// item knows it is due.
	hidden := items[0]
	require.NoError(t, f.env.Table.Update(ctx, hidden.Key, expression.Remove(expression.Name(storage.AttrGSI1PK)), nil))
	d := f.deliverer()

	record := `{"Records":[{"eventName":"INSERT","eventSource":"aws:dynamodb","dynamodb":{"Keys":{"PK":{"S":"` + hidden.PK + `"},"SK":{"S":"` + hidden.SK + `"}}}},` +
		`{"eventName":"INSERT","eventSource":"aws:dynamodb","dynamodb":{"Keys":{"PK":{"S":"ACCOUNT#acctHook"},"SK":{"S":"TOKEN#x"}}}}]}`
	keys := delivery.StreamKeys(json.RawMessage(record))
	assert.Equal(t, []storage.Key{hidden.Key}, keys, "only webhook events are taken from a stream batch")
	assert.Empty(t, delivery.StreamKeys(json.RawMessage(`{"source":"aws.events","detail-type":"Scheduled Event"}`)), "the schedule's event names nothing")

	n, err := d.DeliverNamed(ctx, keys)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	require.Equal(t, 1, f.rc.received(), "delivered at once, not a minute later by the schedule")
	n, err = d.DeliverNamed(ctx, keys)
	require.NoError(t, err)
	assert.Zero(t, n, "a delivered event is not sent again when its record comes twice")
	n, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the sweep sends the other, which the index shows")
	assert.Equal(t, 2, f.rc.received())
}

func TestTheLocalDelivererFollowsNoRedirect(t *testing.T) {
	f := newFixture(t, 0, 0)
	target := &receiver{}
	targetSrv := httptest.NewServer(target)
	t.Cleanup(targetSrv.Close)
	redirector := httptest.NewServer(http.RedirectHandler(targetSrv.URL+"/elsewhere", http.StatusTemporaryRedirect))
	t.Cleanup(redirector.Close)
	var err error
	f.app, _, err = f.apps.Create(context.Background(), marketplace.NewApp{CompanyID: "coHook", Name: "Redirected", RedirectURIs: []string{"https://hooked.example.com/cb"},
		Scopes: []string{"contacts.readonly"}, WebhookURL: redirector.URL + "/hooks"})
	require.NoError(t, err)
	f.installAndUninstall(t)

	n, err := f.deliverer().Sweep(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Zero(t, target.received(), "the redirect's target is never posted to")
	for _, e := range f.events(t) {
		require.Len(t, e.Attempts, 1)
		assert.Equal(t, http.StatusTemporaryRedirect, e.Attempts[0].Status, "a 3xx is a failed attempt")
		assert.NotEqual(t, marketplace.DeliveryDelivered, e.Status)
	}
}
