package marketplace

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// LocalKeyFile is where a local run keeps the webhook signing key, under the
// repository's root (git-ignored .local/).
const LocalKeyFile = ".local/webhook-ed25519.pem"

// NewSigningKey draws a new Ed25519 webhook signing key, as PEM (PKCS #8).
func NewSigningKey() ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// ParseSigningKey reads a PEM (PKCS #8) Ed25519 private key.
func ParseSigningKey(pemBytes []byte) (ed25519.PrivateKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, errors.New("webhook key: not a PEM private key")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("webhook key: %w", err)
	}
	priv, ok := key.(ed25519.PrivateKey)
	if !ok {
		return nil, errors.New("webhook key: not an Ed25519 key")
	}
	return priv, nil
}

// LoadOrCreateKeyFile reads the signing key in path, creating it (mode
// 0600) when it does not exist.
func LoadOrCreateKeyFile(path string) (ed25519.PrivateKey, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if raw, err = NewSigningKey(); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		// O_EXCL: of two processes creating it at once, the second reads
		// the first's key.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			return LoadOrCreateKeyFile(path)
		}
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(raw); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	return ParseSigningKey(raw)
}

// PublicKeyPEM is the public half of the signing key as apps verify
// webhooks with it: PEM, SubjectPublicKeyInfo.
func PublicKeyPEM(priv ed25519.PrivateKey) string {
	der, _ := x509.MarshalPKIXPublicKey(priv.Public()) // an Ed25519 key always marshals
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// Sign is the x-ghl-signature header value of body: the base64 Ed25519
// signature of the raw body.
func Sign(priv ed25519.PrivateKey, body []byte) string {
	return base64.StdEncoding.EncodeToString(ed25519.Sign(priv, body))
}
