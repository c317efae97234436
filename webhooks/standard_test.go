package webhooks_test

import (
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/webhooks"
)

// The Standard Webhooks signature of account endpoints' deliveries, checked
// with the specification's algorithm as written here, from its text alone
// (spec/standard-webhooks.md, "Signature scheme" and "Verifying
// signatures"): not with the code that signs.

// tolerance is the libraries' window for webhook-timestamp.
const tolerance = 5 * time.Minute

var (
	errStale       = errors.New("timestamp outside the tolerance")
	errNoSignature = errors.New("no matching signature")
)

// verifyStandard checks a request as a Standard Webhooks receiver does at
// now: the three headers present, the timestamp within the tolerance, and
// one of the space-separated "v1,<base64>" signatures equal (in constant
// time) to the HMAC-SHA256, keyed with the secret's base64 after whsec_, of
// "id.timestamp.body".
func verifyStandard(secret string, h http.Header, body []byte, now time.Time) error {
	id, ts, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return errors.New("missing headers")
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return err
	}
	if at := time.Unix(secs, 0); now.Sub(at) > tolerance || at.Sub(now) > tolerance {
		return errStale
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "." + string(body)))
	want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Split(sigs, " ") {
		version, value, _ := strings.Cut(sig, ",")
		if version == "v1" && hmac.Equal([]byte(value), []byte(want)) {
			return nil
		}
	}
	return errNoSignature
}

// capture is a receiver that keeps each request's headers and raw body,
// and fails the first failures of them with 503.
type capture struct {
	mu       sync.Mutex
	failures int
	got      []received
}

type received struct {
	header http.Header
	body   []byte
}

func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, received{r.Header.Clone(), body})
	if c.failures > 0 {
		c.failures--
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (c *capture) requests() []received {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]received(nil), c.got...)
}

// captureEndpoint adds an endpoint of acctHook taking TaskDelete that
// posts to a new capture, and returns it with the endpoint (its secret in
// SigningSecret).
func (f *fixture) captureEndpoint(t *testing.T, failures int) (*capture, endpoints.Endpoint) {
	c := &capture{failures: failures}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	e, err := f.endpoints().Add(context.Background(), "acctHook", endpoints.Input{URL: ptr(srv.URL + "/in"), Events: &[]string{"TaskDelete"}}, admin)
	require.NoError(t, err)
	return c, e
}

func (f *fixture) sweep(t *testing.T) {
	t.Helper()
	_, err := f.deliverer().Sweep(context.Background())
	require.NoError(t, err)
}

func TestAnEndpointsDeliveryVerifiesWithTheStandardWebhooksAlgorithm(t *testing.T) {
	f := newFixture(t, 0, 0)
	c, e := f.captureEndpoint(t, 0)
	id := f.write(t, taskDelete, "acctHook", "t1")
	f.sweep(t)

	got := c.requests()
	require.Len(t, got, 1)
	r, now := got[0], f.env.Clock.Now()
	assert.Equal(t, id, r.header.Get("webhook-id"), "the id is the event's webhookId")
	assert.Contains(t, string(r.body), `"webhookId":"`+id+`"`)
	assert.Equal(t, strconv.FormatInt(now.Unix(), 10), r.header.Get("webhook-timestamp"), "the attempt's time, in seconds")
	assert.Regexp(t, `^v1,[A-Za-z0-9+/]{43}=$`, r.header.Get("webhook-signature"), "one signature: the endpoint's one secret")
	require.NoError(t, verifyStandard(e.SigningSecret, r.header, r.body, now))

	sig, err := base64.StdEncoding.DecodeString(r.header.Get("x-ghl-signature"))
	require.NoError(t, err)
	assert.True(t, ed25519.Verify(f.key.Public().(ed25519.PublicKey), r.body, sig), "x-ghl-signature as it was")

	t.Run("a changed body, id or timestamp does not verify", func(t *testing.T) {
		changed := strings.Replace(string(r.body), `"t1"`, `"t2"`, 1)
		assert.ErrorIs(t, verifyStandard(e.SigningSecret, r.header, []byte(changed), now), errNoSignature)
		for _, name := range []string{"webhook-id", "webhook-timestamp"} {
			h := r.header.Clone()
			h.Set(name, strings.Replace(h.Get(name), h.Get(name)[:1], "9", 1)+"1")
			assert.Error(t, verifyStandard(e.SigningSecret, h, r.body, now), name)
		}
	})
	t.Run("another endpoint's secret does not verify it", func(t *testing.T) {
		_, other := f.captureEndpoint(t, 0)
		assert.ErrorIs(t, verifyStandard(other.SigningSecret, r.header, r.body, now), errNoSignature)
	})
	t.Run("the same request replayed later than the tolerance is refused", func(t *testing.T) {
		assert.ErrorIs(t, verifyStandard(e.SigningSecret, r.header, r.body, now.Add(tolerance+time.Second)), errStale)
	})
}

