package customfields

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the custom-fields part of a demo dataset.
type SeedData struct {
	CustomFields []Field `json:"customFields"`
}

// seed writes the fields at version 1, dateAdded left out being now and
// dateUpdated left out being dateAdded.
func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	now := clock.Timestamp(d.Clock.Now())
	err := app.CheckRecords("customFields", data.CustomFields, func(f *Field) (string, string) { return f.LocationID, f.ID }, func(f *Field) error {
		var v validate.Errors
		v.Time("dateAdded", &f.DateAdded, now)
		v.Time("dateUpdated", &f.DateUpdated, f.DateAdded)
		if err := v.Err(); err != nil {
			return err
		}
		return checkSeedField(*f)
	})
	if err != nil {
		return err
	}
	records := make([]fieldRecord, len(data.CustomFields))
	for i, f := range data.CustomFields {
		records[i] = fieldRecord{Version: 1, Field: f}
	}
	return NewFields(d.Table).records.Seed(ctx, records, nil)
}

// checkSeedField holds demo data to what the API itself would produce, so
// the demo never shows a field an update could not have left behind.
func checkSeedField(f Field) error {
	for _, id := range [][2]string{{"id", f.ID}, {"locationId", f.LocationID}, {"parentId", f.ParentID}} {
		if msg := validate.IDProblem(id[0], id[1]); msg != "" {
			return fmt.Errorf("%s", msg)
		}
	}
	switch {
	case strings.TrimSpace(f.Name) == "":
		return fmt.Errorf("name is required")
	case !slices.Contains(DataTypes, f.DataType):
		return fmt.Errorf("dataType %q is not one of %s", f.DataType, strings.Join(DataTypes, ", "))
	case f.ObjectKey == "":
		return fmt.Errorf("objectKey is required")
	case !strings.HasPrefix(f.FieldKey, fieldKeyPrefix(f.ObjectKey)) || len(f.FieldKey) == len(fieldKeyPrefix(f.ObjectKey)):
		return fmt.Errorf("fieldKey %q must be %s<field_name>", f.FieldKey, fieldKeyPrefix(f.ObjectKey))
	case len(f.Options) > 0 && !hasOptions(f.DataType):
		return fmt.Errorf("options on a %s field", f.DataType)
	case f.DataType != TypeFileUpload && (f.AcceptedFormats != "" || f.MaxFileLimit != 0):
		return fmt.Errorf("acceptedFormats or maxFileLimit on a %s field", f.DataType)
	case f.AcceptedFormats != "" && !slices.Contains(AcceptedFormats, f.AcceptedFormats):
		return fmt.Errorf("acceptedFormats %q is not one of %s", f.AcceptedFormats, strings.Join(AcceptedFormats, ", "))
	case f.MaxFileLimit < 0 || f.MaxFileLimit > MaxFileLimit:
		return fmt.Errorf("maxFileLimit must be from 1 to %d", MaxFileLimit)
	case f.AllowCustomOption != nil && f.DataType != TypeRadio:
		return fmt.Errorf("allowCustomOption on a %s field", f.DataType)
	}
	keys, labels := map[string]bool{}, map[string]bool{}
	for i, o := range f.Options {
		switch {
		case o.Key == "" || keys[o.Key]:
			return fmt.Errorf("options[%d].key must be present and unique", i)
		case o.Label == "" || o.Label != strings.TrimSpace(o.Label) || labels[o.Label]:
			return fmt.Errorf("options[%d].label must be present, trimmed and unique", i)
		case o.URL != "" && f.DataType != TypeRadio:
			return fmt.Errorf("options[%d].url on a %s field (only RADIO options have URLs)", i, f.DataType)
		case o.URL != "" && validate.OutsideURLProblem(o.URL) != "":
			return fmt.Errorf("options[%d].url %s: %s", i, validate.OutsideURLRule, validate.OutsideURLProblem(o.URL))
		}
		keys[o.Key], labels[o.Label] = true, true
	}
	return nil
}

// fieldKeyPrefix is how the field keys of an object begin:
// "custom_object.pet." for the custom object custom_object.pet, "<object>."
// for a standard object.
func fieldKeyPrefix(objectKey string) string { return objectKey + "." }
