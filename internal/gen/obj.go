package gen

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Obj is a JSON object whose members keep the order they were given in
// (request bodies, query strings, permission sets).
type Obj []KV

// KV is one member of an Obj: its name (a string) and its value. An array,
// not a struct, so that literals stay short (obj{{"id", 1}}) in every
// package that writes them.
type KV [2]any

func (o Obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := CompactJSON(m[0])
		if err != nil {
			return nil, err
		}
		value, err := CompactJSON(m[1])
		if err != nil {
			return nil, err
		}
		b.WriteString(key)
		b.WriteByte(':')
		b.WriteString(value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// JSONFile is v as a generated file holds it: indented by two spaces, one
// line feed at the end.
func JSONFile(v any) (string, error) { return encode(v, "  ") }

// CompactJSON is v on one line (a request body in an event).
func CompactJSON(v any) (string, error) {
	s, err := encode(v, "")
	return strings.TrimSuffix(s, "\n"), err
}

// encode writes < > & as they are: the data holds HTML bodies, and the
// files are read by people and by encoding/json, never by a browser.
func encode(v any, indent string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	err := enc.Encode(v)
	return b.String(), err
}
