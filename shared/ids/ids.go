// Package ids generates ids for new records.
package ids

import (
	"crypto/rand"
	"encoding/hex"
)

// Hex24 returns a random 24-character hexadecimal id, the public API's
// database id format (prices, providers, brand boards, templates).
func Hex24() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Alnum20 returns a random 20-character letters-and-digits id, the public
// API's id format for accounts, contacts, associations and the like.
func Alnum20() string {
	out := make([]byte, 0, 20)
	var buf [32]byte
	for len(out) < 20 {
		_, _ = rand.Read(buf[:])
		for _, b := range buf {
			if b < 248 && len(out) < 20 { // 248 = 4*62: no modulo bias
				out = append(out, alphabet[b%62])
			}
		}
	}
	return string(out)
}
