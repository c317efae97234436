package deliveries

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader carries an attempt's signature (the official SDK's name).
const SignatureHeader = "x-ghl-signature"

// Signer signs each attempt with the platform's key (package signingkey
// loads it).
type Signer struct{ key ed25519.PrivateKey }

// NewSigner returns the signer with key.
func NewSigner(key ed25519.PrivateKey) Signer { return Signer{key: key} }

// Sign sets on h the headers that sign an attempt of body: SignatureHeader,
// the base64 Ed25519 signature of the raw body, which the official SDK's
// WebhookManager verifies. An account endpoint's attempts are signed the
// Standard Webhooks way too (SignStandard).
func (s Signer) Sign(h http.Header, body []byte) {
	h.Set(SignatureHeader, base64.StdEncoding.EncodeToString(ed25519.Sign(s.key, body)))
}

// The second scheme, for account endpoints: Standard Webhooks 1.0.0
// (standardwebhooks.com), symmetric. Each endpoint has a secret of its own;
// an attempt carries the delivery's id (the same on every attempt and
// redelivery: a receiver deduplicates by it), the attempt's time, and the
// HMAC-SHA256 of "id.timestamp.body" under each secret that signs, so a
// receiver refuses a delivery replayed later than its tolerance (the
// libraries': 5 minutes) or sent by anyone without the secret.
const (
	// StandardIDHeader carries the delivery's id: the event's webhookId.
	StandardIDHeader = "webhook-id"
	// StandardTimestampHeader carries the attempt's time, in whole seconds
	// since the Unix epoch.
	StandardTimestampHeader = "webhook-timestamp"
	// StandardSignatureHeader carries "v1,<base64 HMAC-SHA256>", one per
	// secret that signs, space separated (two while a rotated secret's
	// grace lasts).
	StandardSignatureHeader = "webhook-signature"
	// SecretPrefix begins a secret as the specification serializes it:
	// whsec_ and the base64 of its bytes.
	SecretPrefix = "whsec_"
	// secretBytes is a new secret's length: 256 bits (the specification
	// asks for 24 to 64 bytes).
	secretBytes = 32
)

// NewSecret draws a new endpoint secret, as it is shown once and as the
// specification's libraries take it: SecretPrefix + base64 of 32 random
// bytes.
func NewSecret() string {
	b := make([]byte, secretBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// ErrNotASecret answers a value that is not a secret NewSecret drew.
var ErrNotASecret = errors.New("not a webhook signing secret (whsec_ and the base64 of 24 to 64 bytes)")

// ParseSecret returns the key bytes of a secret in its serialized form.
func ParseSecret(secret string) ([]byte, error) {
	raw, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return nil, ErrNotASecret
	}
	key, err := base64.StdEncoding.DecodeString(raw)
	if err != nil || len(key) < 24 || len(key) > 64 {
		return nil, ErrNotASecret
	}
	return key, nil
}

// SignStandard sets on h the Standard Webhooks headers of an attempt made
// at of the delivery id's body: its id, its time, and a v1 signature under
// each of keys (the current secret's first). No key, no header: an
// endpoint without a secret (one added before them) gets SignatureHeader
// alone.
func SignStandard(h http.Header, id string, at time.Time, body []byte, keys ...[]byte) {
	if len(keys) == 0 {
		return
	}
	ts := strconv.FormatInt(at.Unix(), 10)
	sigs := make([]string, len(keys))
	for i, key := range keys {
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(id + "." + ts + "."))
		mac.Write(body)
		sigs[i] = "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	h.Set(StandardIDHeader, id)
	h.Set(StandardTimestampHeader, ts)
	h.Set(StandardSignatureHeader, strings.Join(sigs, " "))
}
