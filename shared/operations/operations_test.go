package operations

import (
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
	for _, op := range All {
		switch {
		case op.Method == "GET":
			assert.False(t, op.TakesBody(), "%s: reads never take a body", op.ID())
		case op.ID() == DeleteTask.ID():
			assert.False(t, op.TakesBody(), "%s: the task to delete is named by its path", op.ID())
		default:
			assert.True(t, op.TakesBody(), "%s: writes carry their values in a body", op.ID())
		}
	}
	for _, op := range []Operation{ListContacts, DeleteTask, GetMessage, ListMediaFiles, ListSurveys, ListCampaigns, SearchAdsReportingList} {
		assert.False(t, op.TakesBody(), "the contract gives %s no body", op.ID())
	}
	for _, op := range []Operation{DeleteCoupon, DeleteSocialAdsIntegration} {
		assert.True(t, op.TakesBody(), "%s: a delete that names its record in the body", op.ID())
	}
}
