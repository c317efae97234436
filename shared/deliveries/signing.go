package deliveries

import (
	"crypto/ed25519"
	"encoding/base64"
	"net/http"
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
// WebhookManager verifies. A second scheme (Standard Webhooks' webhook-id,
// webhook-timestamp, webhook-signature) would be set here too.
func (s Signer) Sign(h http.Header, body []byte) {
	h.Set(SignatureHeader, base64.StdEncoding.EncodeToString(ed25519.Sign(s.key, body)))
}
