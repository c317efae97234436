package webhooks_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
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
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/webhooks"
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
	rc.sigs = append(rc.sigs, r.Header.Get(deliveries.SignatureHeader))
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
	f.install(t, f.app, f.app.Scopes)
	require.NoError(t, f.apps.Uninstall(context.Background(), "acctHook", f.app.ID, auth.Operator))
}

// grant installs as the consent says: a code, exchanged for an access
// token (the install and its INSTALL event).
func (f *fixture) grant(t testing.TB, c marketplace.Consent) {
	ctx := context.Background()
	code, err := f.apps.IssueCode(ctx, c)
	require.NoError(t, err)
	g := f.apps.NewGrant()
	g.UseCode(auth.HashToken(code))
	value, err := auth.GenerateToken()
	require.NoError(t, err)
	g.IssueAccess(auth.HashToken(value), f.env.Clock.Now().Add(time.Hour))
	_, err = g.Commit(ctx)
	require.NoError(t, err)
}

func (f *fixture) deliverer() *webhooks.Deliverer {
	return webhooks.New(f.env.Table, f.env.Clock, f.key, nil, slog.New(slog.NewJSONHandler(io.Discard, nil)), metrics.NewMeter("", "")).WithSecrets(f.env.Deps.Secrets)
}

// deliveries are the fixture app's deliveries, oldest first (the listing
// is newest first).
func (f *fixture) deliveries(t *testing.T) []deliveries.Delivery {
	list, next, err := f.apps.Deliveries(context.Background(), f.app.ID, "", 1000, "")
	require.NoError(t, err)
	require.Empty(t, next, "one page holds them")
	slices.Reverse(list)
	return list
}

// handOn hands the waiting INSTALL and UNINSTALL events on as a deliverer
// would, making no attempt: their deliveries, due now.
func (f *fixture) handOn(t *testing.T) []deliveries.Item {
	ctx := context.Background()
	var made []deliveries.Item
	for n := range events.FanOutShards {
		waiting, err := events.WaitingFanOut(ctx, f.env.Table, n, 100)
		require.NoError(t, err)
		for _, ev := range waiting {
			require.NotNil(t, ev.Route, "a routed event: no receivers to read")
			added, err := deliveries.FanOut(ctx, f.env.Table, nil, ev, f.env.Clock.Now(), time.Time{})
			require.NoError(t, err)
			made = append(made, added...)
		}
	}
	return made
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
		assert.Contains(t, string(body), `"companyName":"Hook & Sons"`, "written as JSON.stringify writes it (no \u0026), which the SDK verifies")
	}
	assert.Equal(t, map[string]bool{marketplace.Installed.Name: true, marketplace.Uninstalled.Name: true}, types)
	for _, e := range f.deliveries(t) {
		assert.Equal(t, deliveries.Delivered, e.Status)
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
	waits := []time.Duration{0, deliveries.NextRetry(1), deliveries.NextRetry(2)}
	for i, wait := range waits {
		f.env.Clock.Advance(wait)
		_, err := d.Sweep(ctx)
		require.NoError(t, err, "sweep %d", i)
		n, err := d.Sweep(ctx)
		require.NoError(t, err)
		assert.Zero(t, n, "nothing is due again before its backoff ends")
	}
	assert.Equal(t, time.Minute, deliveries.NextRetry(1))
	assert.Equal(t, 2*time.Minute, deliveries.NextRetry(2))
	assert.Equal(t, deliveries.MaxRetry, deliveries.NextRetry(20))
	assert.Equal(t, 5, f.rc.received(), "3 failed attempts and 2 successful ones")
	attempts := 0
	for _, e := range f.deliveries(t) {
		assert.Equal(t, deliveries.Delivered, e.Status)
		attempts += len(e.Attempts)
		assert.Equal(t, http.StatusOK, e.Attempts[len(e.Attempts)-1].Status)
		for _, a := range e.Attempts[:len(e.Attempts)-1] {
			assert.Equal(t, http.StatusServiceUnavailable, a.Status, "each failed attempt's result is recorded")
		}
	}
	assert.Equal(t, 5, attempts)
	f.env.Clock.Advance(deliveries.MaxRetry)
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
		f.env.Clock.Advance(deliveries.MaxRetry)
	}
	for _, e := range f.deliveries(t) {
		assert.Equal(t, deliveries.Failed, e.Status)
		assert.Empty(t, e.NextAt)
		first, last := e.Attempts[0].At, e.Attempts[len(e.Attempts)-1].At
		f := clock.Parse(first)
		l := clock.Parse(last)
		assert.LessOrEqual(t, l.Sub(f), deliveries.GiveUp, "tried for 3 days at most")
		assert.Greater(t, l.Sub(f), deliveries.GiveUp-deliveries.MaxRetry, "and for nearly 3 days")
	}
	received := f.rc.received()
	f.env.Clock.Advance(deliveries.MaxRetry)
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
	for _, e := range f.deliveries(t) {
		assert.Equal(t, deliveries.Delivered, e.Status)
		assert.Len(t, e.Attempts, 1, "one attempt recorded")
	}
}

