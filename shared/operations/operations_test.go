package operations

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEveryOperationIsListedOnceInAKnownAreaAndEveryAreaServesOne(t *testing.T) {
	seen := map[string]bool{}
	for _, op := range All {
		assert.False(t, seen[op.ID()], "%s listed twice", op.ID())
		seen[op.ID()] = true
		assert.Contains(t, Areas, op.Area)
		assert.Contains(t, []int{400, 422}, op.ValidationStatus)
	}
	for _, a := range Areas {
		assert.NotEmpty(t, OfArea(a), "area %s serves something", a)
	}
}

func TestPathsWithATrailingSlashAreAlsoServedWithoutIt(t *testing.T) {
	assert.Equal(t, []string{"GET /contacts/{$}", "GET /contacts"}, ListContacts.Patterns())
	assert.Equal(t, []string{"/contacts/", "/contacts"}, ListContacts.Paths())
	assert.Equal(t, []string{"POST /associations/relations"}, CreateRelation.Patterns())
	assert.True(t, CreateWhitelabelProvider.MarketplaceOnly)
}

func TestOnlyTheOperationsTheSpecGivesABodyTakeOne(t *testing.T) {
	bodiless := []Operation{ListContacts, DeleteTask, GetMessage, ListMediaFiles, ListSurveys, ListCampaigns, SearchAdsReportingList}
	for _, op := range All {
		assert.Equal(t, !slices.Contains(bodiless, op), op.TakesBody(), op.ID())
	}
	assert.True(t, DeleteCoupon.TakesBody(), "a delete that names its record in the body")
}
