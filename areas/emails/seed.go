package emails

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the emails part of a demo dataset: templates and folders (a
// folder is a template of type "folder").
type SeedData struct {
	Templates []Template `json:"templates"`
}

// seed writes the dataset's templates. It checks what the API would have
// checked on creation, so the demo data is data the API could have made: a
// parent is a folder of the same account, listed in the same dataset.
func seed(ctx context.Context, d app.Deps, data SeedData) error {
	folders := map[string]string{} // folder id -> account
	for _, t := range data.Templates {
		if t.Type == TypeFolder {
			folders[t.ID] = t.LocationID
		}
	}
	return NewTemplates(d.Table).Seed(ctx, data.Templates, func(t *Template) error { return checkSeedTemplate(t, folders) })
}

// checkSeedTemplate checks a demo template and fills in its defaults.
func checkSeedTemplate(t *Template, folders map[string]string) error {
	if msg := validate.IDProblem("template id", t.ID) + validate.IDProblem("locationId", t.LocationID); msg != "" {
		return errors.New(msg)
	}
	if !slices.Contains(Types, t.Type) {
		return fmt.Errorf("type %q is not one of %v", t.Type, Types)
	}
	if t.ParentID != "" && folders[t.ParentID] != t.LocationID {
		return fmt.Errorf("parentId %s is not a folder of %s in this dataset", t.ParentID, t.LocationID)
	}
	if t.BuilderVersion == "" {
		t.BuilderVersion = defaultBuilderVersion
	}
	if _, err := time.Parse(time.RFC3339, t.DateAdded); err != nil {
		return fmt.Errorf("dateAdded: %w", err)
	}
	if t.DateUpdated == "" {
		t.DateUpdated = t.DateAdded
	}
	return nil
}
