package surveys

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the surveys part of a demo dataset.
type SeedData struct {
	Surveys []Survey `json:"surveys"`
}

func seed(ctx context.Context, d app.Deps, raw json.RawMessage) error {
	var data SeedData
	if err := app.DecodeSeed("surveys", raw, &data); err != nil {
		return err
	}
	items := make([]any, 0, len(data.Surveys))
	for _, s := range data.Surveys {
		if msg := validate.IDProblem("survey id", s.ID) + validate.IDProblem("locationId", s.LocationID); msg != "" {
			return fmt.Errorf("surveys: %s", msg)
		}
		if strings.TrimSpace(s.Name) == "" {
			return fmt.Errorf("surveys: survey %s has no name", s.ID)
		}
		if !slices.Contains(Types, s.Type) {
			return fmt.Errorf("surveys: survey %s: type %q is not one of %v", s.ID, s.Type, Types)
		}
		items = append(items, surveyItem{Key: surveyKey(s.LocationID, s.ID), Survey: s})
	}
	return d.Table.BatchPut(ctx, items)
}
