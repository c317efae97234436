// Command demodata writes the generated parts of the demo dataset,
// internal/demo/data/<part>.json (the parts accounts, associations,
// brand-boards, emails and voice-ai are written by hand). go generate
// ./... runs it; fixed seeds and dates make the same bytes every time.
package main

import (
	"fmt"
	"time"

	"github.com/bizplatform/api/internal/gen"
)

func main() { gen.Main("demodata", generate, nil) }

// generate makes every generated part of the dataset.
func generate(string) ([]gen.File, error) {
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
	var files []gen.File
	for _, p := range parts {
		content, err := p.make()
		if err != nil {
			return nil, fmt.Errorf("demo data %s: %w", p.name, err)
		}
		files = append(files, gen.File{Path: "internal/demo/data/" + p.name + ".json", Content: content})
	}
	return files, nil
}

// timestamp writes t as the public API does: UTC, milliseconds, Z.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") + ".000Z" }

// utc is a time of day in UTC.
func utc(year int, month time.Month, day, hour, minute int) time.Time {
	return time.Date(year, month, day, hour, minute, 0, 0, time.UTC)
}
