package webhooks_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/webhooks"
)

// verifier is an account's endpoint: it checks each request's Ed25519
// signature over the raw body (401 when it does not verify) and keeps the
// events it accepted.
type verifier struct {
	key ed25519.PublicKey
	// answer, when set, is the answer to give instead of accepting.
	answer func(w http.ResponseWriter, r *http.Request) bool

	mu       sync.Mutex
	accepted []map[string]any
	requests int
}

func (v *verifier) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	v.mu.Lock()
	v.requests++
	answer := v.answer
	v.mu.Unlock()
	sig, err := base64.StdEncoding.DecodeString(r.Header.Get("x-ghl-signature"))
	if err != nil || !ed25519.Verify(v.key, body, sig) {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if answer != nil && answer(w, r) {
		return
	}
	var ev map[string]any
	if json.Unmarshal(body, &ev) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	v.mu.Lock()
	v.accepted = append(v.accepted, ev)
	v.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (v *verifier) events() []map[string]any {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]map[string]any(nil), v.accepted...)
}

// endpointTo adds an endpoint of account taking types, posting to a new
// verifier.
func (f *fixture) endpointTo(t *testing.T, account string, types []string) (*verifier, endpoints.Endpoint, *httptest.Server) {
	v := &verifier{key: f.key.Public().(ed25519.PublicKey)}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	e, err := f.endpoints().Add(context.Background(), account, endpoints.Input{URL: ptr(srv.URL + "/in"), Events: &types}, admin)
	require.NoError(t, err)
	return v, e, srv
}

func (f *fixture) endpoints() *endpoints.Store {
	return endpoints.New(f.env.Table, f.env.Clock, true).Sealing(f.env.Deps.Secrets)
}

var admin = auth.Actor{ID: "u1", Name: "Ada Admin"}

func ptr[T any](v T) *T { return &v }

var (
	taskDelete   = events.Type{Name: "TaskDelete", Scope: "contacts.readonly", Version: 1, Fields: map[string]string{}}
	couponDelete = events.Type{Name: "CouponDelete", Scope: "payments/coupons.readonly", Version: 1, Fields: map[string]string{}}
)

// write commits an event of typ in account, as a change's transaction
// does, and returns its webhookId.
func (f *fixture) write(t *testing.T, typ events.Type, account, id string) string {
	ctx := context.Background()
	tx := f.env.Table.Tx()
	typ.Add(tx, events.Owner{LocationID: account}, map[string]string{"id": id}, f.env.Clock.Now())
	require.NoError(t, tx.Commit(ctx))
	for _, e := range testenv.Events(t, f.env.Table, events.Owner{LocationID: account}) {
		var body map[string]any
		require.NoError(t, json.Unmarshal([]byte(e.Body), &body))
		if body["id"] == id {
			return e.ID
		}
	}
	t.Fatalf("no event of %s", id)
	return ""
}

func TestAnAccountsEndpointGetsExactlyTheTypesItChoseOfItsOwnAccount(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	f.env.Account(t, "acctOther", "coHook")
	tasks, tasksEp, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	off, offEp, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete", "CouponDelete"})
	_, err := f.endpoints().Update(ctx, "acctHook", offEp.ID, endpoints.Input{Enabled: ptr(false)}, admin)
	require.NoError(t, err)
	elsewhere, _, _ := f.endpointTo(t, "acctOther", []string{"TaskDelete", "CouponDelete"})

	want := map[string]bool{
		f.write(t, taskDelete, "acctHook", "t1"): true,
		f.write(t, taskDelete, "acctHook", "t2"): true,
	}
	f.write(t, couponDelete, "acctHook", "c1")
	for range 2 { // a second sweep hands on and sends nothing twice
		_, err := f.deliverer().Sweep(ctx)
		require.NoError(t, err)
	}

	got := tasks.events()
	require.Len(t, got, 2, "the two TaskDelete events of its account, once each, signed")
	for _, ev := range got {
		assert.Equal(t, "TaskDelete", ev["type"])
		assert.Equal(t, "acctHook", ev["locationId"])
		assert.True(t, want[ev["webhookId"].(string)])
		assert.NotContains(t, ev, "appId", "an account's endpoint gets the body as recorded")
	}
	assert.Zero(t, off.requests, "a disabled endpoint gets nothing")
	assert.Zero(t, elsewhere.requests, "another account's endpoint gets nothing")

	sent, _, err := f.endpoints().Deliveries(ctx, "acctHook", tasksEp.ID, "", 10, "")
	require.NoError(t, err)
	require.Len(t, sent, 2, "each listed with its endpoint's deliveries")
	for _, d := range sent {
		assert.Equal(t, tasksEp.ID, d.EndpointID)
		assert.Empty(t, d.AppID)
		require.Len(t, d.Attempts, 1)
		assert.Equal(t, http.StatusOK, d.Attempts[0].Status)
	}
}

