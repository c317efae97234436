// Command samtemplate writes each area function's route events in
// template.yaml from the operations it serves (shared/operations), below
// the marker on the function's Events line; the rest of the template is
// written by hand and kept as it is. go generate ./... runs it.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/gen"
	"github.com/bizplatform/api/shared/operations"
)

func main() {
	gen.Main("samtemplate", func(root string) ([]gen.File, error) {
		f, err := templateEvents(root)
		return []gen.File{f}, err
	}, nil)
}

// templateMarker ends the line of each area function's Events key in
// template.yaml: the lines below it, indented deeper, are the function's
// route events.
const templateMarker = "# generated from shared/operations: go generate ./..."

var resourceLine = regexp.MustCompile(`^  ([A-Za-z0-9]+):\s*$`)

// templateEvents returns template.yaml with each area function's route
// events made from the operations it serves.
func templateEvents(root string) (gen.File, error) {
	const path = "template.yaml"
	raw, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return gen.File{}, err
	}
	areaOf := map[string]string{}
	for _, area := range operations.Areas {
		areaOf[catalog.FunctionName(area)] = area
	}
	lines := strings.Split(string(raw), "\n")
	var out []string
	resource := ""
	done := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		out = append(out, line)
		if m := resourceLine.FindStringSubmatch(line); m != nil {
			resource = m[1]
		}
		key, ok := strings.CutSuffix(line, " "+templateMarker)
		if !ok {
			continue
		}
		area, ok := areaOf[resource]
		if !ok {
			return gen.File{}, fmt.Errorf("%s: %s has generated events but serves no area", path, resource)
		}
		if strings.TrimSpace(key) != "Events:" || done[resource] {
			return gen.File{}, fmt.Errorf("%s: %s: the marker belongs on the function's one Events line", path, resource)
		}
		done[resource] = true
		indent := key[:len(key)-len(strings.TrimLeft(key, " "))] + "  "
		for i+1 < len(lines) && strings.HasPrefix(lines[i+1], indent) {
			i++ // the events made before, replaced below
		}
		out = append(out, routeEvents(indent, operations.OfArea(area))...)
	}
	for name, area := range areaOf {
		if !done[name] {
			return gen.File{}, fmt.Errorf("%s: %s (area %s) has no line %q under its Properties", path, name, area, "Events: "+templateMarker)
		}
	}
	return gen.File{Path: path, Content: strings.Join(out, "\n")}, nil
}

// routeEvents are the HttpApi events that route ops to their function,
// named after each operation (and NoSlash for a path's slash-less twin).
func routeEvents(indent string, ops []operations.Operation) []string {
	var out []string
	for _, op := range ops {
		for i, path := range op.Paths() {
			name := op.Name
			if i > 0 {
				name += "NoSlash"
			}
			out = append(out,
				indent+name+":",
				indent+"  Type: HttpApi",
				indent+"  Properties:",
				indent+"    ApiId: !Ref HttpApi",
				indent+"    Method: "+op.Method,
				indent+"    Path: "+path,
			)
		}
	}
	return out
}
