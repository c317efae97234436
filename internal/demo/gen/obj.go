package main

import (
	"bytes"
	"encoding/json"
	"strings"
)

// obj is a JSON object whose members keep the order they were given in
// (request bodies, query strings, permission sets).
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := compactJSON(m.k)
		if err != nil {
			return nil, err
		}
		value, err := compactJSON(m.v)
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

// jsonFile is v as a generated file holds it: indented by two spaces, one
// line feed at the end.
func jsonFile(v any) (string, error) { return encode(v, "  ") }

// compactJSON is v on one line (a request body in an event).
func compactJSON(v any) (string, error) {
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
