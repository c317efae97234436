package emails

import (
	"context"
	"encoding/json"
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
func seed(ctx context.Context, d app.Deps, raw json.RawMessage) error {
	var data SeedData
	if err := app.DecodeSeed("emails", raw, &data); err != nil {
		return err
	}
	folders := map[string]string{} // folder id -> account
	for _, t := range data.Templates {
		if t.Type == TypeFolder {
			folders[t.ID] = t.LocationID
		}
	}
	items := make([]any, 0, len(data.Templates))
	for _, t := range data.Templates {
		if msg := validate.IDProblem("template id", t.ID) + validate.IDProblem("locationId", t.LocationID); msg != "" {
			return fmt.Errorf("emails: %s", msg)
		}
		if !slices.Contains(Types, t.Type) {
			return fmt.Errorf("emails: template %s: type %q is not one of %v", t.ID, t.Type, Types)
		}
		if t.ParentID != "" && folders[t.ParentID] != t.LocationID {
			return fmt.Errorf("emails: template %s: parentId %s is not a folder of %s in this dataset", t.ID, t.ParentID, t.LocationID)
		}
		if t.BuilderVersion == "" {
			t.BuilderVersion = defaultBuilderVersion
		}
		if _, err := time.Parse(time.RFC3339, t.DateAdded); err != nil {
			return fmt.Errorf("emails: template %s: dateAdded: %w", t.ID, err)
		}
		if t.DateUpdated == "" {
			t.DateUpdated = t.DateAdded
		}
		items = append(items, newTemplateItem(t))
	}
	return d.Table.BatchPut(ctx, items)
}
