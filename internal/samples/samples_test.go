package samples

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/shared/operations"
)

func TestEveryOperationHasOneSampleInTheOrderOfTheOperationsTable(t *testing.T) {
	var want, got []string
	for _, op := range operations.All {
		want = append(want, op.ID())
	}
	for _, r := range All {
		got = append(got, r.Op.ID())
	}
	assert.Equal(t, want, got, "the operations of the samples are operations.All, in order (each sample is its operation's x-sample in api/openapi.yaml)")
}

func TestEverySampleIsARequestItsOperationTakes(t *testing.T) {
	for _, r := range All {
		t.Run(r.Op.ID(), func(t *testing.T) {
			values, err := r.PathValues()
			require.NoError(t, err)
			params, err := r.QueryParams()
			require.NoError(t, err)
			assert.True(t, r.Status >= 200 && r.Status < 300, "it succeeds")
			assert.NotEmpty(t, r.Answer, "docs/api.md says what it answers")
			if r.Op.Body {
				var compact bytes.Buffer
				require.NoError(t, json.Compact(&compact, []byte(r.Body)), "the body is JSON")
				assert.Equal(t, compact.String(), r.Body, "the body is written compact, as it is sent")
			} else {
				assert.Empty(t, r.Body, "the operation takes no body")
			}

			inputs := map[string]bool{}
			for _, v := range values {
				inputs["{"+v[0]+"}"] = true
			}
			for _, p := range params {
				inputs["?"+p[0]] = true
			}
			if r.Body != "" {
				var body any
				require.NoError(t, json.Unmarshal([]byte(r.Body), &body))
				bodyInputs("", body, inputs)
			}
			for _, name := range append(slices.Collect(maps.Keys(r.Kinds)), append(r.Optional, r.Nullable...)...) {
				assert.True(t, inputs[name], "%s names an input the request has (%v)", name, slices.Sorted(maps.Keys(inputs)))
			}
		})
	}
}

// bodyInputs adds the paths of v's values, every index written [].
func bodyInputs(path string, v any, out map[string]bool) {
	if path != "" {
		out[path] = true
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			bodyInputs(strings.TrimPrefix(path+"."+k, "."), e, out)
		}
	case []any:
		for _, e := range x {
			bodyInputs(path+"[]", e, out)
		}
	}
}

func TestPathValuesAreTheRoutesNamesFilledInOrder(t *testing.T) {
	for _, c := range []struct {
		name   string
		op     operations.Operation
		path   string
		values [][2]string
		fits   bool
	}{
		{"a route without names has no value", operations.DeleteCoupon, "/payments/coupon", nil, true},
		{"two names have two values in order", operations.DeleteTask, "/contacts/c1/tasks/t1",
			[][2]string{{"contactId", "c1"}, {"taskId", "t1"}}, true},
		{"a path with a segment too few does not fit", operations.DeleteTask, "/contacts/c1/tasks", nil, false},
		{"a path with another literal segment does not fit", operations.DeleteTask, "/contacts/c1/notes/t1", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			values, err := Request{Op: c.op, Path: c.path}.PathValues()
			if !c.fits {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.values, values)
		})
	}
}

func TestQueryParamsAreDecodedInOrder(t *testing.T) {
	params, err := Request{Query: "b=2&a=x%20y&c="}.QueryParams()
	require.NoError(t, err)
	assert.Equal(t, [][2]string{{"b", "2"}, {"a", "x y"}, {"c", ""}}, params)

	_, err = Request{Query: "a=%zz"}.QueryParams()
	assert.Error(t, err, "a malformed escape is refused")
}

func TestAMarketplaceOnlyOperationsSampleCarriesTheMarketplaceToken(t *testing.T) {
	for _, r := range All {
		assert.Equal(t, r.Op.MarketplaceOnly, r.Token().Kind == "marketplace", r.Op.ID())
		assert.Equal(t, "demoLocAlpha00000001", r.Token().Account, r.Op.ID())
	}
}

func TestTheDocumentHoldsOneSamplePerOperationAndNoOther(t *testing.T) {
	n := strings.Count(string(api.YAML()), "\n      "+sampleKey+":\n")
	assert.Equal(t, len(operations.All), n,
		"api/openapi.yaml has an x-sample on each operation of shared/operations and nowhere else")
}