func TestAnAttemptWhoseDelivererDiedIsTakenUpOnceItsLeaseEnds(t *testing.T) {
	f := newFixture(t, 0, 0)
	f.installAndUninstall(t)
	ctx := context.Background()
	items := f.handOn(t)
	require.Len(t, items, 2)
	// A deliverer claimed the first delivery's attempt, then died before
	// posting it.
	claimed := expression.Set(expression.Name("leaseUntil"), expression.Value(clock.Timestamp(f.env.Clock.Now().Add(deliveries.Lease))))
	require.NoError(t, f.env.Table.Update(ctx, items[0].Key, claimed, nil))

	d := f.deliverer()
	n, err := d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the claimed attempt is left to its deliverer while the lease lasts")
	f.env.Clock.Advance(deliveries.Lease + time.Second)
	n, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "then taken up")
	assert.Equal(t, 2, f.rc.received())
	for _, e := range f.deliveries(t) {
		assert.Equal(t, deliveries.Delivered, e.Status)
		assert.Len(t, e.Attempts, 1)
	}
}

func TestTheDeployedDelivererRefusesAWebhookHostThatResolvesToAPrivateAddress(t *testing.T) {
	f := newFixture(t, 0, 1) // the receiver listens on 127.0.0.1
	d := webhooks.New(f.env.Table, f.env.Clock, f.key, webhooks.PublicOnlyClient(), slog.New(slog.NewJSONHandler(io.Discard, nil)), metrics.NewMeter("", "")).WithSecrets(f.env.Deps.Secrets)
	_, err := d.Sweep(context.Background())
	require.NoError(t, err)
	assert.Zero(t, f.rc.received(), "nothing posted to a loopback address")
	for _, e := range f.deliveries(t) {
		assert.Equal(t, deliveries.Pending, e.Status, "tried again later, as any failed attempt")
		require.Len(t, e.Attempts, 1)
		assert.Equal(t, "the webhook host is not a public address", e.Attempts[0].Error)
	}
}

