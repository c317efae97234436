// Command openapi30 writes api/openapi-3.0.yaml, the OpenAPI 3.0 rendition
// of api/openapi.yaml (3.1), for the code generators that read only 3.0
// (oapi-codegen, ogen: docs/api.md, "A Go client"). It is made, never
// written by hand: go generate ./... runs it after the generators that write
// api/openapi.yaml, and its test fails when the committed file differs.
//
// What 3.1 says that 3.0 can say is rewritten: `type: [T, 'null']` as
// `nullable`, a numeric `exclusiveMinimum` as `minimum` with the boolean,
// `const` as a one-value `enum`, `examples` as `example`, boolean schemas
// as `{}` and `{not: {}}`, `webhooks` as Redoc's `x-webhooks`. What it
// cannot say is left out, and the document's description says so: the
// conditional rules (`if`/`then`/`else`, with what only they used) and
// `unevaluatedProperties`. The server checks them either way. A 3.1
// construct it knows no rendition of stops the generator, naming where it
// is, rather than being dropped unseen.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bizplatform/api/internal/gen"
)

// Source and Target are the two documents, relative to the module root.
const (
	Source = "api/openapi.yaml"
	Target = "api/openapi-3.0.yaml"
)

func main() {
	gen.Main("openapi30", func(root string) ([]gen.File, error) {
		f, err := rendition(root)
		if err != nil {
			return nil, err
		}
		return []gen.File{f}, nil
	}, nil)
}

func rendition(root string) (gen.File, error) {
	raw, err := os.ReadFile(filepath.Join(root, Source))
	if err != nil {
		return gen.File{}, err
	}
	out, err := convert(raw)
	if err != nil {
		return gen.File{}, fmt.Errorf("%s: %w", Source, err)
	}
	return gen.File{Path: Target, Content: string(out)}, nil
}

const header = "# OpenAPI 3.0 rendition of api/openapi.yaml, made by internal/gen/openapi30\n" +
	"# (go generate ./...): do not edit; change api/openapi.yaml.\n"

// note ends the rendition's description: what a reader of this document
// does not find in it.
const note = "\n\n**This is the OpenAPI 3.0 rendition** of `/openapi.yaml` (OpenAPI 3.1), made from it\n" +
	"for code generators that read only 3.0. It leaves out what 3.0 cannot state: the rules\n" +
	"that depend on another field's value (`if`/`then`/`else`: which `actionParameters`\n" +
	"structure an action type takes, the import fields of an import template) and\n" +
	"`unevaluatedProperties`. The server checks them all the same; `/openapi.yaml` states them.\n" +
	"The events are under `x-webhooks`.\n"

// convert returns the 3.0 rendition of a 3.1 document.
func convert(raw []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("not an OpenAPI document")
	}
	root := doc.Content[0]
	if v := get(root, "openapi"); v == nil || !strings.HasPrefix(v.Value, "3.1.") {
		return nil, fmt.Errorf("openapi is not 3.1.x")
	}
	c := &converter{}
	if err := c.document(root); err != nil {
		return nil, err
	}
	c.dropVoidAllOf(root)
	c.typeNullables(root)
	var b bytes.Buffer
	b.WriteString(header)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type converter struct {
	// schemas are the converted components.schemas, by name.
	schemas map[string]*yaml.Node
	// voids are the schemas found void (true) or not (false), by name.
	voids map[string]bool
}

// document rewrites the document's own 3.1 parts, then every schema in it.
func (c *converter) document(root *yaml.Node) error {
	get(root, "openapi").Value = "3.0.3"
	del(root, "jsonSchemaDialect")
	if info := get(root, "info"); info != nil {
		del(info, "summary")
		if lic := get(info, "license"); lic != nil {
			del(lic, "identifier")
		}
		if d := get(info, "description"); d != nil {
			d.Value = strings.TrimRight(d.Value, "\n") + note
			d.Style = yaml.LiteralStyle
		} else {
			set(info, "description", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.TrimLeft(note, "\n"), Style: yaml.LiteralStyle})
		}
	}
	if k := keyNode(root, "webhooks"); k != nil {
		k.Value = "x-webhooks"
	}
	if comps := get(root, "components"); comps != nil {
		if get(comps, "pathItems") != nil {
			return fmt.Errorf("components.pathItems has no OpenAPI 3.0 rendition")
		}
	}
	return c.walk(root, "")
}