// TestAReceiverThatRefusesForAWhileGetsEveryEventOnceAfterItRecovers makes
// events while the receiver refuses them every way it can (nothing
// listening, 503, 429 with a Retry-After, no answer in time, the
// connection dropped), then answers: after the backoff each event arrives
// exactly once, none lost, for an account's endpoint as for an app.
func TestAReceiverThatRefusesForAWhileGetsEveryEventOnceAfterItRecovers(t *testing.T) {
	cases := []struct {
		name string
		// setup adds the receiver at url and returns its id (its
		// deliveries' partition).
		setup func(t *testing.T, f *fixture, url string) string
	}{
		{"an account's endpoint that chose the type", func(t *testing.T, f *fixture, url string) string {
			e, err := f.endpoints().Add(context.Background(), "acctHook", endpoints.Input{URL: &url, Events: &[]string{"TaskDelete"}}, admin)
			require.NoError(t, err)
			return e.ID
		}},
		{"a marketplace app subscribed to the type", func(t *testing.T, f *fixture, url string) string {
			a, _, err := f.apps.Create(context.Background(), marketplace.NewApp{CompanyID: "coHook", Name: "Flaky", RedirectURIs: []string{"https://flaky.example.com/cb"},
				Scopes: []string{"contacts.readonly"}, WebhookURL: url, Events: []string{"TaskDelete"}})
			require.NoError(t, err)
			f.install(t, a, a.Scopes)
			return a.ID
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, 0, 0)
			// A port nothing listens on yet: attempts are refused.
			l, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			addr := l.Addr().String()
			require.NoError(t, l.Close())
			id := tc.setup(t, f, "http://"+addr+"/in")
			v := &verifier{key: f.key.Public().(ed25519.PublicKey)}
			quick := &http.Client{Timeout: 300 * time.Millisecond, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			d := webhooks.New(f.env.Table, f.env.Clock, f.key, quick, slog.New(slog.NewJSONHandler(io.Discard, nil)), metrics.NewMeter("", "")).WithSecrets(f.env.Deps.Secrets)

			want := map[string]bool{}
			made := 0
			phase := func(answer func(w http.ResponseWriter, r *http.Request) bool) {
				v.mu.Lock()
				v.answer = answer
				v.mu.Unlock()
				for range 2 {
					made++
					want[f.write(t, taskDelete, "acctHook", fmt.Sprint("t", made))] = true
					_, err := d.Sweep(ctx)
					require.NoError(t, err)
					f.env.Clock.Advance(20 * time.Minute)
				}
			}
			phase(nil) // refused: nothing listens
			srv := httptest.NewUnstartedServer(v)
			srv.Listener.Close()
			srv.Listener, err = net.Listen("tcp", addr)
			require.NoError(t, err)
			srv.Start()
			t.Cleanup(srv.Close)
			phase(func(w http.ResponseWriter, _ *http.Request) bool {
				w.WriteHeader(http.StatusServiceUnavailable)
				return true
			})
			phase(func(w http.ResponseWriter, _ *http.Request) bool {
				w.Header().Set("Retry-After", "3600")
				w.WriteHeader(http.StatusTooManyRequests)
				return true
			})
			phase(func(_ http.ResponseWriter, r *http.Request) bool {
				select { // no answer within the client's timeout
				case <-r.Context().Done():
				case <-time.After(2 * time.Second):
				}
				return true
			})
			phase(func(w http.ResponseWriter, _ *http.Request) bool {
				c, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					c.Close() // the connection dropped, no answer
				}
				return true
			})
			v.mu.Lock()
			refused := v.requests
			v.mu.Unlock()
			assert.Positive(t, refused, "the receiver was tried while it refused")
			for _, ev := range v.events() {
				assert.NotEqual(t, "TaskDelete", ev["type"], "nothing accepted while it refused")
			}

			v.mu.Lock()
			v.answer = nil // recovered
			v.mu.Unlock()
			for range 24 { // a day of sweeps, an hour apart: past every backoff
				_, err := d.Sweep(ctx)
				require.NoError(t, err)
				f.env.Clock.Advance(time.Hour)
			}
			got := map[string]int{}
			for _, ev := range v.events() {
				if ev["type"] == "TaskDelete" {
					got[ev["webhookId"].(string)]++
				}
			}
			require.Len(t, want, 10)
			for id := range want {
				assert.Equal(t, 1, got[id], "event %s arrives exactly once", id)
			}
			assert.Len(t, got, len(want), "and nothing else")

			items, err := storage.QueryPartition[deliveries.Item](ctx, f.env.Table, deliveries.PK(id), "EVENT#")
			require.NoError(t, err)
			seen := map[string]bool{}
			for _, it := range items {
				if it.Type != "TaskDelete" {
					continue
				}
				assert.Equal(t, deliveries.Delivered, it.Status)
				for _, a := range it.Attempts {
					switch {
					case a.Status != 0:
						seen[fmt.Sprint(a.Status)] = true
					case strings.Contains(a.Error, "refused"):
						seen["refused"] = true
					case strings.HasPrefix(a.Error, "no answer within"):
						seen["timeout"] = true
					case strings.Contains(a.Error, "EOF"):
						seen["dropped"] = true
					default:
						seen[a.Error] = true
					}
				}
			}
			for _, k := range []string{"refused", "503", "429", "timeout", "dropped", "200"} {
				assert.True(t, seen[k], "an attempt %s is recorded (seen: %v)", k, seen)
			}
		})
	}
}

