package validate

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// TextProblem returns why v cannot be stored as a one-line text that people
// read (a name), or "": it must be valid UTF-8 and hold no control
// character, no character that overrides or isolates the text's direction,
// and no zero-width character. Such characters are invisible, yet a
// right-to-left override makes a list (the portal's, `platformctl tokens
// list`) read backwards past it, and a zero-width one makes two names that
// look alike differ.
func TextProblem(field, v string) string { return textProblem(field, v, false) }

// MultilineTextProblem is TextProblem for a text that may span lines (a
// description): line breaks and tabs are allowed.
func MultilineTextProblem(field, v string) string { return textProblem(field, v, true) }

// Text records TextProblem's violation.
func (e *Errors) Text(field, v string) bool {
	msg := TextProblem(field, v)
	return e.Check(msg == "", msg)
}

func textProblem(field, v string, lines bool) string {
	if !utf8.ValidString(v) {
		return field + " is not valid UTF-8 text"
	}
	at := 0
	for _, r := range v {
		at++
		if lines && (r == '\n' || r == '\r' || r == '\t') {
			continue
		}
		if kind := invisible(r); kind != "" {
			return fmt.Sprintf("%s must not contain %s (U+%04X at character %d)", field, kind, r, at)
		}
	}
	return ""
}

// invisible names the kind of character r is when a stored text must not
// hold it, or "".
func invisible(r rune) string {
	switch {
	case unicode.IsControl(r):
		return "a control character"
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return "a text-direction control"
	case r >= 0x200B && r <= 0x200D, r == 0x2060, r == 0xFEFF, r == 0x180E:
		return "a zero-width character"
	}
	return ""
}
