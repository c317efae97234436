package surveys

import (
	"context"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/validate"
)

// SeedData is the surveys part of a demo dataset.
type SeedData struct {
	Surveys []Survey `json:"surveys"`
}

func seed(ctx context.Context, d app.Deps, data SeedData) error {
	return NewCatalog(d.Table).Seed(ctx, data.Surveys, checkSeedSurvey)
}

// checkSeedSurvey holds a demo survey to what the list could serve.
func checkSeedSurvey(s *Survey) error {
	var v validate.Errors
	validate.NamedRecord(&v, "survey", s.ID, s.LocationID, s.Name)
	v.OneOf("type", s.Type, Types...)
	return v.Err()
}
