package samples

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/shared/operations"
)

// All is every operation's sample request, in the order of operations.All,
// read from api/openapi.yaml. A document without a sample for each
// operation stops every program that uses them, saying what to write.
var All = mustLoad()

func mustLoad() []Request {
	all, err := load(api.YAML(), operations.All)
	if err != nil {
		panic("internal/samples: api/openapi.yaml: " + err.Error())
	}
	return all
}

// sampleKey is the extension of an operation object holding its sample
// request: what OpenAPI has no place for. The body is the request body's
// example (requestBody.content.application/json.example), which the
// rendered document shows and the linters check against the schema.
const sampleKey = "x-sample"

// xSample is an x-sample as written in the document.
type xSample struct {
	Path       string          `yaml:"path"`
	Query      string          `yaml:"query"`
	Status     int             `yaml:"status"`
	Answer     string          `yaml:"answer"`
	Kinds      map[string]Kind `yaml:"kinds"`
	Optional   []string        `yaml:"optional"`
	StrictNull bool            `yaml:"strictNull"`
	Nullable   []string        `yaml:"nullable"`
}

// load reads the sample request of each of ops from the document.
func load(document []byte, ops []operations.Operation) ([]Request, error) {
	var tree yaml.Node
	if err := yaml.Unmarshal(document, &tree); err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := tree.Decode(&doc); err != nil {
		return nil, err
	}
	s := schemas{doc: doc}
	s.idPattern, _ = s.resolve(map[string]any{"$ref": "#/components/schemas/Id"})["pattern"].(string)
	s.hexIDPattern, _ = s.resolve(map[string]any{"$ref": "#/components/schemas/HexId"})["pattern"].(string)
	if s.idPattern == "" || s.hexIDPattern == "" {
		return nil, fmt.Errorf("components.schemas Id and HexId need a pattern")
	}
	root := tree.Content[0]

	var all []Request
	for _, op := range ops {
		where := fmt.Sprintf("%s: paths.%s.%s.%s", op.ID(), op.Path, strings.ToLower(op.Method), sampleKey)
		node := lookup(root, "paths", op.Path, strings.ToLower(op.Method))
		if node == nil {
			return nil, fmt.Errorf("%s: the operation has no path item", op.ID())
		}
		x := lookup(node, sampleKey)
		if x == nil {
			return nil, fmt.Errorf("%s is missing: write the operation's sample request there (docs/areas.md, Adding an operation)", where)
		}
		var xs xSample
		if err := knownKeys(x); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if err := x.Decode(&xs); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		r := Request{
			Op: op, Path: xs.Path, Query: xs.Query, Status: xs.Status, Answer: xs.Answer,
			StrictNull: xs.StrictNull, Nullable: xs.Nullable,
		}
		if example := lookup(node, "requestBody", "content", "application/json", "example"); example != nil {
			body, err := api.CompactJSON(example)
			if err != nil {
				return nil, fmt.Errorf("%s: the request body's example: %w", op.ID(), err)
			}
			r.Body = string(body)
		}
		if http.StatusText(r.Status) == "" {
			return nil, fmt.Errorf("%s: status %d is not an HTTP status", where, r.Status)
		}
		opSchema, _ := s.dig(doc, "paths", op.Path, strings.ToLower(op.Method)).(map[string]any)
		kinds, optional, err := s.inputs(r, opSchema)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		for name, k := range xs.Kinds {
			kinds[name] = k // the sample's word wins where the schema cannot say
		}
		for _, name := range xs.Optional {
			if !slices.Contains(optional, name) {
				optional = append(optional, name)
			}
		}
		r.Kinds, r.Optional = kinds, optional
		all = append(all, r)
	}
	return all, nil
}

// knownKeys refuses a key xSample does not have (a misspelt one would
// otherwise be dropped without a word).
func knownKeys(x *yaml.Node) error {
	if x.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: not a mapping", x.Line)
	}
	known := []string{"path", "query", "status", "answer", "kinds", "optional", "strictNull", "nullable"}
	for i := 0; i < len(x.Content); i += 2 {
		if k := x.Content[i]; !slices.Contains(known, k.Value) {
			return fmt.Errorf("line %d: %q is none of %s", k.Line, k.Value, strings.Join(known, ", "))
		}
	}
	return nil
}

// lookup follows keys down mapping nodes; nil when one is missing.
func lookup(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		if n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
				break
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// UnmarshalYAML reads a kind by its name in the document.
func (k *Kind) UnmarshalYAML(n *yaml.Node) error {
	for kind, name := range kindNames {
		if n.Value == name {
			*k = Kind(kind)
			return nil
		}
	}
	return fmt.Errorf("line %d: %q is not a kind of input (%s)", n.Line, n.Value, strings.Join(kindNames[:], ", "))
}

// kindNames are the kinds as x-sample names them, in the order of Kind.
var kindNames = [...]string{"text", "id", "hexId", "enum", "number", "integer", "boolean", "date", "intText", "url"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}
