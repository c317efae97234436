// Package auth issues, stores, checks and revokes bearer tokens, and carries
// the authenticated principal through a request.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"strings"
)

// Token format: Prefix, 32 random base62 characters (about 190 bits from
// crypto/rand) and a 6-character base62 CRC-32 of the first two parts. The
// prefix lets secret scanners find leaked tokens; the checksum rejects a
// mistyped or truncated token without a database read.
const (
	Prefix      = "bpt_"
	randomLen   = 32
	checksumLen = 6
	// TokenLength is the length of every token.
	TokenLength = len(Prefix) + randomLen + checksumLen
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Errors of CheckFormat.
var (
	ErrMalformed = errors.New("token is malformed")
	ErrChecksum  = errors.New("token checksum does not match")
)

// GenerateToken returns a new random token value.
func GenerateToken() (string, error) { return GenerateSecret(Prefix) }

// TokenFromBody completes a fixed 32-character body into a token with the
// right checksum (for the documented demo tokens).
func TokenFromBody(body string) (string, error) {
	if len(body) != randomLen || !isBase62(body) {
		return "", ErrMalformed
	}
	sum := checksum(Prefix + body)
	return Prefix + body + string(sum[:]), nil
}

// CheckFormat tells whether v is shaped like a token and its checksum holds.
func CheckFormat(v string) error { return CheckSecretFormat(Prefix, v) }

// GenerateSecret returns a new random value in the token format under
// another 4-character prefix: the OAuth server's refresh tokens, codes and
// client secrets, which secret scanners find by their prefixes too.
func GenerateSecret(prefix string) (string, error) {
	body, err := randomBase62(randomLen)
	if err != nil {
		return "", err
	}
	sum := checksum(prefix + body)
	return prefix + body + string(sum[:]), nil
}

// CheckSecretFormat is CheckFormat for a value of GenerateSecret(prefix).
func CheckSecretFormat(prefix, v string) error {
	if len(v) != TokenLength || len(prefix) != len(Prefix) || !strings.HasPrefix(v, prefix) || !isBase62(v[len(prefix):]) {
		return ErrMalformed
	}
	split := TokenLength - checksumLen
	if sum := checksum(v[:split]); string(sum[:]) != v[split:] {
		return ErrChecksum
	}
	return nil
}

// HashToken returns the SHA-256 of a token, hex-encoded: the only form in
// which tokens are stored.
func HashToken(v string) string {
	sum := sha256.Sum256([]byte(v))
	var out [2 * sha256.Size]byte
	hex.Encode(out[:], sum[:])
	return string(out[:])
}

// checksum is computed into an array, and compared without a string
// conversion (the compiler allocates neither): it runs on every request.
func checksum(s string) [checksumLen]byte {
	n := crc32.ChecksumIEEE([]byte(s))
	var out [checksumLen]byte
	for i := checksumLen - 1; i >= 0; i-- {
		out[i] = base62[n%62]
		n /= 62
	}
	return out
}

func isBase62(s string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(base62, s[i]) < 0 {
			return false
		}
	}
	return true
}

// randomBase62 draws n uniformly random base62 characters, rejecting bytes
// that would bias the modulo.
func randomBase62(n int) (string, error) {
	out := make([]byte, 0, n)
	buf := make([]byte, n*2)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			return "", err
		}
		for _, b := range buf {
			if b < 248 && len(out) < n { // 248 = 4*62: no bias
				out = append(out, base62[b%62])
			}
		}
	}
	return string(out), nil
}