// testDocument is a document of one operation, POST /things/{thingId},
// with the sample and schemas given.
func testDocument(sample, query, body string) []byte {
	return []byte(`openapi: 3.1.0
components:
  schemas:
    Id:
      type: string
      pattern: '^[A-Za-z0-9_-]+$'
    HexId:
      type: string
      pattern: '^[0-9a-fA-F]{24}$'
    Colour:
      type: string
      enum: [red, green]
paths:
  /things/{thingId}:
    post:
      parameters:
        - name: thingId
          in: path
          required: true
          schema:
            $ref: '#/components/schemas/HexId'
        - name: size
          in: query
          required: true
          schema:
            type: integer
        - name: when
          in: query
          schema:
            type: string
            format: date
` + query + `      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [ownerId, colour, parts]
              properties:
                ownerId:
                  allOf:
                    - $ref: '#/components/schemas/Id'
                  description: The owner.
                colour:
                  $ref: '#/components/schemas/Colour'
                site:
                  type: string
                  format: uri
                note:
                  type: [string, 'null']
                parts:
                  type: array
                  items:
                    type: object
                    required: [count]
                    properties:
                      count:
                        type: integer
                      weight:
                        type: number
                      loose:
                        type: boolean
                extra:
                  type: object
` + body + `      x-sample:
` + sample)
}

var thing = operations.Operation{Name: "MakeThing", Method: "POST", Path: "/things/{thingId}"}

func TestASamplesInputKindsComeFromTheSchemaUnlessTheSampleNamesThem(t *testing.T) {
	doc := testDocument(`        path: /things/a10200000000000000000201
        query: size=2&when=2026-01-02
        status: 201
        answer: the thing
        kinds:
          extra.code: enum
          note: id
        optional: [extra.code]
`, "", `            example:
              ownerId: o1
              colour: red
              site: https://example.com/a
              note: n
              parts:
                - count: 1
                  weight: 2.5
                  loose: false
              extra:
                code: x
                free: y
`)
	all, err := load(doc, []operations.Operation{thing})
	require.NoError(t, err)
	require.Len(t, all, 1)
	r := all[0]
	assert.Equal(t, `{"ownerId":"o1","colour":"red","site":"https://example.com/a","note":"n","parts":[{"count":1,"weight":2.5,"loose":false}],"extra":{"code":"x","free":"y"}}`,
		r.Body, "the body is the example as compact JSON, keys in the document's order")
	assert.Equal(t, "size=2&when=2026-01-02", r.Query)
	assert.Equal(t, 201, r.Status)
	assert.Equal(t, "the thing", r.Answer)

	for _, c := range []struct {
		name  string
		input string
		kind  Kind
		known bool
	}{
		{"a path value of the HexId schema is a hexadecimal id", "{thingId}", HexID, true},
		{"an integer query parameter is an integer", "?size", Integer, true},
		{"a query parameter of format date is a date", "?when", Date, true},
		{"a property of the Id schema through allOf is an id", "ownerId", ID, true},
		{"a property of an enum schema is an enum", "colour", Enum, true},
		{"a property of format uri is a URL", "site", WebURL, true},
		{"the sample's kind wins over the schema's", "note", ID, true},
		{"an integer inside an array's items is an integer", "parts[].count", Integer, true},
		{"a number is a number", "parts[].weight", Number, true},
		{"a boolean is a boolean", "parts[].loose", Boolean, true},
		{"the sample names the kind of what the schema does not describe", "extra.code", Enum, true},
		{"what neither describes has no kind", "extra.free", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			k, ok := r.Kinds[c.input]
			assert.Equal(t, c.known, ok)
			assert.Equal(t, c.kind, k)
		})
	}
	assert.ElementsMatch(t, []string{"?when", "site", "note", "extra", "parts[].weight", "parts[].loose", "extra.code"}, r.Optional,
		"what the schema does not require, and what the sample says, is optional; the rest is not")
}

func TestADocumentWithoutAProperSampleIsRefusedNamingWhereToWriteIt(t *testing.T) {
	good := "        path: /things/a10200000000000000000201\n        query: size=2\n        status: 200\n        answer: the thing\n"
	for _, c := range []struct {
		name   string
		doc    []byte
		refuse string
	}{
		{"an operation without x-sample", bytes.Replace(testDocument(good, "", ""), []byte("      x-sample:\n"), []byte("      x-other:\n"), 1),
			"paths./things/{thingId}.post.x-sample is missing"},
		{"a misspelt key", testDocument(good+"        optinal: [site]\n", "", ""), `"optinal" is none of`},
		{"a kind of input there is not", testDocument(good+"        kinds: {site: uri}\n", "", ""), `"uri" is not a kind of input`},
		{"a query parameter the operation does not take", testDocument(strings.Replace(good, "size=2", "size=2&colour=red", 1), "", ""),
			"the query parameter colour is not among the operation's parameters"},
		{"a path that does not fit the route", testDocument(strings.Replace(good, "/things/", "/thing/", 1), "", ""), "does not fit the route"},
		{"a status that is not one", testDocument(strings.Replace(good, "status: 200", "status: 2000", 1), "", ""), "status 2000 is not an HTTP status"},
	} {
		t.Run(c.name+" is refused", func(t *testing.T) {
			_, err := load(c.doc, []operations.Operation{thing})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.refuse)
		})
	}
}