// walk converts each schema reached from an OpenAPI object (not a schema):
// the values of `schema` and of components.schemas. Examples and
// extensions are data, left as they are (x-webhooks excepted).
func (c *converter) walk(n *yaml.Node, path string) error {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			p := path + "/" + k
			switch {
			case k == "example" || k == "examples" || (strings.HasPrefix(k, "x-") && k != "x-webhooks"):
			case k == "schema":
				if err := c.schema(v, p); err != nil {
					return err
				}
			case k == "schemas" && path == "/components":
				for j := 0; j < len(v.Content); j += 2 {
					if err := c.schema(v.Content[j+1], p+"/"+v.Content[j].Value); err != nil {
						return err
					}
				}
			default:
				if err := c.walk(v, p); err != nil {
					return err
				}
			}
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			if err := c.walk(v, fmt.Sprintf("%s/%d", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Keywords whose value is one schema, and those whose value is a list or
// a map of schemas.
var (
	oneSchema   = []string{"items", "not", "additionalProperties", "contains", "propertyNames"}
	schemaList  = []string{"allOf", "anyOf", "oneOf"}
	schemaMap   = []string{"properties"}
	unsupported = []string{"prefixItems", "dependentSchemas", "dependentRequired", "patternProperties", "$defs", "unevaluatedItems", "contentSchema", "$dynamicRef", "$anchor", "$id", "$schema"}
	// dropped are the keywords 3.0 cannot state and the rendition leaves
	// out (its description says so).
	dropped = []string{"if", "then", "else", "unevaluatedProperties", "$comment"}
)

// schema rewrites the schema n (at path, for errors) and the schemas in it
// as OpenAPI 3.0 states them.
func (c *converter) schema(n *yaml.Node, path string) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		// true allows anything, false nothing.
		allow := n.Value == "true"
		*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if !allow {
			set(n, "not", &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
		}
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("%s: a schema is a mapping or a boolean", path)
	}
	for _, k := range unsupported {
		if get(n, k) != nil {
			return fmt.Errorf("%s: %s has no OpenAPI 3.0 rendition: write the schema without it", path, k)
		}
	}
	for _, k := range dropped {
		del(n, k)
	}
	if err := nullableType(n, path); err != nil {
		return err
	}
	nullableAlternative(n)
	if t := get(n, "type"); t != nil && t.Value == "null" {
		return fmt.Errorf("%s: type null alone has no OpenAPI 3.0 rendition", path)
	}
	for _, bound := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
		if v := get(n, bound[0]); v != nil && v.Tag != "!!bool" {
			if get(n, bound[1]) != nil {
				return fmt.Errorf("%s: both %s and %s", path, bound[0], bound[1])
			}
			set(n, bound[1], &yaml.Node{Kind: yaml.ScalarNode, Tag: v.Tag, Value: v.Value})
			*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}
		}
	}
	if k := keyNode(n, "const"); k != nil {
		if get(n, "enum") != nil {
			return fmt.Errorf("%s: both const and enum", path)
		}
		v := get(n, "const")
		k.Value = "enum"
		setValue(n, "enum", &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Content: []*yaml.Node{v}})
		// A const alone says its type by its value; an enum of 3.0 without
		// a type is read by generators as any value.
		if t, ok := constTypes[v.Tag]; ok && get(n, "type") == nil {
			set(n, "type", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t})
		}
	}
	if k := keyNode(n, "examples"); k != nil {
		v := get(n, "examples")
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			return fmt.Errorf("%s: examples is not a list of examples", path)
		}
		if get(n, "example") != nil {
			del(n, "examples")
		} else {
			k.Value = "example"
			setValue(n, "example", v.Content[0])
		}
	}
	if v := get(n, "$ref"); v != nil && !onlyAnnotations(n, "$ref") {
		// 3.0 ignores a reference's siblings: keep those that constrain by
		// wrapping the reference.
		ref := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		set(ref, "$ref", v)
		del(n, "$ref")
		set(n, "allOf", &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{ref}})
	}
	for _, k := range oneSchema {
		if v := get(n, k); v != nil && !(k == "additionalProperties" && v.Tag == "!!bool") {
			if err := c.schema(v, path+"/"+k); err != nil {
				return err
			}
		}
	}
	for _, k := range schemaList {
		if v := get(n, k); v != nil {
			for i, s := range v.Content {
				if err := c.schema(s, fmt.Sprintf("%s/%s/%d", path, k, i)); err != nil {
					return err
				}
			}
		}
	}
	for _, k := range schemaMap {
		if v := get(n, k); v != nil {
			for i := 0; i < len(v.Content); i += 2 {
				if err := c.schema(v.Content[i+1], path+"/"+k+"/"+v.Content[i].Value); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// constTypes are the types of a const's value, by its YAML tag.
var constTypes = map[string]string{"!!str": "string", "!!int": "integer", "!!float": "number", "!!bool": "boolean"}

// nullableType rewrites `type: [T, 'null']` as `type: T` and `nullable:
// true`, and `type: [T, U]` as `oneOf: [{type: T}, {type: U}]` (types are
// disjoint, so exactly one holds), nullable too when null is one of them.
func nullableType(n *yaml.Node, path string) error {
	t := get(n, "type")
	if t == nil || t.Kind != yaml.SequenceNode {
		return nil
	}
	var types []string
	null := false
	for _, v := range t.Content {
		if v.Value == "null" {
			null = true
		} else {
			types = append(types, v.Value)
		}
	}
	switch {
	case len(types) == 0:
		return fmt.Errorf("%s: type null alone has no OpenAPI 3.0 rendition", path)
	case len(types) == 1:
		*t = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: types[0]}
	case get(n, "oneOf") != nil:
		return fmt.Errorf("%s: type %v beside oneOf has no OpenAPI 3.0 rendition (write the types in the oneOf)", path, types)
	default:
		one := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, typ := range types {
			entry := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
			set(entry, "type", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: typ})
			one.Content = append(one.Content, entry)
		}
		del(n, "type")
		set(n, "oneOf", one)
	}
	if null {
		set(n, "nullable", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	return nil
}

// nullableAlternative rewrites `oneOf` or `anyOf` [X, {type: 'null'}] as
// [X] and `nullable: true`: 3.0 has no null type, only the flag.
func nullableAlternative(n *yaml.Node) {
	for _, k := range []string{"oneOf", "anyOf"} {
		list := get(n, k)
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		kept := list.Content[:0]
		null := false
		for _, alt := range list.Content {
			if t := get(alt, "type"); alt.Kind == yaml.MappingNode && len(alt.Content) == 2 && t != nil && t.Value == "null" {
				null = true
				continue
			}
			kept = append(kept, alt)
		}
		list.Content = kept
		if null {
			set(n, "nullable", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
		}
	}
}

// annotations are the keywords that constrain nothing: a schema made of
// them only (once the conditionals are gone) is void.
var annotations = []string{"description", "title", "example", "deprecated", "readOnly", "writeOnly", "externalDocs"}

// onlyAnnotations reports whether mapping n holds only annotations, and
// the keys except.
func onlyAnnotations(n *yaml.Node, except ...string) bool {
	for i := 0; i < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if !slices.Contains(annotations, k) && !slices.Contains(except, k) && !strings.HasPrefix(k, "x-") {
			return false
		}
	}
	return true
}

// dropVoidAllOf removes the allOf entries that constrain nothing, once
// converted (an allOf of if/then pairs, or a reference to one), and an
// allOf left empty: oapi-codegen reads a schema with allOf as the merge of
// its entries alone, so a void entry beside properties would hide them.
func (c *converter) dropVoidAllOf(root *yaml.Node) {
	c.schemas, c.voids = map[string]*yaml.Node{}, map[string]bool{}
	if s := get(get(root, "components"), "schemas"); s != nil {
		for i := 0; i < len(s.Content); i += 2 {
			c.schemas[s.Content[i].Value] = s.Content[i+1]
		}
	}
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		for _, child := range n.Content {
			visit(child)
		}
		if n.Kind != yaml.MappingNode {
			return
		}
		all := get(n, "allOf")
		if all == nil || all.Kind != yaml.SequenceNode {
			return
		}
		all.Content = slices.DeleteFunc(all.Content, c.void)
		if len(all.Content) == 0 {
			del(n, "allOf")
		}
	}
	visit(root)
}

// typeNullables gives each nullable schema that has no type of its own
// (a reference or null, once nullableAlternative has run) the type of its
// one alternative, since 3.0's nullable qualifies a type: oneOf of one
// becomes allOf of it, and the type is the alternative's (or that of the
// schema it references).
func (c *converter) typeNullables(root *yaml.Node) {
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		for _, child := range n.Content {
			visit(child)
		}
		if n.Kind != yaml.MappingNode || get(n, "type") != nil {
			return
		}
		if v := get(n, "nullable"); v == nil || v.Value != "true" {
			return
		}
		for _, k := range []string{"oneOf", "anyOf"} {
			if list := get(n, k); list != nil && len(list.Content) == 1 && get(n, "allOf") == nil {
				keyNode(n, k).Value = "allOf"
			}
		}
		all := get(n, "allOf")
		if all == nil || len(all.Content) != 1 {
			return
		}
		if t := c.typeOf(all.Content[0], 8); t != "" {
			set(n, "type", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t})
		}
	}
	visit(root)
}

