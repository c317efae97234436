package httpio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bizplatform/api/shared/apierror"
)

// MaxDepth bounds how deeply arrays and objects nest in a request body. The
// deepest body the API defines nests five levels; the bound leaves room and
// keeps a hostile body from costing a deep recursion.
const MaxDepth = 32

// scanJSON checks what encoding/json lets through silently, naming the
// value at fault by its path (items[2].priceId):
//   - a property given twice in one object (encoding/json keeps the last);
//   - nesting deeper than MaxDepth;
//   - bytes that are not UTF-8 and \u escapes that are lone surrogates
//     (encoding/json turns both into U+FFFD);
//   - control characters in strings other than tab, line feed and
//     carriage return;
//   - numbers no field can hold: beyond the float64 range (1e400), or
//     beyond what DynamoDB stores (magnitudes over 1e125 or, other than 0,
//     under 1e-130), which would otherwise fail the write after validation.
//
// Syntax errors are left to the decode that follows, which reports them
// with their offset. root names the scanned value in messages ("" for a
// whole body).
func scanJSON(raw []byte, root string) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var stack []*container
	prev := int64(0)
	for {
		tok, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return nil // malformed JSON: the decoder reports it
		}
		end := dec.InputOffset()
		segment := raw[prev:end] // the token and the separators before it
		prev = end
		var top *container
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, ok := tok.(string); ok && top != nil && top.object && top.wantKey {
			if err := top.takeKey(s, segment); err != nil {
				return err
			}
			continue
		}
		at := valuePath(root, top)
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				if len(stack) >= MaxDepth {
					return apierror.BadRequest("The request body nests arrays and objects more than %d levels deep (at %s)", MaxDepth, describePath(at))
				}
				stack = append(stack, &container{object: v == '{', wantKey: v == '{', path: at, seen: map[string]bool{}})
				continue
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].valueDone()
			}
			continue
		case string:
			if err := checkString(v, segment, at); err != nil {
				return err
			}
		case json.Number:
			if msg := numberProblem(v.String()); msg != "" {
				return apierror.Invalid(fmt.Sprintf("%s is out of range: %s", describePath(at), msg))
			}
		}
		if top != nil {
			top.valueDone()
		}
	}
}

// The magnitudes DynamoDB can store.
const (
	maxMagnitude = 1e125
	minMagnitude = 1e-130
)

// numberProblem tells why a JSON number cannot be taken ("" when it can).
func numberProblem(lit string) string {
	f, err := strconv.ParseFloat(lit, 64)
	switch a := math.Abs(f); {
	case err != nil || a > maxMagnitude:
		return "numbers must lie between -1e125 and 1e125"
	case a != 0 && a < minMagnitude:
		return "numbers other than 0 must be at least 1e-130 in size"
	default:
		return ""
	}
}

// container is an object or array being scanned.
type container struct {
	object  bool
	wantKey bool // an object's next string token is a key
	key     string
	index   int
	path    string
	seen    map[string]bool
}

func (c *container) takeKey(key string, segment []byte) error {
	at := joinPath(c.path, key)
	if !utf8.Valid(segment) || hasLoneSurrogate(key, segment) {
		return apierror.BadRequest("The request body holds a property name that is not valid UTF-8 (in %s)", describePath(c.path))
	}
	if c.seen[key] {
		return apierror.Invalid(fmt.Sprintf("%s is given more than once: send each property once", clip(at)))
	}
	c.seen[key] = true
	c.key, c.wantKey = key, false
	return nil
}

func (c *container) valueDone() {
	if c.object {
		c.wantKey = true
	} else {
		c.index++
	}
}

func valuePath(root string, c *container) string {
	switch {
	case c == nil:
		return root
	case c.object:
		return joinPath(c.path, c.key)
	default:
		return fmt.Sprintf("%s[%d]", c.path, c.index)
	}
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func describePath(p string) string {
	if p == "" {
		return "the top level"
	}
	return clip(p)
}

// clip shortens what a client sent before it is echoed in a message.
func clip(s string) string {
	const max = 100
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

func checkString(s string, segment []byte, at string) error {
	if !utf8.Valid(segment) || hasLoneSurrogate(s, segment) {
		return apierror.BadRequest("%s is not valid UTF-8 text", describePath(at))
	}
	if i := strings.IndexFunc(s, isForbiddenControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return apierror.Invalid(fmt.Sprintf("%s must not contain control characters (it holds U+%04X)", describePath(at), r))
	}
	return nil
}

// isForbiddenControl reports control characters other than tab, line feed
// and carriage return: nothing a person types, and some (NUL, ESC) break
// the systems text is shown or stored in.
func isForbiddenControl(r rune) bool {
	return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
}

// HasForbiddenControl reports whether s holds a control character other
// than tab, line feed and carriage return.
func HasForbiddenControl(s string) bool {
	return strings.IndexFunc(s, isForbiddenControl) >= 0
}

// hasLoneSurrogate reports whether decoding turned a \u escape of a lone
// UTF-16 surrogate into U+FFFD: the decoded string holds more U+FFFD than
// the raw token spells, literally or as \ufffd.
func hasLoneSurrogate(decoded string, raw []byte) bool {
	n := strings.Count(decoded, "\uFFFD")
	if n == 0 {
		return false
	}
	spelt := bytes.Count(raw, []byte("\uFFFD")) + bytes.Count(bytes.ToLower(raw), []byte(`\ufffd`))
	return n > spelt
}
