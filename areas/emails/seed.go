package emails

import (
	"context"
	"fmt"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the emails part of a demo dataset: templates and folders (a
// folder is a template of type "folder").
type SeedData struct {
	Templates []Template `json:"templates"`
}

// seed writes the dataset's templates. It checks what the API would have
// checked on creation, so the demo data is data the API could have made: a
// parent is a folder of the same account, listed in the same dataset. What
// the file leaves out is filled in as a creation would: dateAdded is now,
// dateUpdated is dateAdded, builderVersion is the default.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	folders := map[string]string{} // folder id -> account
	for _, t := range data.Templates {
		if t.Type == TypeFolder {
			folders[t.ID] = t.LocationID
		}
	}
	now := clock.Timestamp(d.Clock.Now())
	err := app.CheckRecords("templates", data.Templates, func(t *Template) (string, string) { return t.LocationID, t.ID }, func(t *Template) error {
		return checkSeedTemplate(t, folders, now)
	})
	if err != nil {
		return err
	}
	return NewTemplates(d.Table).Seed(ctx, data.Templates, nil)
}

// checkSeedTemplate checks a demo template and fills in its defaults.
func checkSeedTemplate(t *Template, folders map[string]string, now string) error {
	var v validate.Errors
	v.ID("id", t.ID)
	v.ID("locationId", t.LocationID)
	v.OneOf("type", t.Type, Types...)
	v.Check(t.ParentID == "" || folders[t.ParentID] == t.LocationID,
		fmt.Sprintf("parentId %s is not a folder of %s in this dataset", t.ParentID, t.LocationID))
	if t.BuilderVersion == "" {
		t.BuilderVersion = defaultBuilderVersion
	}
	v.Time("dateAdded", &t.DateAdded, now)
	v.Time("dateUpdated", &t.DateUpdated, t.DateAdded)
	return v.Err()
}
