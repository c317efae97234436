package medias

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the medias part of a demo dataset: files and folders with the
// fields the listing shows, less the derived path.
type SeedData struct {
	Files []Entry `json:"files"`
}

// seed checks the entries (so the dataset only holds what the API could
// serve: a sound tree of valid names) and writes them. Parents may be in the
// same dataset or already stored. Loading twice writes the same items.
func seed(ctx context.Context, d app.Deps, data SeedData) error {
	store := NewLibrary(d.Table)
	folders := map[string]map[string]Entry{} // account -> folder id -> folder
	seen := map[string]bool{}
	for i, e := range data.Files {
		e, err := checkSeedEntry(e)
		if err != nil {
			return fmt.Errorf("files[%d] (%s): %w", i, e.ID, err)
		}
		data.Files[i] = e
		if seen[e.AltID+"/"+e.ID] {
			return fmt.Errorf("files[%d]: id %s appears twice in account %s", i, e.ID, e.AltID)
		}
		seen[e.AltID+"/"+e.ID] = true
		if folders[e.AltID] == nil {
			stored, err := store.ofType(ctx, e.AltID, TypeFolder)
			if err != nil {
				return fmt.Errorf("read folders of %s: %w", e.AltID, err)
			}
			folders[e.AltID] = map[string]Entry{}
			for _, f := range stored {
				folders[e.AltID][f.ID] = f
			}
		}
	}
	for _, e := range data.Files {
		if e.Type == TypeFolder {
			folders[e.AltID][e.ID] = e
		}
	}
	items := make([]any, 0, len(data.Files))
	for i, e := range data.Files {
		if err := checkPlacement(e, folders[e.AltID]); err != nil {
			return fmt.Errorf("files[%d] (%s): %w", i, e.ID, err)
		}
		// An id keeps its key: a seed that changed an entry's type or parent
		// would otherwise leave a second item with the same id behind.
		item := newEntryItem(e)
		key, found, err := store.locate(ctx, e.AltID, e.ID)
		if err != nil {
			return fmt.Errorf("look up %s: %w", e.ID, err)
		}
		if found && key != item.Key {
			return fmt.Errorf("files[%d]: id %s already names a stored entry of another type or folder", i, e.ID)
		}
		items = append(items, item)
	}
	return d.Table.BatchPut(ctx, items)
}

// checkSeedEntry validates one entry on its own and returns it normalized
// (timestamps in the API's format).
func checkSeedEntry(e Entry) (Entry, error) {
	var problems []string
	add := func(msg string) {
		if msg != "" {
			problems = append(problems, msg)
		}
	}
	add(validate.IDProblem("_id", e.ID))
	add(validate.IDProblem("altId", e.AltID))
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
	created, err := time.Parse(time.RFC3339, e.CreatedAt)
	if err != nil {
		add("createdAt must be an ISO 8601 timestamp")
	}
	updated, err2 := time.Parse(time.RFC3339, e.UpdatedAt)
	if err2 != nil {
		add("updatedAt must be an ISO 8601 timestamp")
	}
	if err == nil && err2 == nil {
		if updated.Before(created) {
			add("updatedAt must not be before createdAt")
		}
		e.CreatedAt, e.UpdatedAt = clock.Timestamp(created), clock.Timestamp(updated)
	}
	if len(problems) > 0 {
		return e, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return e, nil
}

// checkPlacement checks that e's parent is a folder of its account and that
// the chain of parents reaches the root within maxDepth folders (which also
// rules out cycles).
func checkPlacement(e Entry, folders map[string]Entry) error {
	at := e
	for depth := 0; at.ParentID != ""; depth++ {
		if depth == maxDepth {
			return fmt.Errorf("is nested deeper than %d folders, or its folders form a cycle", maxDepth)
		}
		parent, ok := folders[at.ParentID]
		if !ok {
			return fmt.Errorf("parentId %s is not a folder of account %s", at.ParentID, e.AltID)
		}
		at = parent
	}
	return nil
}
