package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/bizplatform/api/internal/gen"
)

// The committed rendition is what this generator makes of the committed
// document: change api/openapi.yaml and run `go generate ./...`, never the
// rendition.
func TestTheCommittedFilesAreWhatTheGeneratorMakes(t *testing.T) {
	root, err := gen.ModuleRoot()
	require.NoError(t, err)
	f, err := rendition(root)
	require.NoError(t, err)
	assert.Empty(t, gen.Drift(root, []gen.File{f}))
}

// converted is the 3.0 rendition of a document whose only schema is
// schema (YAML), read back as plain values.
func converted(t *testing.T, schema string) map[string]any {
	t.Helper()
	doc := "openapi: 3.1.0\ninfo: {title: T, version: '1', summary: S, license: {name: P, identifier: MIT}}\npaths: {}\n" +
		"components:\n  schemas:\n    S:\n" + indent(schema, "      ")
	out, err := convert([]byte(doc))
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, yaml.Unmarshal(out, &v))
	return v
}

func schemaOf(t *testing.T, doc map[string]any) any {
	t.Helper()
	return doc["components"].(map[string]any)["schemas"].(map[string]any)["S"]
}

func indent(text, by string) string {
	return by + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n"+by) + "\n"
}

func TestEachRuleOf31IsWrittenAs30SaysIt(t *testing.T) {
	cases := []struct {
		name, schema string
		want         any
	}{
		{"a type with null becomes nullable",
			"type: [string, 'null']\nmaxLength: 3",
			map[string]any{"type": "string", "maxLength": 3, "nullable": true}},
		{"two types become one of each",
			"type: [string, integer]",
			map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}},
		{"two types with null become one of each, nullable",
			"type: [string, integer, 'null']",
			map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}, "nullable": true}},
		{"a reference or null becomes the reference, nullable",
			"type: object\nproperties:\n  next:\n    oneOf: [{$ref: '#/components/schemas/S'}, {type: 'null'}]",
			map[string]any{"type": "object", "properties": map[string]any{"next": map[string]any{
				"allOf": []any{map[string]any{"$ref": "#/components/schemas/S"}}, "nullable": true, "type": "object"}}}},
		{"a numeric exclusive minimum becomes a minimum with the flag",
			"type: number\nexclusiveMinimum: 0\nmaximum: 24",
			map[string]any{"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 24}},
		{"a numeric exclusive maximum becomes a maximum with the flag",
			"type: integer\nexclusiveMaximum: 10",
			map[string]any{"type": "integer", "maximum": 10, "exclusiveMaximum": true}},
		{"a const becomes a one-value enum of its value's type",
			"const: 404",
			map[string]any{"enum": []any{404}, "type": "integer"}},
		{"a const keeps a type given beside it",
			"type: string\nconst: Not Found",
			map[string]any{"type": "string", "enum": []any{"Not Found"}}},
		{"examples become the first example",
			"type: string\nexamples: [a, b]",
			map[string]any{"type": "string", "example": "a"}},
		{"boolean schemas of properties become an empty schema and its negation",
			"type: object\nproperties:\n  any: true\n  none: false",
			map[string]any{"type": "object", "properties": map[string]any{"any": map[string]any{}, "none": map[string]any{"not": map[string]any{}}}}},
		{"conditionals and unevaluatedProperties are left out, and the allOf they leave empty",
			"type: object\nproperties:\n  kind: {type: string}\nallOf:\n  - if: {properties: {kind: {const: a}}}\n    then: {required: [x]}\nunevaluatedProperties: false",
			map[string]any{"type": "object", "properties": map[string]any{"kind": map[string]any{"type": "string"}}}},
		{"rules inside properties, items and allOf are rewritten too",
			"type: object\nproperties:\n  list:\n    type: [array, 'null']\n    items: {type: [integer, 'null']}\nallOf:\n  - {type: object, properties: {n: {const: true}}}",
			map[string]any{"type": "object",
				"properties": map[string]any{"list": map[string]any{"type": "array", "nullable": true, "items": map[string]any{"type": "integer", "nullable": true}}},
				"allOf":      []any{map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"enum": []any{true}, "type": "boolean"}}}}}},
		{"a property named like a keyword is a property, not a keyword",
			"type: object\nproperties:\n  examples: {type: array, items: {type: string}}\n  const: {type: string}",
			map[string]any{"type": "object", "properties": map[string]any{
				"examples": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				"const":    map[string]any{"type": "string"}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, schemaOf(t, converted(t, c.schema)))
		})
	}
}

func TestTheDocumentSaysWhatItIsAndKeepsTheEvents(t *testing.T) {
	doc := "openapi: 3.1.0\ninfo:\n  title: T\n  version: '1'\n  summary: S\n  description: About.\n  license: {name: P, identifier: MIT}\npaths: {}\n" +
		"webhooks:\n  Ping:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {type: object, properties: {type: {const: Ping}}}\n"
	out, err := convert([]byte(doc))
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, yaml.Unmarshal(out, &v))
	assert.Equal(t, "3.0.3", v["openapi"])
	info := v["info"].(map[string]any)
	assert.NotContains(t, info, "summary", "3.0's info has no summary")
	assert.Equal(t, map[string]any{"name": "P"}, info["license"], "3.0's license has no identifier")
	assert.Contains(t, info["description"], "About.")
	assert.Contains(t, info["description"], "OpenAPI 3.0 rendition", "the description says what the rendition leaves out")
	assert.NotContains(t, v, "webhooks")
	schema := v["x-webhooks"].(map[string]any)["Ping"].(map[string]any)["post"].(map[string]any)["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
	assert.Equal(t, map[string]any{"type": "object", "properties": map[string]any{"type": map[string]any{"enum": []any{"Ping"}, "type": "string"}}}, schema)
}

func TestA31RuleWithoutA30RenditionStopsTheGenerator(t *testing.T) {
	for name, schema := range map[string]string{
		"null alone":              "type: ['null']",
		"the null type alone":     "type: 'null'",
		"two types beside oneOf":  "type: [string, integer]\noneOf: [{type: string}]",
		"prefixItems":             "type: array\nprefixItems: [{type: string}]",
		"a bound given two ways":  "type: number\nexclusiveMinimum: 0\nminimum: 1",
		"patternProperties":       "type: object\npatternProperties: {'^x': {type: string}}",
		"dependentRequired":       "type: object\ndependentRequired: {a: [b]}",
		"a const beside an enum":  "const: a\nenum: [a, b]",
		"a schema that is a list": "[a]",
	} {
		t.Run(name, func(t *testing.T) {
			doc := "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    S:\n" + indent(schema, "      ")
			_, err := convert([]byte(doc))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "/components/schemas/S", "the error names where")
		})
	}
}

func TestADocumentThatIsNot31IsRefused(t *testing.T) {
	_, err := convert([]byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n"))
	assert.ErrorContains(t, err, "not 3.1")
}
