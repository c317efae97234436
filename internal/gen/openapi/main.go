// Command openapi writes, in api/openapi.yaml, what the operations table
// (shared/operations) says of each operation: the sentence naming its
// scope, its security requirement, x-token-kind, the Version and
// Idempotency-Key parameters, and the answers every operation of its kind
// gives (400, 401, 403, 406, 409 for writes, 413, 415, 422 as its field
// rules or a reused key answer, 429, 500, 503). The rest of each path item
// (summary, prose, path and query parameters, body, the success answer,
// 404, the sample request: x-sample and the body's example) and the
// components are written by hand and kept as they are.
// go generate ./... runs it; docs/design.md says why the table is the
// source.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/bizplatform/api/internal/gen"
	"github.com/bizplatform/api/shared/operations"
)

const path = "api/openapi.yaml"

func main() {
	gen.Main("openapi", func(root string) ([]gen.File, error) {
		raw, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			return nil, err
		}
		text, err := document(string(raw), operations.All)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return []gen.File{{Path: path, Content: text}}, nil
	}, nil)
}

// The document's layout, as written by hand: path items at two spaces,
// operations at four, their keys at six, list items and answers at eight.
var (
	pathLine      = regexp.MustCompile(`^  (/\S*):$`)
	methodLine    = regexp.MustCompile(`^    (get|put|post|delete|patch|head|options):$`)
	scopeSentence = regexp.MustCompile("^        Needs a token with the scope `[^`]*`\\.$")
	answerLine    = regexp.MustCompile(`^        '(\d{3})':$`)
)

// document returns text with the table's part of each operation written
// from ops. Every operation must have its path item; every operation of
// the document must be in ops.
func document(text string, ops []operations.Operation) (string, error) {
	byID := map[string]operations.Operation{}
	for _, op := range ops {
		byID[op.ID()] = op
	}
	lines := strings.Split(text, "\n")
	var out []string
	done := map[string]bool{}
	inPaths := false
	current := ""
	for i := 0; i < len(lines); {
		line := lines[i]
		switch {
		case line == "paths:":
			inPaths = true
		case inPaths && line != "" && !strings.HasPrefix(line, " "):
			inPaths = false
		case inPaths && pathLine.MatchString(line):
			current = pathLine.FindStringSubmatch(line)[1]
		}
		m := methodLine.FindStringSubmatch(line)
		if !inPaths || m == nil {
			out = append(out, line)
			i++
			continue
		}
		id := strings.ToUpper(m[1]) + " " + current
		op, ok := byID[id]
		if !ok {
			return "", fmt.Errorf("%s is documented but not in shared/operations", id)
		}
		end := i + 1
		for end < len(lines) && (lines[end] == "" || strings.HasPrefix(lines[end], "      ")) {
			end++
		}
		for end > i+1 && lines[end-1] == "" {
			end-- // blank lines after the operation are the document's
		}
		body, err := operation(op, lines[i+1:end])
		if err != nil {
			return "", fmt.Errorf("%s: %w", id, err)
		}
		out = append(append(out, line), body...)
		done[id] = true
		i = end
	}
	for _, op := range ops {
		if !done[op.ID()] {
			return "", fmt.Errorf("%s has no path item: write its summary, description, parameters, body and success answer by hand, then run go generate ./...", op.ID())
		}
	}
	return strings.Join(out, "\n"), nil
}

// operation rewrites the keys of one operation (the lines below its
// method, at six spaces and deeper).
func operation(op operations.Operation, lines []string) ([]string, error) {
	keys := splitKeys(lines)
	var out []string
	seen := map[string]bool{}
	for _, k := range keys {
		seen[k.name] = true
		switch k.name {
		case "operationId":
			out = append(out, "      operationId: "+operationID(op))
		case "description":
			n := 0
			for j, l := range k.lines {
				if scopeSentence.MatchString(l) {
					k.lines[j] = "        Needs a token with the scope `" + op.Scope + "`."
					n++
				}
			}
			if n != 1 {
				return nil, fmt.Errorf("the description needs one line %q", "Needs a token with the scope `...`.")
			}
			out = append(out, k.lines...)
		case "security":
			out = append(out, "      security:", "        - bearer: ["+op.Scope+"]")
			if op.MarketplaceOnly {
				out = append(out, "      x-token-kind: marketplace")
			}
		case "x-token-kind":
			// written with security
		case "parameters":
			out = append(out, parameters(op, k.lines)...)
		case "responses":
			answers, err := responses(op, k.lines)
			if err != nil {
				return nil, err
			}
			out = append(out, answers...)
		default:
			out = append(out, k.lines...)
		}
	}
	if !seen["operationId"] {
		out = append([]string{"      operationId: " + operationID(op)}, out...)
	}
	for _, name := range []string{"description", "security", "parameters", "responses"} {
		if !seen[name] {
			return nil, fmt.Errorf("the operation has no %s", name)
		}
	}
	return out, nil
}

