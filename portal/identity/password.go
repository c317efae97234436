package identity

import (
	"crypto/rand"
	"crypto/subtle"
	_ "embed" // the common passwords
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters of new hashes: OWASP's recommended minimum (19 MiB,
// two passes, one lane). Each hash records its own parameters, so raising
// them later leaves existing passwords working.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// Password rules.
const (
	MinPasswordLength = 12
	MaxPasswordLength = 128
)

// HashPassword returns the argon2id hash of password in the PHC string
// format ($argon2id$v=19$m=...,t=...,p=...$salt$hash).
func HashPassword(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

var errBadHash = errors.New("not an argon2id hash")

// VerifyPassword reports whether password matches encoded (a HashPassword
// result), in time that does not depend on where they differ.
func VerifyPassword(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false, errBadHash
	}
	var memory, passes uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &passes, &threads); err != nil || memory == 0 || passes == 0 || threads == 0 {
		return false, errBadHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(password), salt, passes, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is what a sign-in with an unknown e-mail address checks its
// password against, so that it costs what a wrong password costs.
var dummyHash = sync.OnceValue(func() string {
	random := make([]byte, 32)
	_, _ = rand.Read(random)
	h, err := HashPassword(base64.RawStdEncoding.EncodeToString(random))
	if err != nil {
		panic(fmt.Sprintf("hash the dummy password: %v", err)) // crypto/rand failing is fatal anyway
	}
	return h
})

// commonPasswordsFile is the 10,000 most common passwords, most common
// first, one a line, lower-case: the start of the list of
// @zxcvbn-ts/language-common 4.1.3 (MIT; common-passwords.LICENSE.txt).
//
//go:embed common-passwords.txt
var commonPasswordsFile string

var commonPasswords = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, p := range strings.Split(commonPasswordsFile, "\n") {
		if p != "" {
			set[p] = true
		}
	}
	return set
})

// isCommon reports whether password is a common one, in any case, or a
// common one followed by digits, punctuation or spaces ("dragon123456!"):
// what guessers try first.
func isCommon(password string) bool {
	lower := strings.ToLower(password)
	base := strings.TrimRightFunc(lower, func(r rune) bool { return unicode.IsDigit(r) || unicode.IsPunct(r) || unicode.IsSpace(r) })
	return commonPasswords()[lower] || (base != "" && commonPasswords()[base])
}

// oneCharacter reports whether s is one character repeated.
func oneCharacter(s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	return strings.Trim(s, string(first)) == ""
}

// passwordProblem says what is wrong with a new password, or "".
func passwordProblem(password, confirm, email string) string {
	switch n := len([]rune(password)); {
	case n < MinPasswordLength:
		return fmt.Sprintf("The password must be at least %d characters long.", MinPasswordLength)
	case n > MaxPasswordLength:
		return fmt.Sprintf("The password must be at most %d characters long.", MaxPasswordLength)
	case strings.TrimSpace(password) == "":
		return "The password must not be only spaces."
	case oneCharacter(password):
		return "The password must not be one character repeated."
	case isCommon(password):
		return "This password is one of the most common ones (or one with digits added), which attackers try first. Choose another."
	case password != confirm:
		return "The two passwords do not match."
	case strings.EqualFold(password, email):
		return "The password must not be your e-mail address."
	}
	return ""
}
