package contacts

import (
	"fmt"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// Bounds of the tasks' and notes' texts. The public API states none; these
// keep a task or a note (and its event) a few kilobytes at most, well
// below DynamoDB's 400 KB item, and a contact's list readable.
const (
	maxTitleLen = 255
	maxBodyLen  = 2000
)

// oneLineText checks a required one-line text (a title): not blank, at
// most maxTitleLen characters, no control or invisible characters. It
// returns the text, or "" when it breaks a rule.
func oneLineText(v *validate.Errors, field, s string) string {
	ok := v.Check(strings.TrimSpace(s) != "", field+" must not be blank") &&
		v.MaxLen(field, s, maxTitleLen) && v.Text(field, s)
	return keptIf(ok, s)
}

// longText checks a text that may span lines (a body): at most maxBodyLen
// characters, no control or invisible characters but line breaks and tabs.
func longText(v *validate.Errors, field, s string) string {
	ok := v.MaxLen(field, s, maxBodyLen) && v.Check(validate.MultilineTextProblem(field, s) == "", validate.MultilineTextProblem(field, s))
	return keptIf(ok, s)
}

// dateTime checks an RFC 3339 date and time and returns it as the API
// writes times (UTC, milliseconds: 2026-11-21T09:30:00.000Z).
func dateTime(v *validate.Errors, field, s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if !v.Check(err == nil, fmt.Sprintf("%s must be an RFC 3339 date and time (2026-11-21T09:30:00Z)", field)) {
		return ""
	}
	return clock.Timestamp(t)
}

// notNull returns the value of an update's field that was sent, recording
// a violation when it was null: null removes optional values only.
func notNull[T any](v *validate.Errors, field string, f httpio.Field[T]) (T, bool) {
	if f.Set && f.Null {
		v.Add(field + " must not be null")
	}
	return f.Value()
}

func keptIf(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

// color checks a note's color: #rgb or #rrggbb, as the public API's
// example (#FFAA00) writes it.
func color(v *validate.Errors, field, s string) string {
	ok := len(s) == 4 || len(s) == 7
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		ok = i == 0 && c == '#' || i > 0 && ('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F')
	}
	return keptIf(v.Check(ok, field+" must be a color as #rgb or #rrggbb (#FFAA00)"), s)
}