func TestAnEndpointThatFailedEverythingForThreeDaysIsDisabledAndCatchesUpOnceEnabled(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, e, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	v.answer = func(w http.ResponseWriter, _ *http.Request) bool {
		w.WriteHeader(http.StatusBadGateway)
		return true
	}
	d := f.deliverer()
	start := f.env.Clock.Now()
	var made, after []string // before and after the disabling
	read := func() endpoints.Endpoint {
		got, err := f.endpoints().Get(ctx, "acctHook", e.ID)
		require.NoError(t, err)
		return got
	}
	// An event every 12 hours, sweeps every hour, for 4 days.
	var disabledAt time.Time
	requestsThen := 0
	for hour := range 4 * 24 {
		if hour%12 == 0 {
			id := f.write(t, taskDelete, "acctHook", fmt.Sprint("t", hour))
			if disabledAt.IsZero() {
				made = append(made, id)
			} else {
				after = append(after, id)
			}
		}
		_, err := d.Sweep(ctx)
		require.NoError(t, err)
		if hour == 0 {
			assert.Equal(t, clock.Timestamp(start), read().FailingSince, "the first failure is noted")
		}
		if disabledAt.IsZero() && !read().Enabled {
			disabledAt = f.env.Clock.Now()
			requestsThen = v.requests
		}
		f.env.Clock.Advance(time.Hour)
	}
	require.False(t, disabledAt.IsZero(), "disabled")
	assert.Greater(t, disabledAt.Sub(start), endpoints.FailingLimit, "after failing for 3 days")
	assert.LessOrEqual(t, disabledAt.Sub(start), endpoints.FailingLimit+time.Hour, "at its first failure after that")
	off := read()
	assert.Equal(t, endpoints.DisabledFailing, off.DisabledReason)
	assert.Equal(t, clock.Timestamp(disabledAt), off.DisabledAt)
	assert.Equal(t, requestsThen, v.requests, "nothing is posted to a disabled endpoint")

	entries, err := f.env.Server.Tokens.Audit(ctx, "acctHook", 10)
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	assert.Equal(t, endpoints.AuditDisabled, entries[0].Action, "the disabling is audited")
	assert.Equal(t, endpoints.Deliverer, entries[0].By)
	assert.Equal(t, e.ID, entries[0].TokenID)

	sent, _, err := f.endpoints().Deliveries(ctx, "acctHook", e.ID, "", 50, "")
	require.NoError(t, err)
	require.NotEmpty(t, after)
	require.Len(t, sent, len(made), "no event made after the disabling is handed to it")
	endedByDisabling := 0
	for _, dl := range sent {
		assert.Equal(t, deliveries.Failed, dl.Status, "every delivery ended as failed")
		if strings.HasPrefix(dl.Attempts[len(dl.Attempts)-1].Error, "the endpoint is disabled") {
			endedByDisabling++
		}
	}
	assert.Positive(t, endedByDisabling, "those pending when it was disabled end, saying why")

	// An admin fixes the receiver, enables the endpoint and redelivers
	// what failed: each event arrives once.
	v.mu.Lock()
	v.answer = nil
	v.mu.Unlock()
	on, err := f.endpoints().Update(ctx, "acctHook", e.ID, endpoints.Input{Enabled: ptr(true)}, admin)
	require.NoError(t, err)
	assert.Empty(t, on.FailingSince)
	n, err := f.endpoints().Redeliver(ctx, "acctHook", e.ID, deliveries.Redelivery{FailedSince: start}, admin)
	require.NoError(t, err)
	assert.Equal(t, len(made), n.Queued)
	_, err = d.Sweep(ctx)
	require.NoError(t, err)
	got := map[string]int{}
	for _, ev := range v.events() {
		got[ev["webhookId"].(string)]++
	}
	for _, id := range made {
		assert.Equal(t, 1, got[id], "event %s caught up once", id)
	}
	assert.Len(t, got, len(made), "those made while it was disabled are not sent (GET /events has them)")
}

