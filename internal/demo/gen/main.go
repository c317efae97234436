// Command gen writes what the code declares and a file would otherwise
// repeat by hand: run it with `go generate ./internal/demo`. It makes
//
//   - the generated parts of the demo dataset (internal/demo/data/<part>.json;
//     the parts accounts, associations, brand-boards, emails and voice-ai are
//     written by hand);
//   - from the operations table (shared/operations) and each operation's
//     sample request (internal/samples): the sample events
//     (events/<area>/<name>.json), each area function's route events in
//     template.yaml, and docs/api.md's table of operations and example
//     calls, between markers in files otherwise written by hand.
//
// Every file is a pure function of the code (fixed seeds, fixed dates), so
// running it again changes nothing, and a test fails when a committed file
// differs from what it makes.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/bizplatform/api/internal/dynamodblocal"
)

// file is one generated file, its path relative to the module root.
type file struct {
	path    string
	content string
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	files, err := generate(root)
	if err != nil {
		return err
	}
	for _, f := range files {
		name := filepath.Join(root, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, []byte(f.content), 0o644); err != nil {
			return err
		}
	}
	stale, err := staleEvents(root, files)
	if err != nil {
		return err
	}
	for _, name := range stale {
		if err := os.Remove(filepath.Join(root, filepath.FromSlash(name))); err != nil {
			return err
		}
		fmt.Println("removed", name)
	}
	fmt.Printf("wrote %d files\n", len(files))
	return nil
}

// generate makes every file: the data parts, the events, then the
// generated parts of template.yaml and docs/api.md (read from root).
func generate(root string) ([]file, error) {
	parts := []struct {
		name string
		make func() (string, error)
	}{
		{"ad-publishing", adPublishing},
		{"campaigns", campaigns},
		{"contacts", contacts},
		{"conversations", conversations},
		{"custom-fields", customFields},
		{"medias", medias},
		{"payments", payments},
		{"products", products},
		{"store", store},
		{"surveys", surveys},
		{"users", users},
	}
	var files []file
	for _, p := range parts {
		content, err := p.make()
		if err != nil {
			return nil, fmt.Errorf("demo data %s: %w", p.name, err)
		}
		files = append(files, file{"internal/demo/data/" + p.name + ".json", content})
	}
	evs, err := events()
	if err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	files = append(files, evs...)
	for _, part := range []func(root string) (file, error){templateEvents, apiDoc} {
		f, err := part(root)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// staleEvents lists the event files under root/events that generate no
// longer makes (an operation's sample renamed or removed).
func staleEvents(root string, files []file) ([]string, error) {
	made := map[string]bool{}
	for _, f := range files {
		made[f.path] = true
	}
	found, err := filepath.Glob(filepath.Join(root, "events", "*", "*.json"))
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, name := range found {
		rel, err := filepath.Rel(root, name)
		if err != nil {
			return nil, err
		}
		if rel = filepath.ToSlash(rel); !made[rel] {
			stale = append(stale, rel)
		}
	}
	return stale, nil
}

// moduleRoot is the folder of go.mod at or above the working directory
// (go generate runs in internal/demo, go test in this folder).
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return dynamodblocal.FindRoot(wd)
}

// timestamp writes t as the public API does: UTC, milliseconds, Z.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") + ".000Z" }

// utc is a time of day in UTC.
func utc(year int, month time.Month, day, hour, minute int) time.Time {
	return time.Date(year, month, day, hour, minute, 0, 0, time.UTC)
}
