// Package secrets seals the secrets users hand the API (a voice-AI custom
// action's credential for the user's own API) before they are stored, and
// opens them again for the code that uses them.
//
// Envelope encryption: each secret gets a fresh 256-bit data key and is
// encrypted with AES-GCM; the data key is stored sealed by a KeySource (AWS
// KMS when deployed, see package kmskey; a local key for make run and
// tests). Both the data key and the secret are bound to the record they
// belong to (a Binding: account, record, field), so a sealed value copied
// to another record does not open there. Only a hint (Mask) is kept in the
// clear, for answers.
package secrets

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// Binding names the record a secret belongs to. With KMS it is the
// encryption context (logged by CloudTrail with every use of the key); in
// every case it is the additional data both AES-GCM seals authenticate.
type Binding map[string]string

// Canonical is the binding in one unambiguous form (sorted, each name and
// value preceded by its length): the additional data of the AES-GCM seals.
func (b Binding) Canonical() []byte {
	var sb strings.Builder
	for _, k := range slices.Sorted(maps.Keys(b)) {
		fmt.Fprintf(&sb, "%d:%s=%d:%s;", len(k), k, len(b[k]), b[k])
	}
	return []byte(sb.String())
}

// KeySource makes the data keys secrets are sealed with, and opens them.
type KeySource interface {
	// NewDataKey returns a fresh 256-bit data key, in the clear and sealed
	// for storage, and the id of the key that sealed it.
	NewDataKey(ctx context.Context, b Binding) (plain, sealed []byte, keyID string, err error)
	// OpenDataKey returns the data key NewDataKey sealed with the same
	// binding.
	OpenDataKey(ctx context.Context, keyID string, sealed []byte, b Binding) ([]byte, error)
}

// Sealed is a secret as stored: never the secret itself.
type Sealed struct {
	// KeyID names the key that sealed DataKey (a KMS key ARN, or
	// "local:<fingerprint>").
	KeyID string `dynamodbav:"keyId"`
	// DataKey is the secret's data key, sealed by the key source.
	DataKey []byte `dynamodbav:"dataKey"`
	// Nonce and Ciphertext are the secret, sealed with the data key by
	// AES-256-GCM (the tag ends Ciphertext).
	Nonce      []byte `dynamodbav:"nonce"`
	Ciphertext []byte `dynamodbav:"ciphertext"`
}

// Keeper seals and opens secrets with one key source.
type Keeper struct {
	keys KeySource
}

// NewKeeper returns a keeper sealing with keys.
func NewKeeper(keys KeySource) *Keeper { return &Keeper{keys: keys} }

// ErrUnavailable wraps a key source's failure that may pass (throttling,
// an outage, a timeout): the client may retry.
var ErrUnavailable = errors.New("the key service is unavailable")

// ErrNoKeeper is returned where a secret must be sealed and no key is
// configured.
var ErrNoKeeper = errors.New("no key to seal secrets with: set SECRETS_KEY_ID (a KMS key) or SECRETS_LOCAL_KEY_FILE")

// Seal encrypts value for the record b names. A nil keeper fails with
// ErrNoKeeper.
func (k *Keeper) Seal(ctx context.Context, value string, b Binding) (Sealed, error) {
	if k == nil {
		return Sealed{}, ErrNoKeeper
	}
	plain, sealedKey, keyID, err := k.keys.NewDataKey(ctx, b)
	if err != nil {
		return Sealed{}, fmt.Errorf("seal a secret: new data key: %w", err)
	}
	defer clear(plain)
	nonce, ciphertext, err := sealAESGCM(plain, []byte(value), b.Canonical())
	if err != nil {
		return Sealed{}, fmt.Errorf("seal a secret: %w", err)
	}
	return Sealed{KeyID: keyID, DataKey: sealedKey, Nonce: nonce, Ciphertext: ciphertext}, nil
}

// Open decrypts a secret sealed for the record b names.
func (k *Keeper) Open(ctx context.Context, s Sealed, b Binding) (string, error) {
	if k == nil {
		return "", ErrNoKeeper
	}
	plain, err := k.keys.OpenDataKey(ctx, s.KeyID, s.DataKey, b)
	if err != nil {
		return "", fmt.Errorf("open a secret: data key: %w", err)
	}
	defer clear(plain)
	value, err := openAESGCM(plain, s.Nonce, s.Ciphertext, b.Canonical())
	if err != nil {
		return "", fmt.Errorf("open a secret: %w", err)
	}
	return string(value), nil
}

func sealAESGCM(key, plaintext, aad []byte) (nonce, ciphertext []byte, err error) {
	aead, err := newGCM(key)
	if err != nil {
		return nil, nil, err
	}
	nonce = make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, nil, err
	}
	return nonce, aead.Seal(nil, nonce, plaintext, aad), nil
}

func openAESGCM(key, nonce, ciphertext, aad []byte) ([]byte, error) {
	aead, err := newGCM(key)
	if err != nil {
		return nil, err
	}
	if len(nonce) != aead.NonceSize() {
		return nil, errors.New("malformed sealed value")
	}
	plain, err := aead.Open(nil, nonce, ciphertext, aad)
	if err != nil {
		return nil, errors.New("the sealed value does not open with this key and binding")
	}
	return plain, nil
}

// KeySize is the size of data keys and of a local key: AES-256.
const KeySize = 32

func newGCM(key []byte) (cipher.AEAD, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("a key must be %d bytes, not %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// MaskPrefix starts every mask.
const MaskPrefix = "••••"

// minRevealLen is the shortest secret whose last characters a mask shows:
// four characters of a shorter one would tell too much of it.
const minRevealLen = 12

// Mask is what answers show of a secret: its last four characters after
// MaskPrefix ("••••abcd"), or, for a secret shorter than 12 characters, a
// fixed eight bullets, which tell nothing of it, not even its length.
func Mask(value string) string {
	n := utf8.RuneCountInString(value)
	if n < minRevealLen {
		return MaskPrefix + MaskPrefix
	}
	r := []rune(value)
	return MaskPrefix + string(r[n-4:])
}

// LooksMasked reports whether v has the form of a mask: a client sending
// back what an answer showed.
func LooksMasked(v string) bool { return strings.HasPrefix(v, MaskPrefix) }
