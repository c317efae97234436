package scopes

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/operations"
)

func TestTheVocabularyHoldsTheSpecsScopesAndEveryOperationsScope(t *testing.T) {
	for _, s := range []string{"contacts.readonly", "campaigns.write", "reporting/searchAds.readonly", "cms.write", "audit-logs.export"} {
		assert.True(t, Known(s), s)
	}
	for _, op := range operations.All {
		assert.True(t, Known(op.Scope), "%s needs %s", op.ID(), op.Scope)
	}
	for _, s := range []string{"", "contacts.readwrite", "reporting/<search_ads>.readonly", "admin"} {
		assert.False(t, Known(s), s)
	}
	assert.Len(t, All(), len(specScopes)+countNew())
}

func countNew() int {
	n := 0
	for _, s := range OfOperations() {
		found := false
		for _, v := range specScopes {
			found = found || v == s
		}
		if !found {
			n++
		}
	}
	return n
}
