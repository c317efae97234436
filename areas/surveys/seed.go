package surveys

import (
	"context"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// SeedData is the surveys part of a demo dataset.
type SeedData struct {
	Surveys []Survey `json:"surveys"`
}

func seed(ctx context.Context, d wiring.Deps, data SeedData) error {
	err := app.CheckRecords("surveys", data.Surveys, func(s *Survey) (string, string) { return s.LocationID, s.ID }, checkSeedSurvey)
	if err != nil {
		return err
	}
	return NewCatalog(d.Table).Seed(ctx, data.Surveys, nil)
}

// checkSeedSurvey holds a demo survey to what the list could serve; a
// record without a type is a survey (not a folder).
func checkSeedSurvey(s *Survey) error {
	if s.Type == "" {
		s.Type = TypeSurvey
	}
	var v validate.Errors
	validate.NamedRecord(&v, s.ID, s.LocationID, s.Name)
	v.OneOf("type", s.Type, Types...)
	return v.Err()
}