// typeOf is the type schema n states, through its reference and its
// allOf's entries (depth of them at most), "" when none.
func (c *converter) typeOf(n *yaml.Node, depth int) string {
	if depth == 0 || n == nil || n.Kind != yaml.MappingNode {
		return ""
	}
	if t := get(n, "type"); t != nil && t.Kind == yaml.ScalarNode {
		return t.Value
	}
	if ref := get(n, "$ref"); ref != nil {
		name, _ := strings.CutPrefix(ref.Value, "#/components/schemas/")
		return c.typeOf(c.schemas[name], depth-1)
	}
	if all := get(n, "allOf"); all != nil {
		for _, entry := range all.Content {
			if t := c.typeOf(entry, depth-1); t != "" {
				return t
			}
		}
	}
	return ""
}

// void reports whether schema n constrains nothing.
func (c *converter) void(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	if ref := get(n, "$ref"); ref != nil {
		name, ok := strings.CutPrefix(ref.Value, "#/components/schemas/")
		target := c.schemas[name]
		if !ok || target == nil {
			return false
		}
		if v, seen := c.voids[name]; seen {
			return v
		}
		c.voids[name] = false // a cycle is not void
		c.voids[name] = c.void(target)
		return c.voids[name]
	}
	for i := 0; i < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if k == "allOf" {
			if !slices.ContainsFunc(n.Content[i+1].Content, func(s *yaml.Node) bool { return !c.void(s) }) {
				continue
			}
			return false
		}
		if !slices.Contains(annotations, k) && !strings.HasPrefix(k, "x-") {
			return false
		}
	}
	return true
}

// get returns the value of key in mapping n, or nil.
func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// keyNode returns the key node of key in mapping n, or nil.
func keyNode(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return nil
}

// set gives key the value v in mapping n, appending the key when absent.
func set(n *yaml.Node, key string, v *yaml.Node) {
	if setValue(n, key, v) {
		return
	}
	n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

// setValue replaces the value of key in mapping n, if it is there.
func setValue(n *yaml.Node, key string, v *yaml.Node) bool {
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content[i+1] = v
			return true
		}
	}
	return false
}

// del removes key from mapping n.
func del(n *yaml.Node, key string) {
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content = slices.Delete(n.Content, i, i+2)
			return
		}
	}
}