// WEBHOOK_RETRY_FOR=10m, as an admin trying it locally sets it: the
// whole schedule shrinks alike, so that a failing receiver's delivery
// fails, and its endpoint is disabled, after 10 minutes, and it recovers
// as after 3 days.
func TestOnATenMinuteLocalScheduleAFailingEndpointIsDisabledAfterTenMinutes(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, e, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	v.answer = func(w http.ResponseWriter, _ *http.Request) bool {
		w.WriteHeader(http.StatusServiceUnavailable)
		return true
	}
	schedule, err := deliveries.ScheduleFor(10*time.Minute, true)
	require.NoError(t, err)
	d := f.deliverer().OnSchedule(schedule)
	store := f.endpoints().OnSchedule(schedule)
	start := f.env.Clock.Now()
	first := f.write(t, taskDelete, "acctHook", "t0")
	var disabledAt time.Time
	// A look every 2 s, as the local server's loop, for 11 minutes, and an
	// event every minute: failures keep coming.
	for i := range 11 * 30 {
		if i > 0 && i%30 == 0 {
			f.write(t, taskDelete, "acctHook", fmt.Sprint("t", i))
		}
		_, err := d.Sweep(ctx)
		require.NoError(t, err)
		got, err := store.Get(ctx, "acctHook", e.ID)
		require.NoError(t, err)
		if !got.Enabled {
			disabledAt = f.env.Clock.Now()
			break
		}
		f.env.Clock.Advance(2 * time.Second)
	}
	require.False(t, disabledAt.IsZero(), "disabled within 11 minutes")
	assert.Greater(t, disabledAt.Sub(start), 10*time.Minute, "after failing for 10 minutes")
	assert.LessOrEqual(t, disabledAt.Sub(start), 10*time.Minute+schedule.MaxRetry, "at its first failure after that")
	sent, _, err := store.Deliveries(ctx, "acctHook", e.ID, "", 20, "")
	require.NoError(t, err)
	require.Len(t, sent, 11)
	oldest := sent[len(sent)-1]
	assert.Equal(t, first, oldest.ID)
	assert.Equal(t, deliveries.Failed, oldest.Status, "the first delivery gave up")
	assert.NotContains(t, oldest.Attempts[len(oldest.Attempts)-1].Error, "disabled", "on its own, after its 10 minutes")
	assert.Greater(t, len(oldest.Attempts), 10, "after many attempts, the backoff shrunk alike")

	v.mu.Lock()
	v.answer = nil
	v.mu.Unlock()
	_, err = store.Update(ctx, "acctHook", e.ID, endpoints.Input{Enabled: ptr(true)}, admin)
	require.NoError(t, err)
	n, err := store.Redeliver(ctx, "acctHook", e.ID, deliveries.Redelivery{FailedSince: start}, admin)
	require.NoError(t, err)
	assert.Positive(t, n.Queued, "the failed ones are queued again")
	for range 3 { // and the pending ones come due again
		_, err = d.Sweep(ctx)
		require.NoError(t, err)
		f.env.Clock.Advance(schedule.MaxRetry)
	}
	got := map[string]int{}
	for _, ev := range v.events() {
		got[ev["webhookId"].(string)]++
	}
	assert.Len(t, got, 11, "it recovers: every event arrives")
	for id, times := range got {
		assert.Equal(t, 1, times, "event %s arrives once", id)
	}
	on, err := store.Get(ctx, "acctHook", e.ID)
	require.NoError(t, err)
	assert.True(t, on.Enabled)
	assert.Empty(t, on.FailingSince)
}