func TestEveryAttemptKeepsTheDeliverysIDAndCarriesItsOwnTime(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	c, e := f.captureEndpoint(t, 2)
	id := f.write(t, taskDelete, "acctHook", "t1")
	f.sweep(t)
	for range 2 {
		f.env.Clock.Advance(deliveries.MaxRetry)
		f.sweep(t)
	}
	// A redelivery of the delivered event: the same delivery again.
	n, err := f.endpoints().Redeliver(ctx, "acctHook", e.ID, deliveries.Redelivery{Event: id}, admin)
	require.NoError(t, err)
	require.Equal(t, 1, n.Queued)
	f.env.Clock.Advance(time.Minute)
	f.sweep(t)

	got := c.requests()
	require.Len(t, got, 4, "two 503s, the 200, the redelivery")
	var stamps []string
	for i, r := range got {
		assert.Equal(t, id, r.header.Get("webhook-id"), "attempt %d", i+1)
		stamps = append(stamps, r.header.Get("webhook-timestamp"))
		secs, err := strconv.ParseInt(stamps[i], 10, 64)
		require.NoError(t, err)
		require.NoError(t, verifyStandard(e.SigningSecret, r.header, r.body, time.Unix(secs, 0)), "attempt %d verifies at its own time", i+1)
	}
	for i := 1; i < len(stamps); i++ {
		assert.NotEqual(t, stamps[i-1], stamps[i], "each attempt its own timestamp")
	}
	// The first attempt, replayed at the time of the last: too old.
	last, _ := strconv.ParseInt(stamps[3], 10, 64)
	assert.ErrorIs(t, verifyStandard(e.SigningSecret, got[0].header, got[0].body, time.Unix(last, 0)), errStale)
}

func TestARotatedSecretSignsBesideTheOldOneForItsGraceOnly(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	c, e := f.captureEndpoint(t, 0)
	rotated, err := f.endpoints().RotateSecret(ctx, endpoints.Rotation{AccountID: "acctHook", EndpointID: e.ID, KeepOld: true, By: admin})
	require.NoError(t, err)

	f.write(t, taskDelete, "acctHook", "during")
	f.sweep(t)
	during := c.requests()[0]
	sigs := strings.Split(during.header.Get("webhook-signature"), " ")
	require.Len(t, sigs, 2, "both secrets sign, space separated")
	now := f.env.Clock.Now()
	for name, secret := range map[string]string{"the new secret": rotated.SigningSecret, "the old secret": e.SigningSecret} {
		assert.NoError(t, verifyStandard(secret, during.header, during.body, now), name)
	}
	first := during.header.Clone()
	first.Set("webhook-signature", sigs[0])
	assert.NoError(t, verifyStandard(rotated.SigningSecret, first, during.body, now), "the new secret's signature first")

	f.env.Clock.Advance(endpoints.SecretGrace)
	f.write(t, taskDelete, "acctHook", "after")
	f.sweep(t)
	after := c.requests()[1]
	now = f.env.Clock.Now()
	assert.NotContains(t, after.header.Get("webhook-signature"), " ", "the grace over, one signature")
	assert.NoError(t, verifyStandard(rotated.SigningSecret, after.header, after.body, now))
	assert.ErrorIs(t, verifyStandard(e.SigningSecret, after.header, after.body, now), errNoSignature)

	ended, err := f.endpoints().RotateSecret(ctx, endpoints.Rotation{AccountID: "acctHook", EndpointID: e.ID, By: admin})
	require.NoError(t, err)
	f.write(t, taskDelete, "acctHook", "ended")
	f.sweep(t)
	last := c.requests()[2]
	assert.NoError(t, verifyStandard(ended.SigningSecret, last.header, last.body, now))
	assert.ErrorIs(t, verifyStandard(rotated.SigningSecret, last.header, last.body, now), errNoSignature, "ended now: the old one signs no more")
}

