package webhooks_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
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
	return endpoints.New(f.env.Table, f.env.Clock, []string{"TaskDelete", "CouponDelete"}, true)
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
	all, err := events.List(ctx, f.env.Table, events.Owner{LocationID: account})
	require.NoError(t, err)
	for _, e := range all {
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

	deliveries, _, err := f.endpoints().DeliveriesPage(ctx, "acctHook", tasksEp.ID, "", 10, "")
	require.NoError(t, err)
	require.Len(t, deliveries, 2, "each listed with its endpoint's deliveries")
	for _, d := range deliveries {
		assert.Equal(t, tasksEp.ID, d.EndpointID)
		assert.Empty(t, d.AppID)
		require.Len(t, d.Attempts, 1)
		assert.Equal(t, http.StatusOK, d.Attempts[0].Status)
	}
}
