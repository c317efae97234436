// Package receiver checks a delivery to your endpoint: both signatures, on
// the raw body, with Go's standard library alone.
package receiver

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Verifier holds the public key above and the endpoint's whsec_… secret.
type Verifier struct {
	key    ed25519.PublicKey
	secret []byte
}

// NewVerifier reads the PEM public key and the whsec_… secret.
func NewVerifier(publicKeyPEM, secret string) (*Verifier, error) {
	block, _ := pem.Decode([]byte(publicKeyPEM))
	if block == nil {
		return nil, errors.New("not a PEM public key")
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	key, ok := pub.(ed25519.PublicKey)
	if err != nil || !ok {
		return nil, errors.New("not an Ed25519 public key")
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return nil, err
	}
	return &Verifier{key: key, secret: raw}, nil
}

// Verify checks the raw body (before any JSON decoding) and headers of a
// delivery received at now (time.Now()). Skip a webhook-id you have
// processed already.
func (v *Verifier) Verify(body []byte, h http.Header, now time.Time) error {
	sig, err := base64.StdEncoding.DecodeString(h.Get("x-ghl-signature"))
	if err != nil || !ed25519.Verify(v.key, body, sig) {
		return errors.New("x-ghl-signature does not verify")
	}
	id, ts := h.Get("webhook-id"), h.Get("webhook-timestamp")
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || id == "" {
		return errors.New("webhook-id or webhook-timestamp is missing")
	}
	if age := now.Sub(time.Unix(secs, 0)); age > 5*time.Minute || age < -5*time.Minute {
		return errors.New("webhook-timestamp is not within 5 minutes: a replay")
	}
	mac := hmac.New(sha256.New, v.secret)
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(body)
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, got := range strings.Fields(h.Get("webhook-signature")) {
		if hmac.Equal([]byte(got), []byte(want)) {
			return nil
		}
	}
	return errors.New("webhook-signature does not verify")
}