func TestAnAppsDeliveryKeepsXGHLSignatureAlone(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	c := &capture{}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	a, _, err := f.apps.Create(ctx, marketplace.NewApp{CompanyID: "coHook", Name: "Tasks", RedirectURIs: []string{"https://tasks.example.com/cb"},
		Scopes: []string{"contacts.readonly"}, WebhookURL: srv.URL + "/in", Events: []string{"TaskDelete"}})
	require.NoError(t, err)
	f.install(t, a, a.Scopes)
	f.write(t, taskDelete, "acctHook", "t1")
	f.sweep(t)
	var sent []received
	for _, r := range c.requests() {
		if strings.Contains(string(r.body), `"TaskDelete"`) {
			sent = append(sent, r)
		}
	}
	require.Len(t, sent, 1)
	assert.NotEmpty(t, sent[0].header.Get("x-ghl-signature"))
	for _, name := range []string{"webhook-id", "webhook-timestamp", "webhook-signature"} {
		assert.Empty(t, sent[0].header.Get(name), "the public platform's SDK expects x-ghl-signature alone")
	}
}

func TestAnEndpointWhoseSecretCannotBeOpenedGetsNothingUnsigned(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	c, e := f.captureEndpoint(t, 0)
	f.write(t, taskDelete, "acctHook", "t1")
	blind := webhooks.New(f.env.Table, f.env.Clock, f.key, nil, slog.New(slog.NewJSONHandler(io.Discard, nil)), metrics.NewMeter("", ""))
	_, err := blind.Sweep(ctx)
	assert.Error(t, err, "the deliverer says it could not sign")
	assert.Empty(t, c.requests(), "nothing sent without its signature")

	f.env.Clock.Advance(deliveries.Lease + time.Second)
	f.sweep(t)
	require.Len(t, c.requests(), 1, "a deliverer with the key sends it once the claim lapses")
	r := c.requests()[0]
	assert.NoError(t, verifyStandard(e.SigningSecret, r.header, r.body, f.env.Clock.Now()))
}

func TestTheDelivererPublishesTheKeyItSignsWith(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	_, err := deliveries.PublishedKey(ctx, f.env.Table)
	require.ErrorIs(t, err, deliveries.ErrNoPublicKey)

	require.NoError(t, f.deliverer().PublishKey(ctx))
	published, err := deliveries.PublishedKey(ctx, f.env.Table)
	require.NoError(t, err)
	assert.Equal(t, signingkey.PublicPEM(f.key), published.PEM)

	f.env.Clock.Advance(time.Hour)
	require.NoError(t, f.deliverer().PublishKey(ctx))
	again, err := deliveries.PublishedKey(ctx, f.env.Table)
	require.NoError(t, err)
	assert.Equal(t, published, again, "the same key: nothing written")

	_, f.key, err = ed25519.GenerateKey(nil)
	require.NoError(t, err)
	require.NoError(t, f.deliverer().PublishKey(ctx))
	rotated, err := deliveries.PublishedKey(ctx, f.env.Table)
	require.NoError(t, err)
	assert.Equal(t, signingkey.PublicPEM(f.key), rotated.PEM, "a new key signs: it is the one shown")
	assert.NotEqual(t, published.Since, rotated.Since)
}
