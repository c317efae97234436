// Command apidoc writes docs/api.md's table of operations and example
// calls, from the operations table (shared/operations) and each
// operation's sample request (internal/samples), between markers; the rest
// of the page is written by hand and kept as it is. go generate ./...
// runs it.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/gen"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/shared/operations"
)

func main() {
	gen.Main("apidoc", func(root string) ([]gen.File, error) {
		f, err := apiDoc(root)
		return []gen.File{f}, err
	}, nil)
}

// apiDoc returns docs/api.md with its table of operations and its example
// calls made from the operations table and the sample requests.
func apiDoc(root string) (gen.File, error) {
	const path = "docs/api.md"
	raw, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return gen.File{}, err
	}
	text, err := replaceBlock(string(raw), "operations", operationsTable())
	if err != nil {
		return gen.File{}, fmt.Errorf("%s: %w", path, err)
	}
	calls, err := exampleCalls()
	if err != nil {
		return gen.File{}, err
	}
	if text, err = replaceBlock(text, "examples", calls); err != nil {
		return gen.File{}, fmt.Errorf("%s: %w", path, err)
	}
	return gen.File{Path: path, Content: text}, nil
}

// replaceBlock puts content between a Markdown file's markers of the block
// name, which HTML comments keep out of the rendered page.
func replaceBlock(text, name, content string) (string, error) {
	begin := "<!-- " + name + ": generated from shared/operations and internal/samples by go generate ./... -->\n"
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
		if op.Body {
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
				return "", fmt.Errorf("%s has no sample request: write its x-sample in api/openapi.yaml", op.ID())
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
