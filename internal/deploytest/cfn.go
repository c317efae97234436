package deploytest

import (
	"fmt"
	"os"
	"regexp"
	"slices"
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

// Stack is what CloudFormation knows when it resolves a template's
// intrinsic functions for one stack: its name, region and parameter
// values, and the names its resources get.
type Stack struct {
	Name   string
	Region string
	// Parameters are the values given; the others take their Default.
	Parameters map[string]string
	// Ref is the value of !Ref of a resource (its physical id); nil: the
	// logical id prefixed with the stack's name, as CloudFormation names
	// what the template leaves unnamed.
	Ref func(logicalID string) string
	// GetAtt is the value of !GetAtt; nil: "<logical id>.<attribute>".
	GetAtt func(logicalID, attribute string) string
}

// Resolve evaluates v's intrinsic functions (Ref, Fn::Sub, Fn::GetAtt,
// Fn::If with the template's conditions, Fn::Equals, Fn::Not, Fn::And,
// Fn::Or, Fn::Select, Fn::Split, Fn::Join) to plain values, as
// CloudFormation would for s.
func (s Stack) Resolve(tpl map[string]any, v any) (any, error) {
	switch x := v.(type) {
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			r, err := s.Resolve(tpl, e)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	case map[string]any:
		if len(x) == 1 {
			for k, arg := range x {
				if k == "Ref" || k == "Condition" || strings.HasPrefix(k, "Fn::") {
					return s.intrinsic(tpl, k, arg)
				}
			}
		}
		out := map[string]any{}
		for k, e := range x {
			r, err := s.Resolve(tpl, e)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	}
	return v, nil
}

// ResolveString is Resolve of a value that must be a string.
func (s Stack) ResolveString(tpl map[string]any, v any) (string, error) {
	r, err := s.Resolve(tpl, v)
	if err != nil {
		return "", err
	}
	switch x := r.(type) {
	case string:
		return x, nil
	case int:
		return strconv.Itoa(x), nil
	}
	return "", fmt.Errorf("%v is not a string", r)
}

func (s Stack) ref(tpl map[string]any, name string) (string, error) {
	switch name {
	case "AWS::StackName":
		return s.Name, nil
	case "AWS::Region":
		return s.Region, nil
	case "AWS::Partition":
		return "aws", nil
	case "AWS::URLSuffix":
		return "amazonaws.com", nil
	case "AWS::AccountId":
		return "123456789012", nil
	}
	if p := Path(tpl, "Parameters", name); p != nil {
		if v, ok := s.Parameters[name]; ok {
			return v, nil
		}
		return fmt.Sprint(Path(p, "Default")), nil
	}
	if Path(tpl, "Resources", name) != nil {
		if s.Ref != nil {
			return s.Ref(name), nil
		}
		return s.Name + "-" + name, nil
	}
	return "", fmt.Errorf("!Ref %s names nothing of the template", name)
}

func (s Stack) getAtt(logicalID, attribute string) string {
	if s.GetAtt != nil {
		return s.GetAtt(logicalID, attribute)
	}
	return logicalID + "." + attribute
}

var subVariable = regexp.MustCompile(`\$\{([^}!][^}]*)\}`)

func (s Stack) intrinsic(tpl map[string]any, fn string, arg any) (any, error) {
	args, _ := arg.([]any)
	switch fn {
	case "Ref":
		return s.ref(tpl, fmt.Sprint(arg))
	case "Condition":
		return s.condition(tpl, fmt.Sprint(arg))
	case "Fn::GetAtt":
		if len(args) != 2 {
			return nil, fmt.Errorf("!GetAtt %v", arg)
		}
		return s.getAtt(fmt.Sprint(args[0]), fmt.Sprint(args[1])), nil
	case "Fn::Sub":
		text, vars := "", map[string]any{}
		switch a := arg.(type) {
		case string:
			text = a
		case []any:
			if len(a) != 2 {
				return nil, fmt.Errorf("!Sub %v", arg)
			}
			text = fmt.Sprint(a[0])
			vars, _ = a[1].(map[string]any)
		}
		var err error
		out := subVariable.ReplaceAllStringFunc(text, func(m string) string {
			name := m[2 : len(m)-1]
			if v, ok := vars[name]; ok {
				r, rerr := s.ResolveString(tpl, v)
				if rerr != nil {
					err = rerr
				}
				return r
			}
			if res, attr, ok := strings.Cut(name, "."); ok && !strings.HasPrefix(name, "AWS::") {
				return s.getAtt(res, attr)
			}
			r, rerr := s.ref(tpl, name)
			if rerr != nil {
				err = rerr
			}
			return r
		})
		return out, err
	case "Fn::If":
		if len(args) != 3 {
			return nil, fmt.Errorf("!If %v", arg)
		}
		ok, err := s.condition(tpl, fmt.Sprint(args[0]))
		if err != nil {
			return nil, err
		}
		if ok {
			return s.Resolve(tpl, args[1])
		}
		return s.Resolve(tpl, args[2])
	case "Fn::Equals":
		if len(args) != 2 {
			return nil, fmt.Errorf("!Equals %v", arg)
		}
		a, err := s.ResolveString(tpl, args[0])
		if err != nil {
			return nil, err
		}
		b, err := s.ResolveString(tpl, args[1])
		return a == b, err
	case "Fn::Not", "Fn::And", "Fn::Or":
		var vals []bool
		for _, a := range args {
			r, err := s.Resolve(tpl, a)
			if err != nil {
				return nil, err
			}
			b, ok := r.(bool)
			if !ok {
				return nil, fmt.Errorf("%s of %v", fn, r)
			}
			vals = append(vals, b)
		}
		switch fn {
		case "Fn::Not":
			return len(vals) == 1 && !vals[0], nil
		case "Fn::And":
			return !slices.Contains(vals, false), nil
		default:
			return slices.Contains(vals, true), nil
		}
	case "Fn::Select":
		if len(args) != 2 {
			return nil, fmt.Errorf("!Select %v", arg)
		}
		list, err := s.Resolve(tpl, args[1])
		if err != nil {
			return nil, err
		}
		i, _ := strconv.Atoi(fmt.Sprint(args[0]))
		l, _ := list.([]any)
		if i < 0 || i >= len(l) {
			return nil, fmt.Errorf("!Select %d of %v", i, l)
		}
		return l[i], nil
	case "Fn::Split":
		if len(args) != 2 {
			return nil, fmt.Errorf("!Split %v", arg)
		}
		str, err := s.ResolveString(tpl, args[1])
		var out []any
		for _, p := range strings.Split(str, fmt.Sprint(args[0])) {
			out = append(out, p)
		}
		return out, err
	case "Fn::Join":
		if len(args) != 2 {
			return nil, fmt.Errorf("!Join %v", arg)
		}
		list, err := s.Resolve(tpl, args[1])
		var parts []string
		for _, p := range asAnyList(list) {
			parts = append(parts, fmt.Sprint(p))
		}
		return strings.Join(parts, fmt.Sprint(args[0])), err
	}
	return nil, fmt.Errorf("%s is not an intrinsic this resolver knows", fn)
}

func (s Stack) condition(tpl map[string]any, name string) (bool, error) {
	c := Path(tpl, "Conditions", name)
	if c == nil {
		return false, fmt.Errorf("no condition %s", name)
	}
	r, err := s.Resolve(tpl, c)
	if err != nil {
		return false, err
	}
	b, ok := r.(bool)
	if !ok {
		return false, fmt.Errorf("condition %s is %v, not a boolean", name, r)
	}
	return b, nil
}

func asAnyList(v any) []any {
	l, _ := v.([]any)
	return l
}