func TestAnEndpointsFailuresAreWrittenOnlyWhenTheyStartOrStop(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, e, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	d := f.deliverer()
	read := func() endpoints.Endpoint {
		got, err := f.endpoints().Get(ctx, "acctHook", e.ID)
		require.NoError(t, err)
		return got
	}
	sweep := func() {
		_, err := d.Sweep(ctx)
		require.NoError(t, err)
	}
	f.write(t, taskDelete, "acctHook", "t1")
	sweep()
	assert.Equal(t, e.Version, read().Version, "a delivered attempt to an answering endpoint writes nothing to it")

	v.answer = func(w http.ResponseWriter, _ *http.Request) bool {
		w.WriteHeader(http.StatusInternalServerError)
		return true
	}
	failedAt := f.env.Clock.Now()
	f.write(t, taskDelete, "acctHook", "t2")
	f.write(t, taskDelete, "acctHook", "t3")
	sweep()
	failing := read()
	assert.Equal(t, clock.Timestamp(failedAt), failing.FailingSince, "the first failure is noted")
	assert.Equal(t, e.Version+1, failing.Version, "once for both failures")
	f.env.Clock.Advance(deliveries.FirstRetry)
	sweep()
	assert.Equal(t, failing, read(), "a further failure within the limit writes nothing")

	v.answer = nil
	f.env.Clock.Advance(deliveries.NextRetry(2))
	sweep()
	answering := read()
	assert.Empty(t, answering.FailingSince, "a delivered attempt clears the failures")
	assert.True(t, answering.Enabled)
	assert.Equal(t, 3, len(v.events()))
}

func TestTheDeliveriesOfARemovedEndpointEndWithoutBeingSent(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, e, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	v.answer = func(w http.ResponseWriter, _ *http.Request) bool {
		w.WriteHeader(http.StatusServiceUnavailable)
		return true
	}
	f.write(t, taskDelete, "acctHook", "t1")
	d := f.deliverer()
	_, err := d.Sweep(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, v.requests)
	require.NoError(t, f.endpoints().Remove(ctx, "acctHook", e.ID, admin))
	f.env.Clock.Advance(deliveries.FirstRetry)
	_, err = d.Sweep(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, v.requests, "not sent again")
	items, err := storage.QueryPartition[deliveries.Item](ctx, f.env.Table, deliveries.PK(e.ID), "EVENT#")
	require.NoError(t, err)
	require.Len(t, items, 1)
	assert.Equal(t, deliveries.Failed, items[0].Status, "out of the due index")
	assert.Equal(t, "the endpoint was removed", items[0].Attempts[1].Error)
}