func TestAStreamBatchsInstallIsDeliveredInItsInvocation(t *testing.T) {
	f := newFixture(t, 0, 0)
	ctx := context.Background()
	f.installAndUninstall(t)
	made := testenv.Events(t, f.env.Table, events.Owner{LocationID: "acctHook"})
	require.Len(t, made, 2, "an INSTALL and an UNINSTALL, events of the account")
	i := slices.IndexFunc(made, func(ev events.Recorded) bool { return ev.Type == marketplace.Installed.Name })
	require.GreaterOrEqual(t, i, 0)
	install := made[i].Key()
	d := f.deliverer()

	record := `{"Records":[{"eventName":"INSERT","eventSource":"aws:dynamodb","dynamodb":{"Keys":{"PK":{"S":"` + install.PK + `"},"SK":{"S":"` + install.SK + `"}}}},` +
		`{"eventName":"INSERT","eventSource":"aws:dynamodb","dynamodb":{"Keys":{"PK":{"S":"` + deliveries.PK(f.app.ID) + `"},"SK":{"S":"` + install.SK + `"}}}},` +
		`{"eventName":"INSERT","eventSource":"aws:dynamodb","dynamodb":{"Keys":{"PK":{"S":"ACCOUNT#acctHook"},"SK":{"S":"TOKEN#x"}}}}]}`
	keys := webhooks.StreamKeys(json.RawMessage(record))
	assert.Equal(t, []storage.Key{install}, keys, "only events are taken from a stream batch, not a delivery")
	assert.Empty(t, webhooks.StreamKeys(json.RawMessage(`{"source":"aws.events","detail-type":"Scheduled Event"}`)), "the schedule's event names nothing")

	n, err := d.DeliverNamed(ctx, keys)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	require.Equal(t, 1, f.rc.received(), "delivered at once, not a minute later by the schedule")
	n, err = d.DeliverNamed(ctx, keys)
	require.NoError(t, err)
	assert.Zero(t, n, "a delivered event is not sent again when its record comes twice")
	n, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "the sweep sends the other, which the fan-out index shows")
	assert.Equal(t, 2, f.rc.received())
}

// TestAnAccountsEventReachesExactlyTheAppsThatChoseItAndMayReadIt writes
// account events as a change's transaction does and sweeps: the app
// installed in the account, subscribed to the type and installed with a
// scope that reads it receives the event's exact body, signed; an event of
// a type it did not choose, or of an account it is not installed in, is
// not sent, nor is the event sent to an app installed without the scope.
func TestAnAccountsEventReachesExactlyTheAppsThatChoseItAndMayReadIt(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	f.choose(t, f.app, "TaskDelete")
	f.app.Events = []string{"TaskDelete"}
	f.install(t, f.app, f.app.Scopes)

	// Blind asks for contacts.readonly too, and its install was granted
	// medias.readonly alone.
	blind := &receiver{}
	blindSrv := httptest.NewServer(blind)
	t.Cleanup(blindSrv.Close)
	other, _, err := f.apps.Create(ctx, marketplace.NewApp{CompanyID: "coHook", Name: "Blind", RedirectURIs: []string{"https://blind.example.com/cb"},
		Scopes: []string{"contacts.readonly", "medias.readonly"}, WebhookURL: blindSrv.URL + "/hooks", Events: []string{"TaskDelete"}})
	require.NoError(t, err)
	f.install(t, other, []string{"medias.readonly"})

	task := events.Type{Name: "TaskDelete", Scope: "contacts.readonly", Version: 1, Fields: map[string]string{}}
	coupon := events.Type{Name: "CouponDelete", Scope: "contacts.readonly", Version: 1, Fields: map[string]string{}}
	write := func(typ events.Type, account string) {
		tx := f.env.Table.Tx()
		typ.Add(tx, events.Owner{LocationID: account}, map[string]string{"id": "t1"}, f.env.Clock.Now())
		require.NoError(t, tx.Commit(ctx))
	}
	write(task, "acctHook")
	write(coupon, "acctHook")
	write(task, "acctElsewhere")

	_, err = f.deliverer().Sweep(ctx)
	require.NoError(t, err)
	_, err = f.deliverer().Sweep(ctx)
	require.NoError(t, err)

	var taskBodies [][]byte
	for i, body := range f.rc.bodies {
		var ev map[string]any
		require.NoError(t, json.Unmarshal(body, &ev))
		if ev["type"] == marketplace.Installed.Name {
			continue
		}
		assert.Equal(t, "TaskDelete", ev["type"])
		assert.Equal(t, "acctHook", ev["locationId"])
		sig, err := base64.StdEncoding.DecodeString(f.rc.sigs[i])
		require.NoError(t, err)
		assert.True(t, ed25519.Verify(f.key.Public().(ed25519.PublicKey), body, sig), "signed over the exact body")
		taskBodies = append(taskBodies, body)
	}
	require.Len(t, taskBodies, 1, "the one subscribed event of its account, once")
	var want string
	for _, e := range testenv.Events(t, f.env.Table, events.Owner{LocationID: "acctHook"}) {
		if e.Type == "TaskDelete" {
			want = e.Body
		}
	}
	assert.Equal(t, strings.TrimSuffix(want, "}")+`,"appId":"`+f.app.ID+`"}`, string(taskBodies[0]), "the body as the change's transaction wrote it, naming the app last")
	for _, body := range blind.bodies {
		assert.NotContains(t, string(body), "TaskDelete", "an install without contacts scopes receives no contact event")
	}
	for n := range events.FanOutShards {
		waiting, err := events.WaitingFanOut(ctx, f.env.Table, n, 10)
		require.NoError(t, err)
		assert.Empty(t, waiting, "every event left the fan-out index")
	}
}

