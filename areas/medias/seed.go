package medias

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the medias part of a demo dataset: files and folders with the
// fields the listing shows, less the derived path.
type SeedData struct {
	Files []Entry `json:"files"`
}

// seed checks the entries (so the dataset only holds what the API could
// serve: a sound tree of valid names), fills in what the file leaves out and
// writes them. Parents may be in the same dataset or already stored.
// Loading twice writes the same items.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	store := NewLibrary(d.Table)
	now := d.Clock.Now()
	keyOf := func(e *Entry) (string, string) { return e.AltID, e.ID }
	if err := app.CheckRecords("files", data.Files, keyOf, func(e *Entry) error { return checkSeedEntry(e, now) }); err != nil {
		return err
	}
	folders := map[string]map[string]Entry{} // account -> folder id -> folder
	for _, e := range data.Files {
		if folders[e.AltID] != nil {
			continue
		}
		stored, err := store.ofType(ctx, e.AltID, TypeFolder)
		if err != nil {
			return fmt.Errorf("read folders of %s: %w", e.AltID, err)
		}
		folders[e.AltID] = map[string]Entry{}
		for _, f := range stored {
			folders[e.AltID][f.ID] = f
		}
	}
	for _, e := range data.Files {
		if e.Type == TypeFolder {
			folders[e.AltID][e.ID] = e
		}
	}
	items := make([]any, 0, len(data.Files))
	err := app.CheckRecords("files", data.Files, keyOf, func(e *Entry) error {
		if err := checkPlacement(*e, folders[e.AltID]); err != nil {
			return err
		}
		// An id keeps its key: a seed that changed an entry's type or parent
		// would otherwise leave a second item with the same id behind.
		item := newEntryItem(*e)
		key, found, err := store.locate(ctx, e.AltID, e.ID)
		if err != nil {
			return fmt.Errorf("look up %s: %w", e.ID, err)
		}
		if found && key != item.Key {
			return errors.New("_id already names a stored entry of another type or folder")
		}
		items = append(items, item)
		return nil
	})
	if err != nil {
		return err
	}
	return d.Table.BatchPut(ctx, items)
}

// checkSeedEntry validates one entry on its own and normalizes it: createdAt
// left out is now and updatedAt left out is createdAt, as on creation; times
// are in the API's format.
func checkSeedEntry(e *Entry, now time.Time) error {
	var v validate.Errors
	add := func(msg string) {
		if msg != "" {
			v.Add(msg)
		}
	}
	add(validate.IDProblem("_id", e.ID))
	add(validate.IDProblem("altId", e.AltID))
	if e.AltType == "" {
		e.AltType = validate.AltType
	}
	if e.AltType != validate.AltType {
		add("altType must be " + validate.AltType)
	}
	if !slices.Contains(entryTypes, e.Type) {
		add("type must be one of: " + strings.Join(entryTypes, ", "))
	}
	if e.Name != strings.TrimSpace(e.Name) {
		add("name must not start or end with spaces")
	}
	add(nameProblem("name", e.Name))
	if e.ParentID != "" {
		add(validate.IDProblem("parentId", e.ParentID))
	}
	switch {
	case e.Type == TypeFile && validate.OutsideURLProblem(e.URL) != "":
		add("url of a file " + validate.OutsideURLRule + ": " + validate.OutsideURLProblem(e.URL))
	case e.Type == TypeFolder && e.URL != "":
		add("url must be empty for a folder")
	}
	v.Time("createdAt", &e.CreatedAt, clock.Timestamp(now))
	v.Time("updatedAt", &e.UpdatedAt, e.CreatedAt)
	created, err := time.Parse(time.RFC3339, e.CreatedAt)
	updated, err2 := time.Parse(time.RFC3339, e.UpdatedAt)
	if err == nil && err2 == nil {
		v.Check(!updated.Before(created), "updatedAt must not be before createdAt")
		e.CreatedAt, e.UpdatedAt = clock.Timestamp(created), clock.Timestamp(updated)
	}
	return v.Err()
}

// checkPlacement checks that e's parent is a folder of its account and that
// the chain of parents reaches the root within maxDepth folders (which also
// rules out cycles).
func checkPlacement(e Entry, folders map[string]Entry) error {
	at := e
	for depth := 0; at.ParentID != ""; depth++ {
		if depth == maxDepth {
			return fmt.Errorf("parentId nests it deeper than %d folders, or its folders form a cycle", maxDepth)
		}
		parent, ok := folders[at.ParentID]
		if !ok {
			return fmt.Errorf("parentId %s is not a folder of account %s", at.ParentID, e.AltID)
		}
		at = parent
	}
	return nil
}
