package deliveries_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/deliveries"
)

// The Standard Webhooks libraries' own known answer (libraries/go and
// libraries/python, TestWebhookSign): the same secret, id, time and body
// give the same signature here.
func TestTheStandardSignatureIsTheSpecificationsKnownAnswer(t *testing.T) {
	key, err := deliveries.ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	require.NoError(t, err)
	h := http.Header{}
	deliveries.SignStandard(h, "msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`), key)
	assert.Equal(t, "msg_p5jXN8AQM9LWM0D4loKWxJek", h.Get("webhook-id"))
	assert.Equal(t, "1614265330", h.Get("webhook-timestamp"))
	assert.Equal(t, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", h.Get("webhook-signature"))
}

func TestSigningStandard(t *testing.T) {
	at := time.Unix(1700000000, 999_000_000)
	body := []byte(`{"type":"TaskDelete"}`)
	a, err := deliveries.ParseSecret(deliveries.NewSecret())
	require.NoError(t, err)
	b, err := deliveries.ParseSecret(deliveries.NewSecret())
	require.NoError(t, err)
	t.Run("two keys give two v1 signatures, space separated, the first key's first", func(t *testing.T) {
		both, first := http.Header{}, http.Header{}
		deliveries.SignStandard(both, "e1", at, body, a, b)
		deliveries.SignStandard(first, "e1", at, body, a)
		second := http.Header{}
		deliveries.SignStandard(second, "e1", at, body, b)
		assert.Equal(t, first.Get("webhook-signature")+" "+second.Get("webhook-signature"), both.Get("webhook-signature"))
		assert.Equal(t, "1700000000", both.Get("webhook-timestamp"), "whole seconds")
	})
	t.Run("no key sets no header", func(t *testing.T) {
		h := http.Header{}
		deliveries.SignStandard(h, "e1", at, body)
		assert.Empty(t, h)
	})
}

func TestSecrets(t *testing.T) {
	t.Run("a new one is whsec_ and 32 random bytes, never the same twice", func(t *testing.T) {
		s1, s2 := deliveries.NewSecret(), deliveries.NewSecret()
		assert.NotEqual(t, s1, s2)
		key, err := deliveries.ParseSecret(s1)
		require.NoError(t, err)
		assert.Len(t, key, 32)
	})
	// No prefix, not base64, 3 bytes, 69 bytes.
	for _, bad := range []string{"", "whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_!!!!", "whsec_AAAA", "whsec_" + strings.Repeat("QUFB", 23)} {
		t.Run("refused: "+bad, func(t *testing.T) {
			_, err := deliveries.ParseSecret(bad)
			assert.ErrorIs(t, err, deliveries.ErrNotASecret)
		})
	}
}
