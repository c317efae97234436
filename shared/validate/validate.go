// Package validate collects field-rule violations so that one answer names
// every broken rule, and holds the rules several areas share.
package validate

import (
	"fmt"
	"net/mail"
	"slices"
	"strings"

	"github.com/bizplatform/api/shared/apierror"
)

// Errors collects violations. The zero value is ready to use.
type Errors struct {
	list      []string
	malformed []string
}

// Malformed records a problem that makes the request malformed rather than
// breaking a field rule (a repeated or undecodable query parameter): Err
// then answers 400 naming only such problems, whatever status the
// operation gives rule violations.
func (e *Errors) Malformed(msg string) { e.malformed = append(e.malformed, msg) }

// Add records a violation; msg names the field.
func (e *Errors) Add(msg string) { e.list = append(e.list, msg) }

// Addf records a formatted violation.
func (e *Errors) Addf(format string, args ...any) {
	e.list = append(e.list, fmt.Sprintf(format, args...))
}

// Check records msg when ok is false, and reports ok.
func (e *Errors) Check(ok bool, msg string) bool {
	if !ok {
		e.Add(msg)
	}
	return ok
}

// Empty reports whether nothing was recorded.
func (e *Errors) Empty() bool { return len(e.list) == 0 && len(e.malformed) == 0 }

// Err returns the violations as a validation error, or nil when there are
// none. Malformed problems take precedence: a request that cannot be read
// reliably is not judged by its field rules.
func (e *Errors) Err() error {
	if len(e.malformed) > 0 {
		return apierror.BadRequest("%s", strings.Join(e.malformed, "; "))
	}
	if len(e.list) == 0 {
		return nil
	}
	return apierror.Invalid(slices.Clone(e.list)...)
}

// Required records a violation when the string pointer is nil or blank.
func (e *Errors) Required(field string, v *string) bool {
	return e.Check(v != nil && strings.TrimSpace(*v) != "", field+" is required")
}

// RequiredPresent records a violation when v is nil.
func RequiredPresent[T any](e *Errors, field string, v *T) bool {
	return e.Check(v != nil, field+" is required")
}

// OneOf records a violation when v is not one of allowed.
func (e *Errors) OneOf(field, v string, allowed ...string) bool {
	return e.Check(slices.Contains(allowed, v), fmt.Sprintf("%s must be one of: %s", field, strings.Join(allowed, ", ")))
}

// RequiredOneOf records a violation when v is nil, blank or not one of
// allowed; a missing value is told the allowed values too, so that a
// client need not send a wrong one to learn them.
func (e *Errors) RequiredOneOf(field string, v *string, allowed ...string) bool {
	if v == nil || strings.TrimSpace(*v) == "" {
		e.Addf("%s is required (one of: %s)", field, strings.Join(allowed, ", "))
		return false
	}
	return e.OneOf(field, *v, allowed...)
}

// MaxLen records a violation when v is longer than n characters.
func (e *Errors) MaxLen(field, v string, n int) bool {
	return e.Check(len([]rune(v)) <= n, fmt.Sprintf("%s must be at most %d characters long", field, n))
}

// ID records a violation when v is not a well-formed id.
func (e *Errors) ID(field, v string) bool {
	msg := IDProblem(field, v)
	return e.Check(msg == "", msg)
}

// MaxIDLength bounds ids taken from requests before they become key parts.
const MaxIDLength = 64

// IDProblem returns why v is not a well-formed id, or "" when it is one. Ids
// are 1 to 64 characters of letters, digits, '_' and '-', so they can never
// break out of the key they are placed in.
func IDProblem(field, v string) string {
	switch {
	case v == "":
		return field + " is required"
	case len(v) > MaxIDLength || !isIDChars(v):
		return fmt.Sprintf("%s must be an id of 1 to %d letters, digits, '_' or '-'", field, MaxIDLength)
	default:
		return ""
	}
}

// isIDChars reports whether v is only letters, digits, '_' and '-'. A loop
// rather than a regular expression: it runs on every request, and a
// compiled pattern would be built at every cold start.
func isIDChars(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// IsHexID reports whether v is a 24-character hexadecimal database id.
func IsHexID(v string) bool {
	if len(v) != 24 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// IsEmail reports whether v is a plain e-mail address (no display name).
func IsEmail(v string) bool {
	if len(v) > 254 || strings.ContainsAny(v, " <>") {
		return false
	}
	addr, err := mail.ParseAddress(v)
	return err == nil && addr.Address == v && strings.Contains(v[strings.LastIndexByte(v, '@'):], ".")
}

// AltType is the contract's altType value: what altId names is an account.
const AltType = "account"

// AltTypeLocation is the public platform's name for an account, which code
// ported from it sends as altType: taken as AltType wherever altType is
// read, as the official SDK's default Version is taken as the contract's
// (pipeline.SDKDefaultVersion), and never answered.
const AltTypeLocation = "location"

// NormalAltType returns the contract's value for an altType a client sent:
// AltType for AltTypeLocation, anything else as it is.
func NormalAltType(v string) string {
	if v == AltTypeLocation {
		return AltType
	}
	return v
}

// Alt checks an altId/altType pair: both required, altType "account" (or
// "location", which becomes "account" in *altType), altId a well-formed id.
// It does not check account access (see auth).
func (e *Errors) Alt(altID, altType *string) {
	if e.Required("altId", altID) {
		e.ID("altId", *altID)
	}
	if altType != nil {
		*altType = NormalAltType(*altType)
	}
	e.RequiredOneOf("altType", altType, AltType)
}