// operationID is the operation's name in lower camel case, as the official
// SDK's method is named and as a generated client names its function.
func operationID(op operations.Operation) string {
	return strings.ToLower(op.Name[:1]) + op.Name[1:]
}

type key struct {
	name  string
	lines []string
}

// splitKeys cuts an operation's lines at each of its keys; blank lines stay
// with the key before them.
func splitKeys(lines []string) []key {
	var keys []key
	for _, l := range lines {
		if strings.HasPrefix(l, "      ") && len(l) > 6 && l[6] != ' ' {
			name, _, _ := strings.Cut(strings.TrimSpace(l), ":")
			keys = append(keys, key{name: name})
		}
		if len(keys) == 0 {
			keys = append(keys, key{})
		}
		keys[len(keys)-1].lines = append(keys[len(keys)-1].lines, l)
	}
	return keys
}

// The parameters every operation takes, and those of the writes.
const (
	versionParameter = "        - $ref: '#/components/parameters/Version'"
	keyParameter     = "        - $ref: '#/components/parameters/IdempotencyKey'"
)

// parameters puts Version, and Idempotency-Key on a write, first; the
// operation's own parameters follow as written.
func parameters(op operations.Operation, lines []string) []string {
	out := []string{lines[0], versionParameter}
	if op.Changes() {
		out = append(out, keyParameter)
	}
	for _, l := range lines[1:] {
		if l != versionParameter && l != keyParameter {
			out = append(out, l)
		}
	}
	return out
}

// standardAnswers are the answers the table decides, by status: the
// components they refer to.
func standardAnswers(op operations.Operation) map[string]string {
	answers := map[string]string{
		"400": "BadRequest", "401": "Unauthorized", "403": "Forbidden", "406": "NotAcceptable",
		"413": "PayloadTooLarge", "415": "UnsupportedMediaType", "429": "TooManyRequests",
		"500": "InternalError", "503": "Unavailable",
	}
	if op.Changes() {
		answers["409"] = "IdempotencyConflict"
	}
	switch {
	case op.ValidationStatus == 422:
		answers["422"] = "Unprocessable"
	case op.Changes():
		answers["422"] = "IdempotencyKeyReused" // field rules answer 400: 422 is only a reused key's
	}
	return answers
}

// decided are the statuses the table decides, present or absent.
var decided = map[string]bool{"400": true, "401": true, "403": true, "406": true, "409": true, "413": true, "415": true, "422": true, "429": true, "500": true, "503": true}

// responses keeps the hand-written answers (success, 404, ...) and writes
// the table's, all in the order of their status.
func responses(op operations.Operation, lines []string) ([]string, error) {
	type answer struct {
		status string
		lines  []string
	}
	var answers []answer
	for _, l := range lines[1:] {
		if m := answerLine.FindStringSubmatch(l); m != nil {
			answers = append(answers, answer{status: m[1]})
		}
		if len(answers) == 0 {
			return nil, fmt.Errorf("unexpected line under responses: %q", l)
		}
		answers[len(answers)-1].lines = append(answers[len(answers)-1].lines, l)
	}
	kept := answers[:0]
	for _, a := range answers {
		if !decided[a.status] {
			kept = append(kept, a)
		}
	}
	for status, component := range standardAnswers(op) {
		kept = append(kept, answer{status, []string{
			"        '" + status + "':",
			"          $ref: '#/components/responses/" + component + "'",
		}})
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].status < kept[j].status })
	out := []string{lines[0]}
	for _, a := range kept {
		out = append(out, a.lines...)
	}
	return out, nil
}
