// Package emftest checks log lines against the Embedded Metric Format: the
// JSON schema AWS publishes for it (testdata/emf-schema.json, its source
// named beside it) and the rules of the specification's prose the schema
// cannot express. Tests only: it links a JSON-schema validator.
package emftest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed testdata/emf-schema.json
var schemaText []byte

var (
	compileOnce sync.Once
	schema      *jsonschema.Schema
	compileErr  error
)

func compiled() (*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaText))
		if err != nil {
			compileErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft7)
		const url = "emf-schema.json"
		if err := c.AddResource(url, doc); err != nil {
			compileErr = err
			return
		}
		schema, compileErr = c.Compile(url)
	})
	return schema, compileErr
}

// Validate checks one log line: a JSON object that the published schema
// accepts, whose every referenced dimension is a string member of the root
// and every metric a number (or an array of at most 100 numbers), with at
// most 100 metrics per directive.
func Validate(line []byte) error {
	s, err := compiled()
	if err != nil {
		return fmt.Errorf("the schema: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := s.Validate(doc); err != nil {
		return err
	}
	var l struct {
		AWS struct {
			CloudWatchMetrics []struct {
				Dimensions [][]string
				Metrics    []struct{ Name string }
			}
		} `json:"_aws"`
	}
	var root map[string]any
	if err := json.Unmarshal(line, &l); err != nil {
		return err
	}
	if err := json.Unmarshal(line, &root); err != nil {
		return err
	}
	for i, d := range l.AWS.CloudWatchMetrics {
		if len(d.Metrics) > 100 {
			return fmt.Errorf("directive %d has %d metrics, more than 100", i, len(d.Metrics))
		}
		for _, set := range d.Dimensions {
			for _, name := range set {
				if _, ok := root[name].(string); !ok {
					return fmt.Errorf("directive %d: dimension %q is not a string member of the root", i, name)
				}
			}
		}
		for _, m := range d.Metrics {
			switch v := root[m.Name].(type) {
			case float64:
			case []any:
				if len(v) > 100 {
					return fmt.Errorf("directive %d: metric %q has %d values, more than 100", i, m.Name, len(v))
				}
				for _, x := range v {
					if _, ok := x.(float64); !ok {
						return fmt.Errorf("directive %d: metric %q holds a value that is not a number", i, m.Name)
					}
				}
			default:
				return fmt.Errorf("directive %d: metric %q is not a number member of the root", i, m.Name)
			}
		}
	}
	return nil
}

// MetricLines returns the lines of a JSON-lines log that carry metrics
// (an `_aws` member), each decoded, failing on the first line that is not
// JSON or does not validate.
func MetricLines(log string) ([]map[string]any, error) {
	var out []map[string]any
	for _, raw := range strings.Split(strings.TrimSpace(log), "\n") {
		if raw == "" || !strings.Contains(raw, `"_aws"`) {
			continue
		}
		if err := Validate([]byte(raw)); err != nil {
			return nil, fmt.Errorf("%w\nline: %s", err, raw)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// Sum adds up the number member name over the JSON lines of log whose
// string members equal where's, as Logs Insights' `filter ... | stats
// sum(name)` would: how the figures that are members, not metrics, are read.
func Sum(log, name string, where map[string]string) float64 {
	total := 0.0
	for _, raw := range strings.Split(strings.TrimSpace(log), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(raw), &m) != nil {
			continue
		}
		match := true
		for k, v := range where {
			if m[k] != v {
				match = false
			}
		}
		if n, ok := m[name].(float64); ok && match {
			total += n
		}
	}
	return total
}
