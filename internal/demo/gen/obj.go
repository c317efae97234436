package main

import (
	"bytes"
	"encoding/json"
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
		key, err := json.Marshal(m.k)
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(key)
		b.WriteByte(':')
		b.Write(value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
