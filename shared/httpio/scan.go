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
//   - a property name that is not exactly one of the names the value's Go
//     type declares (encoding/json would match it without regard to case;
//     see shape);
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
// whole body); want is the shape of the Go value it decodes into.
func scanJSON(raw []byte, root string, want *shape) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var stack []*container
	// The first name the Go type does not declare; the scan goes on, so
	// that a malformed body is reported as such first.
	var unknown error
	prev := int64(0)
	for {
		tok, err := dec.Token()
		if err != nil {
			// The body ends inside an object or array (cut short), or is
			// malformed: the decoder reports it, before any name.
			if errors.Is(err, io.EOF) && len(stack) == 0 {
				return unknown
			}
			return nil
		}
		end := dec.InputOffset()
		segment := raw[prev:end] // the token and the separators before it
		prev = end
		var top *container
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, ok := tok.(string); ok && top != nil && top.object && top.wantKey {
			declared, err := top.takeKey(s, segment)
			if err != nil {
				return err
			}
			if !declared && unknown == nil {
				unknown = unknownName(top.shape, joinPath(top.path, s), s)
			}
			continue
		}
		// The value's path is built only when it is needed: for a
		// container, or for a message.
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				at := valuePath(root, top)
				if len(stack) >= MaxDepth {
					return apierror.BadRequest("The request body nests arrays and objects more than %d levels deep (at %s)", MaxDepth, describePath(at))
				}
				stack = append(stack, &container{object: v == '{', wantKey: v == '{', path: at, shape: top.childShape(want), seen: map[string]bool{}})
				continue
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].valueDone()
			}
			continue
		case string:
			if !plainText(v, segment) {
				return checkString(v, segment, valuePath(root, top))
			}
		case json.Number:
			if msg := numberProblem(v.String()); msg != "" {
				return apierror.Invalid(fmt.Sprintf("%s is out of range: %s", describePath(valuePath(root, top)), msg))
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
	// shape is what the Go value this container decodes into accepts;
	// valueShape, the shape of the current key's value.
	shape      *shape
	valueShape *shape
	seen       map[string]bool
}

// childShape is the shape of a container that starts in c (the root's when
// c is nil).
func (c *container) childShape(root *shape) *shape {
	switch {
	case c == nil:
		return root
	case c.object:
		return c.valueShape
	default:
		return c.shape.item()
	}
}

// takeKey records the next key of object c and reports whether c's shape
// declares it (an undeclared key's value is then scanned as free).
func (c *container) takeKey(key string, segment []byte) (bool, error) {
	if !utf8.Valid(segment) || hasLoneSurrogate(key, segment) {
		return false, apierror.BadRequest("The request body holds a property name that is not valid UTF-8 (in %s)", describePath(c.path))
	}
	if c.seen[key] {
		return false, apierror.Invalid(fmt.Sprintf("%s is given more than once: send each property once", clip(joinPath(c.path, key))))
	}
	c.seen[key] = true
	valueShape, declared := c.shape.field(key)
	c.key, c.wantKey, c.valueShape = key, false, valueShape
	return declared, nil
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

// plainText reports whether a string token is valid UTF-8 without control
// characters (other than tab and line breaks): what checkString accepts.
func plainText(s string, segment []byte) bool {
	return utf8.Valid(segment) && !hasLoneSurrogate(s, segment) && strings.IndexFunc(s, isForbiddenControl) < 0
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
