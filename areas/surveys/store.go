package surveys

import "github.com/bizplatform/api/shared/storage"

// Survey is a survey or a survey folder as the list shows it.
type Survey struct {
	ID         string `dynamodbav:"id" json:"id"`
	Name       string `dynamodbav:"name" json:"name"`
	LocationID string `dynamodbav:"locationId" json:"locationId"`
	// Type tells a survey from a folder of surveys (see Types).
	Type string `dynamodbav:"type" json:"type"`
}

// Survey types: the list's type filter takes one of them.
const (
	TypeFolder = "folder"
	TypeSurvey = "survey"
)

// Types are the values of Survey.Type.
var Types = []string{TypeFolder, TypeSurvey}

// Catalog is the accounts' surveys and folders. They are stored by id in
// their account's partition; the list reads them in that (sort key) order.
// An account holds at most a few hundred, and the list answers how many
// match the filter in total, so it reads them all: skipping records in
// DynamoDB costs the same reads as returning them.
type Catalog = storage.AccountItems[Survey]

// NewCatalog returns the surveys on table.
func NewCatalog(table *storage.Table) *Catalog {
	// Read eventually: no operation writes surveys (a seed loads them).
	return storage.NewAccountItems(table, "SURVEY#", func(s Survey) (string, string) { return s.LocationID, s.ID }).ReadEventually()
}
