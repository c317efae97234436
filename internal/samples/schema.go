package samples

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// schemas reads what the document's schemas say of a sample's inputs: the
// kind of each input where the schema states it, and which inputs may be
// left out. Only the parts of JSON Schema the document uses for requests
// are read: $ref, allOf, type, enum/const, format, pattern, properties,
// required and items. What a schema leaves open (a conditional schema's
// properties) the sample states in its x-sample.
type schemas struct {
	doc                     map[string]any
	idPattern, hexIDPattern string
}

// dig follows keys down the decoded document.
func (s schemas) dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// resolve follows a local $ref (#/components/...) until the node has none.
func (s schemas) resolve(v any) map[string]any {
	m, _ := v.(map[string]any)
	for range 10 {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		path, ok := strings.CutPrefix(ref, "#/")
		if !ok {
			return nil
		}
		m, _ = s.dig(s.doc, strings.Split(path, "/")...).(map[string]any)
	}
	return nil
}

// parts are a schema and the members of its allOf, resolved, depth first.
func (s schemas) parts(v any) []map[string]any {
	m := s.resolve(v)
	if m == nil {
		return nil
	}
	out := []map[string]any{m}
	if all, ok := m["allOf"].([]any); ok {
		for _, a := range all {
			out = append(out, s.parts(a)...)
		}
	}
	return out
}

// kind is what the schema says its value is; false when it does not say
// (no schema, an object or array, or nothing that decides).
func (s schemas) kind(v any) (Kind, bool) {
	var typ, format, pattern string
	enum := false
	for _, p := range s.parts(v) {
		if _, ok := p["enum"]; ok {
			enum = true
		}
		if _, ok := p["const"]; ok {
			enum = true
		}
		if typ == "" {
			typ = typeOf(p["type"])
		}
		if f, ok := p["format"].(string); ok && format == "" {
			format = f
		}
		if f, ok := p["pattern"].(string); ok && pattern == "" {
			pattern = f
		}
	}
	switch {
	case enum:
		return Enum, true
	case typ == "integer":
		return Integer, true
	case typ == "number":
		return Number, true
	case typ == "boolean":
		return Boolean, true
	case typ != "string":
		return 0, false
	case format == "uri":
		return WebURL, true
	case format == "date":
		return Date, true
	case pattern == s.idPattern:
		return ID, true
	case pattern == s.hexIDPattern:
		return HexID, true
	}
	return Text, true
}

// typeOf is a schema's type, the first but null of a list of types.
func typeOf(t any) string {
	switch t := t.(type) {
	case string:
		return t
	case []any:
		for _, e := range t {
			if e, ok := e.(string); ok && e != "null" {
				return e
			}
		}
	}
	return ""
}

// property is the schema of an object schema's property name and whether
// the object requires it; known is false when the schema does not
// describe the property.
func (s schemas) property(v any, name string) (schema any, required, known bool) {
	for _, p := range s.parts(v) {
		if req, ok := p["required"].([]any); ok && slices.Contains(req, any(name)) {
			required = true
		}
		if props, ok := p["properties"].(map[string]any); ok && schema == nil {
			schema = props[name]
		}
	}
	return schema, required, schema != nil
}

// items is the schema of an array schema's items.
func (s schemas) items(v any) any {
	for _, p := range s.parts(v) {
		if it, ok := p["items"]; ok {
			return it
		}
	}
	return nil
}

// inputs returns the kinds the schemas of op (an operation object) state
// for r's inputs, keyed as Request.Kinds, and the inputs they let leave
// out.
func (s schemas) inputs(r Request, op map[string]any) (map[string]Kind, []string, error) {
	kinds := map[string]Kind{}
	var optional []string
	params := map[string]map[string]any{}
	list, _ := op["parameters"].([]any)
	for _, p := range list {
		if p := s.resolve(p); p != nil {
			in, _ := p["in"].(string)
			name, _ := p["name"].(string)
			params[in+" "+name] = p
		}
	}
	values, err := r.PathValues()
	if err != nil {
		return nil, nil, err
	}
	for _, v := range values {
		if p, ok := params["path "+v[0]]; ok {
			if k, ok := s.kind(p["schema"]); ok {
				kinds["{"+v[0]+"}"] = k
			}
		}
	}
	query, err := r.QueryParams()
	if err != nil {
		return nil, nil, err
	}
	for _, q := range query {
		p, ok := params["query "+q[0]]
		if !ok {
			return nil, nil, fmt.Errorf("the query parameter %s is not among the operation's parameters", q[0])
		}
		if k, ok := s.kind(p["schema"]); ok {
			kinds["?"+q[0]] = k
		}
		if req, _ := p["required"].(bool); !req {
			optional = append(optional, "?"+q[0])
		}
	}
	if r.Body != "" {
		dec := json.NewDecoder(strings.NewReader(r.Body))
		dec.UseNumber()
		var body any
		if err := dec.Decode(&body); err != nil {
			return nil, nil, fmt.Errorf("the body: %w", err)
		}
		schema := s.dig(op, "requestBody", "content", "application/json", "schema")
		s.body("", body, schema, kinds, &optional)
	}
	return kinds, optional, nil
}

// body adds the kinds and optional inputs of the body value v at path
// (body paths as Request.Kinds writes them), whose schema is schema.
func (s schemas) body(path string, v, schema any, kinds map[string]Kind, optional *[]string) {
	switch x := v.(type) {
	case map[string]any:
		names := make([]string, 0, len(x))
		for name := range x {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			child := strings.TrimPrefix(path+"."+name, ".")
			var sub any
			if schema != nil {
				var required, known bool
				sub, required, known = s.property(schema, name)
				if known && !required && !slices.Contains(*optional, child) {
					*optional = append(*optional, child)
				}
			}
			s.body(child, x[name], sub, kinds, optional)
		}
	case []any:
		var sub any
		if schema != nil {
			sub = s.items(schema)
		}
		for _, e := range x {
			s.body(path+"[]", e, sub, kinds, optional)
		}
	default:
		if schema == nil {
			return
		}
		if k, ok := s.kind(schema); ok {
			kinds[path] = k
		}
	}
}
