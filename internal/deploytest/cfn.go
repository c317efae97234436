package deploytest

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ReadTemplate parses a CloudFormation template into plain maps, lists and
// scalars. Short-form intrinsics (!Ref X, !GetAtt A.B, !Sub s, ...) become
// their long form ({"Ref": "X"}, {"Fn::GetAtt": ["A", "B"]}, ...), as
// CloudFormation reads them.
func ReadTemplate(path string) (map[string]any, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Content) != 1 {
		return nil, fmt.Errorf("%s: expected one YAML document", path)
	}
	v, err := convert(doc.Content[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: the template is not a mapping", path)
	}
	return m, nil
}

func convert(n *yaml.Node) (any, error) {
	var v any
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			val, err := convert(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = val
		}
		v = m
	case yaml.SequenceNode:
		list := []any{}
		for _, c := range n.Content {
			val, err := convert(c)
			if err != nil {
				return nil, err
			}
			list = append(list, val)
		}
		v = list
	case yaml.AliasNode:
		return convert(n.Alias)
	case yaml.ScalarNode:
		v = scalar(n)
	default:
		return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
	}
	if !strings.HasPrefix(n.Tag, "!") || strings.HasPrefix(n.Tag, "!!") {
		return v, nil
	}
	name := strings.TrimPrefix(n.Tag, "!")
	switch name {
	case "Ref", "Condition":
		return map[string]any{name: v}, nil
	case "GetAtt":
		if s, ok := v.(string); ok { // !GetAtt Resource.Attribute
			res, attr, _ := strings.Cut(s, ".")
			v = []any{res, attr}
		}
		return map[string]any{"Fn::GetAtt": v}, nil
	default: // Sub, Join, If, Equals, Not, Select, Split, ...
		return map[string]any{"Fn::" + name: v}, nil
	}
}

func scalar(n *yaml.Node) any {
	switch n.Tag {
	case "!!int":
		if i, err := strconv.Atoi(n.Value); err == nil {
			return i
		}
	case "!!bool":
		return n.Value == "true"
	case "!!null":
		return nil
	}
	return n.Value
}

// Path walks nested maps by keys, returning nil when a key is missing.
func Path(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
