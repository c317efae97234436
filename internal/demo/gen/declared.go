package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/shared/operations"
)

// The parts of hand-written files that the operations table (and its sample
// requests) declare: each function's route events in template.yaml, and
// docs/api.md's table of operations and example calls. The rest of both
// files is written by hand and kept as it is.

// templateMarker ends the line of each area function's Events key in
// template.yaml: the lines below it, indented deeper, are the function's
// route events.
const templateMarker = "# generated from shared/operations: go generate ./internal/demo"

var resourceLine = regexp.MustCompile(`^  ([A-Za-z0-9]+):\s*$`)

// templateEvents returns template.yaml with each area function's route
// events made from the operations it serves.
func templateEvents(root string) (file, error) {
	const path = "template.yaml"
	raw, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return file{}, err
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
			return file{}, fmt.Errorf("%s: %s has generated events but serves no area", path, resource)
		}
		if strings.TrimSpace(key) != "Events:" || done[resource] {
			return file{}, fmt.Errorf("%s: %s: the marker belongs on the function's one Events line", path, resource)
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
			return file{}, fmt.Errorf("%s: %s (area %s) has no line %q under its Properties", path, name, area, "Events: "+templateMarker)
		}
	}
	return file{path, strings.Join(out, "\n")}, nil
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

// apiDoc returns docs/api.md with its table of operations and its example
// calls made from the operations table and the sample requests.
func apiDoc(root string) (file, error) {
	const path = "docs/api.md"
	raw, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return file{}, err
	}
	text, err := replaceBlock(string(raw), "operations", operationsTable())
	if err != nil {
		return file{}, fmt.Errorf("%s: %w", path, err)
	}
	calls, err := exampleCalls()
	if err != nil {
		return file{}, err
	}
	if text, err = replaceBlock(text, "examples", calls); err != nil {
		return file{}, fmt.Errorf("%s: %w", path, err)
	}
	return file{path, text}, nil
}

// replaceBlock puts content between a Markdown file's markers of the block
// name, which HTML comments keep out of the rendered page.
func replaceBlock(text, name, content string) (string, error) {
	begin := "<!-- " + name + ": generated from shared/operations and internal/samples by go generate ./internal/demo -->\n"
	end := "<!-- end of " + name + " -->\n"
	i := strings.Index(text, begin)
	j := strings.Index(text, end)
	if i < 0 || j < i || strings.Count(text, begin) != 1 {
		return "", fmt.Errorf("the block %q needs one line %q and, after it, one line %q", name, strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	return text[:i+len(begin)] + content + text[j:], nil
}

// operationsTable is docs/api.md's table of operations.
func operationsTable() string {
	var b strings.Builder
	b.WriteString("| Operation | Function | Scope | Body | Field rules |\n|---|---|---|---|---|\n")
	for _, op := range operations.All {
		scope := "`" + op.Scope + "`"
		if op.MarketplaceOnly {
			scope += ", marketplace token only"
		}
		body := "none"
		if op.TakesBody() {
			body = "JSON"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %d |\n", op.ID(), catalog.FunctionName(op.Area), scope, body, op.ValidationStatus)
	}
	return b.String()
}

// exampleCalls are docs/api.md's example calls: each operation's sample
// request as a curl command and what it answers, by area.
func exampleCalls() (string, error) {
	var b strings.Builder
	for _, area := range operations.Areas {
		fmt.Fprintf(&b, "**%s** (%s)\n\n", area, catalog.FunctionName(area))
		for _, op := range operations.OfArea(area) {
			s, ok := samples.Of(op)
			if !ok {
				return "", fmt.Errorf("%s has no sample request: add one to internal/samples", op.ID())
			}
			fmt.Fprintf(&b, "```sh\n%s\n# → %d %s\n```\n", curlCommand(s), s.Status, s.Answer)
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

// curlCommand is the sample request as a curl command, with the shell
// arrays docs/api.md defines: h (the headers and Alpha's private token), m
// (the same with the marketplace token) and j (a JSON body).
func curlCommand(s samples.Request) string {
	args := []string{"curl -s"}
	if s.Op.Method != "GET" {
		args = append(args, "-X "+s.Op.Method)
	}
	if s.Op.MarketplaceOnly {
		args = append(args, `"${m[@]}"`)
	} else {
		args = append(args, `"${h[@]}"`)
	}
	target := s.Path
	if s.Query != "" {
		target += "?" + s.Query
	}
	url := `"$API` + doubleQuoted.Replace(target) + `"`
	if s.Body == "" {
		return strings.Join(append(args, url), " ")
	}
	args = append(args, `"${j[@]}"`)
	return strings.Join(args, " ") + " \\\n  -d '" + strings.ReplaceAll(s.Body, "'", `'\''`) + "' \\\n  " + url
}

// doubleQuoted escapes what a shell would expand between double quotes.
var doubleQuoted = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