// install installs app into acctHook with scopes.
// choose sets the event types app receives, as apps update --events does.
func (f *fixture) choose(t testing.TB, app marketplace.App, types ...string) {
	_, err := f.apps.Update(context.Background(), app.ID, marketplace.AppChange{Events: &types}, auth.Operator)
	require.NoError(t, err)
}

func (f *fixture) install(t testing.TB, app marketplace.App, scopes []string) {
	f.grant(t, marketplace.Consent{App: app, RedirectURI: app.RedirectURIs[0], Scopes: scopes, CompanyID: "coHook", AccountID: "acctHook", UserID: "usr1"})
}

// BenchmarkDeliveryToALocalReceiver measures events delivered per second:
// n account events written as changes write them, then fanned out to one
// subscribed app and delivered to its local receiver by sweeps, until the
// receiver has every one.
//
//	go test -run '^$' -bench Delivery -benchtime 1x ./webhooks/
func BenchmarkDeliveryToALocalReceiver(b *testing.B) {
	n := benchEvents()
	ctx := context.Background()
	env := testenv.New(b, []app.Area{testenv.PingArea})
	env.Account(b, "acctHook", "coHook")
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	b.Cleanup(srv.Close)
	apps := marketplace.New(env.Server.Tokens, env.Clock, true)
	a, _, err := apps.Create(ctx, marketplace.NewApp{CompanyID: "coHook", Name: "Bench", RedirectURIs: []string{"https://bench.example.com/cb"},
		Scopes: []string{"contacts.readonly"}, WebhookURL: srv.URL + "/hooks", Events: []string{"TaskDelete"}})
	require.NoError(b, err)
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(b, err)
	f := &fixture{env: env, apps: apps, app: a, key: key, rc: rc}
	f.install(b, a, a.Scopes)
	task := events.Type{Name: "TaskDelete", Scope: "contacts.readonly", Version: 1, Fields: map[string]string{}}
	d := f.deliverer()
	for range b.N {
		b.StopTimer()
		rc.mu.Lock()
		rc.bodies, rc.sigs = nil, nil
		rc.mu.Unlock()
		_, err := d.Sweep(ctx) // the INSTALL event
		require.NoError(b, err)
		base := rc.received()
		for i := range n {
			tx := env.Table.Tx()
			task.Add(tx, events.Owner{LocationID: "acctHook"}, map[string]string{"id": fmt.Sprint("t", i)}, env.Clock.Now())
			require.NoError(b, tx.Commit(ctx))
		}
		b.StartTimer()
		start := time.Now()
		for rc.received() < base+n && time.Since(start) < 2*time.Minute {
			sent, err := d.Sweep(ctx)
			require.NoError(b, err)
			if os.Getenv("BENCH_TRACE") != "" {
				b.Logf("sweep attempted %d, received %d", sent, rc.received())
			}
		}
		elapsed := time.Since(start)
		require.Equal(b, base+n, rc.received(), "every event delivered, once")
		b.ReportMetric(float64(n)/elapsed.Seconds(), "events/s")
	}
}

