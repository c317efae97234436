package surveys

import (
	"context"

	"github.com/bizplatform/api/shared/storage"
)

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

// Surveys are stored by id in their account's partition; the list reads
// them in that (sort key) order.
func surveyKey(accountID, id string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: surveyPrefix + id}
}

const surveyPrefix = "SURVEY#"

type surveyItem struct {
	storage.Key
	Survey
}

// Catalog reads and writes surveys.
type Catalog struct {
	table *storage.Table
}

// NewCatalog returns the catalog on table.
func NewCatalog(table *storage.Table) *Catalog { return &Catalog{table: table} }

// Get returns the account's survey, or nil when it has none with that id.
func (s *Catalog) Get(ctx context.Context, accountID, id string) (*Survey, error) {
	item, err := storage.Get[surveyItem](ctx, s.table, surveyKey(accountID, id))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Survey, nil
}

// List returns every survey and folder of the account, ordered by id.
// An account holds at most a few hundred, and the list answers how many
// match the filter in total, so it reads them all: skipping records in
// DynamoDB costs the same reads as returning them.
func (s *Catalog) List(ctx context.Context, accountID string) ([]Survey, error) {
	items, err := storage.QueryPartition[surveyItem](ctx, s.table, storage.AccountPK(accountID), surveyPrefix)
	if err != nil {
		return nil, err
	}
	surveys := make([]Survey, len(items))
	for i, it := range items {
		surveys[i] = it.Survey
	}
	return surveys, nil
}
