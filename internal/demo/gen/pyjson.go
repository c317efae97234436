package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// The files are laid out as Python's json module lays them out (indent,
// separators, \u escapes), so that regenerating changes no byte of the data
// first made that way. Values are encoded with encoding/json (struct fields
// keep their order) and then re-laid out from the token stream.

// node is a JSON value whose object members keep their order.
type node struct {
	object  bool
	array   bool
	members []member // object
	items   []node   // array
	scalar  any      // string, json.Number, bool or nil
}

type member struct {
	key   string
	value node
}

// toNode encodes v with encoding/json and reads it back in order.
func toNode(v any) (node, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return node{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return readNode(dec)
}

func readNode(dec *json.Decoder) (node, error) {
	tok, err := dec.Token()
	if err != nil {
		return node{}, err
	}
	switch tok {
	case json.Delim('{'):
		n := node{object: true}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return node{}, err
			}
			value, err := readNode(dec)
			if err != nil {
				return node{}, err
			}
			n.members = append(n.members, member{key.(string), value})
		}
		_, err := dec.Token()
		return n, err
	case json.Delim('['):
		n := node{array: true}
		for dec.More() {
			item, err := readNode(dec)
			if err != nil {
				return node{}, err
			}
			n.items = append(n.items, item)
		}
		_, err := dec.Token()
		return n, err
	}
	return node{scalar: tok}, nil
}

// style is a json.dumps call's layout: indent < 0 writes one line.
type style struct {
	indent      int
	itemSep     string
	keySep      string
	escapeASCII bool // ensure_ascii
}

var (
	// indented is json.dumps(v, indent=n): ',' and ': ', non-ASCII escaped.
	indented = func(n int) style { return style{indent: n, itemSep: ",", keySep: ": ", escapeASCII: true} }
	// oneLine is json.dumps(v): ', ' and ': '.
	oneLine = style{indent: -1, itemSep: ", ", keySep: ": ", escapeASCII: true}
	// compact is json.dumps(v, separators=(",", ":")).
	compact = style{indent: -1, itemSep: ",", keySep: ":", escapeASCII: true}
)

// dumps lays v out in style s.
func dumps(v any, s style) (string, error) {
	n, err := toNode(v)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	s.write(&b, n, 0)
	return b.String(), nil
}

func (s style) write(b *strings.Builder, n node, level int) {
	switch {
	case n.object && len(n.members) == 0:
		b.WriteString("{}")
	case n.array && len(n.items) == 0:
		b.WriteString("[]")
	case n.object:
		b.WriteByte('{')
		for i, m := range n.members {
			s.separate(b, i, level+1)
			writeString(b, m.key, s.escapeASCII)
			b.WriteString(s.keySep)
			s.write(b, m.value, level+1)
		}
		s.newline(b, level)
		b.WriteByte('}')
	case n.array:
		b.WriteByte('[')
		for i, item := range n.items {
			s.separate(b, i, level+1)
			s.write(b, item, level+1)
		}
		s.newline(b, level)
		b.WriteByte(']')
	default:
		writeScalar(b, n.scalar, s.escapeASCII)
	}
}

// separate writes what comes before the i-th item of a container.
func (s style) separate(b *strings.Builder, i, level int) {
	if i > 0 {
		b.WriteString(s.itemSep)
	}
	s.newline(b, level)
}

func (s style) newline(b *strings.Builder, level int) {
	if s.indent >= 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(" ", s.indent*level))
	}
}

func writeScalar(b *strings.Builder, v any, escapeASCII bool) {
	switch v := v.(type) {
	case string:
		writeString(b, v, escapeASCII)
	case json.Number:
		b.WriteString(string(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	default:
		panic(fmt.Sprintf("unexpected JSON token %T", v))
	}
}

// writeString escapes as Python's json module does.
func writeString(b *strings.Builder, s string, escapeASCII bool) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || (escapeASCII && r > 0x7e):
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(b, `\u%04x\u%04x`, hi, lo)
			} else {
				fmt.Fprintf(b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// pyFloat is a number Python held as a float: it is written as Python's
// repr writes it (49.0, 5.99, 1e+16), so whole values keep their ".0".
type pyFloat float64

func (f pyFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil, fmt.Errorf("%v is not JSON", v)
	}
	// The shortest digits that read back as v, and the decimal exponent.
	mant, expPart, _ := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
	exp, _ := strconv.Atoi(expPart)
	sign := ""
	if strings.HasPrefix(mant, "-") {
		sign, mant = "-", mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		out := digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		return fmt.Appendf(nil, "%s%se%+03d", sign, out, exp), nil
	}
	var out string
	switch {
	case exp < 0:
		out = "0." + strings.Repeat("0", -exp-1) + digits
	case exp+1 >= len(digits):
		out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	default:
		out = digits[:exp+1] + "." + digits[exp+1:]
	}
	return []byte(sign + out), nil
}