// benchEvents is the benchmark's number of events (BENCH_EVENTS, else 400).
func benchEvents() int {
	if v, err := strconv.Atoi(os.Getenv("BENCH_EVENTS")); err == nil && v > 0 {
		return v
	}
	return 400
}

// slowReceiver answers 200 after a pause.
type slowReceiver struct {
	receiver
	pause time.Duration
}

func (s *slowReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	time.Sleep(s.pause)
	s.receiver.ServeHTTP(w, r)
}

func TestASlowReceiverDelaysOnlyItsOwnEvents(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	slow := &slowReceiver{pause: 3 * time.Second}
	slowSrv := httptest.NewServer(slow)
	t.Cleanup(slowSrv.Close)
	sluggish, _, err := f.apps.Create(ctx, marketplace.NewApp{CompanyID: "coHook", Name: "Sluggish", RedirectURIs: []string{"https://slow.example.com/cb"},
		Scopes: []string{"contacts.readonly"}, WebhookURL: slowSrv.URL + "/hooks"})
	require.NoError(t, err)
	f.install(t, sluggish, sluggish.Scopes) // its INSTALL event goes to the slow receiver
	f.install(t, f.app, f.app.Scopes)       // this one's to the quick one

	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := f.deliverer().Sweep(ctx)
		assert.NoError(t, err)
	}()
	start := time.Now()
	for f.rc.received() == 0 && time.Since(start) < 10*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, 1, f.rc.received())
	assert.Less(t, time.Since(start), 2*time.Second, "the quick receiver's event did not wait for the slow one's answer")
	<-done
	assert.Equal(t, 1, slow.received(), "the slow one's event was delivered too")
}

// limitedReceiver answers 429 with a Retry-After.
type limitedReceiver struct{ after string }

func (l *limitedReceiver) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Retry-After", l.after)
	w.WriteHeader(http.StatusTooManyRequests)
}

func TestA429sRetryAfterPostponesTheNextAttemptBeyondTheBackoff(t *testing.T) {
	cases := []struct {
		name  string
		after string
		want  time.Duration
	}{
		{"seconds longer than the backoff are waited", "7200", 2 * time.Hour},
		{"a shorter wait keeps the backoff", "5", deliveries.FirstRetry},
		{"an unreadable value keeps the backoff", "soon", deliveries.FirstRetry},
		{"a wait is bounded by the longest backoff", "864000", deliveries.MaxRetry},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, 0, 0)
			lr := &limitedReceiver{after: tc.after}
			srv := httptest.NewServer(lr)
			t.Cleanup(srv.Close)
			limited, _, err := f.apps.Create(ctx, marketplace.NewApp{CompanyID: "coHook", Name: "Limited", RedirectURIs: []string{"https://l.example.com/cb"},
				Scopes: []string{"contacts.readonly"}, WebhookURL: srv.URL + "/hooks"})
			require.NoError(t, err)
			f.install(t, limited, limited.Scopes)
			_, err = f.deliverer().Sweep(ctx)
			require.NoError(t, err)
			evs, _, err := f.apps.Deliveries(ctx, limited.ID, "", 10, "")
			require.NoError(t, err)
			require.Len(t, evs, 1)
			require.Len(t, evs[0].Attempts, 1)
			assert.Equal(t, http.StatusTooManyRequests, evs[0].Attempts[0].Status)
			next := clock.Parse(evs[0].NextAt)
			assert.Equal(t, tc.want, next.Sub(f.env.Clock.Now()))
		})
	}
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
	for _, e := range f.deliveries(t) {
		require.Len(t, e.Attempts, 1)
		assert.Equal(t, http.StatusTemporaryRedirect, e.Attempts[0].Status, "a 3xx is a failed attempt")
		assert.NotEqual(t, deliveries.Delivered, e.Status)
	}
}
