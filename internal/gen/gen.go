// Package gen is what the generators share. Each generator is a command
// in a folder named for the one kind of file it writes, from what the code
// declares; `go generate ./...` runs them all:
//
//	demodata     internal/demo/data/<part>.json, the generated parts of the
//	             demo dataset (accounts, associations, brand-boards, emails
//	             and voice-ai are written by hand)
//	events       events/<area>/<name>.json, one API Gateway sample event per
//	             operation (its sample request: its x-sample in
//	             api/openapi.yaml, read by internal/samples), the
//	             portal's, and events/env.json for sam local
//	samtemplate  each area function's route events in template.yaml, from
//	             the operations table (shared/operations)
//	samwatch     what template.yaml repeats for each function: its rollback
//	             alarms and DeploymentPreference list, the deploy hook's
//	             functions and invoke ARNs, the dashboard, from the function
//	             list (internal/catalog.Functions)
//	apidoc       docs/api.md's table of operations and example calls, from
//	             the operations table and the sample requests
//	openapi      in api/openapi.yaml, each operation's scope, security,
//	             token kind, common parameters and common answers, from the
//	             operations table (the prose and schemas are by hand)
//	eventdocs    docs/events.md, api/openapi.yaml's webhooks and
//	             shared/events/registry.go, from the event registry
//	openapi30    api/openapi-3.0.yaml, the OpenAPI 3.0 rendition of
//	             api/openapi.yaml for code generators (after the two above)
//
// Every file is a pure function of the code (fixed seeds, fixed dates), so
// running a generator again changes nothing; each generator's test fails
// when a committed file differs from what it makes (Drift).
package gen

//go:generate go run ./demodata
//go:generate go run ./events
//go:generate go run ./samtemplate
//go:generate go run ./samwatch
//go:generate go run ./apidoc
//go:generate go run ./openapi
//go:generate go run ./eventdocs
//go:generate go run ./openapi30

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bizplatform/api/internal/dynamodblocal"
)

// File is one generated file, its path relative to the module root.
type File struct {
	Path    string
	Content string
}

// Main writes what generate makes under the module root, then removes the
// files stale lists (nil: none), and says how many it wrote. A
// generator's main is one call of it.
func Main(name string, generate func(root string) ([]File, error), stale func(root string, made []File) ([]string, error)) {
	if err := write(generate, stale); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

func write(generate func(root string) ([]File, error), stale func(root string, made []File) ([]string, error)) error {
	root, err := ModuleRoot()
	if err != nil {
		return err
	}
	files, err := generate(root)
	if err != nil {
		return err
	}
	for _, f := range files {
		name := filepath.Join(root, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, []byte(f.Content), 0o644); err != nil {
			return err
		}
	}
	if stale != nil {
		old, err := stale(root, files)
		if err != nil {
			return err
		}
		for _, rel := range old {
			if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				return err
			}
			fmt.Println("removed", rel)
		}
	}
	fmt.Printf("wrote %d files\n", len(files))
	return nil
}

// ModuleRoot is the folder of go.mod at or above the working directory
// (go generate runs in internal/gen, go test in a generator's folder).
func ModuleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return dynamodblocal.FindRoot(wd)
}

// Drift names each file under root that differs from what a generator
// made, with its first differing line; none when the files are current.
func Drift(root string, made []File) []string {
	var problems []string
	for _, f := range made {
		committed, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v (run go generate ./...)", f.Path, err))
			continue
		}
		if diff := FirstDifference(string(committed), f.Content); diff != "" {
			problems = append(problems, fmt.Sprintf("%s is not what its generator makes (run go generate ./...): %s", f.Path, diff))
		}
	}
	return problems
}

// FirstDifference names the first line where committed and made differ,
// or returns "" when they are the same.
func FirstDifference(committed, made string) string {
	if committed == made {
		return ""
	}
	a, b := strings.Split(committed, "\n"), strings.Split(made, "\n")
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y || i >= len(a) || i >= len(b) {
			return fmt.Sprintf("line %d is\n\t%q\nand should be\n\t%q", i+1, x, y)
		}
	}
	return "they differ"
}
