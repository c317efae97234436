package associations

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
)

// A creation that stopped after claiming the key (before writing the id
// item) is completed by the next creation with that key, which still
// answers that the key is taken.
func TestCreateAssociationCompletesAHalfWrittenAssociation(t *testing.T) {
	table := testenv.NewTable(t)
	store := NewGraph(table)
	ctx := context.Background()
	stranded := Association{LocationID: "acct1", ID: "stranded", Key: "pet_owner", FirstObjectLabel: "Pet", FirstObjectKey: "custom_objects.pet",
		SecondObjectLabel: "Owner", SecondObjectKey: "contact", AssociationType: AssociationTypeUserDefined}
	require.NoError(t, table.Put(ctx, store.byKey.Item(storedAssociation{Association: stranded}), nil))
	got, err := store.Association(ctx, "acct1", "stranded")
	require.NoError(t, err)
	require.Nil(t, got, "only the claim was written")

	retry := stranded
	retry.ID = "retry"
	assert.ErrorIs(t, store.CreateAssociation(ctx, retry, "2026-01-01T00:00:00.000Z"), ErrKeyTaken)

	got, err = store.Association(ctx, "acct1", "stranded")
	require.NoError(t, err)
	require.NotNil(t, got, "the stranded association is now found by its id")
	assert.Equal(t, stranded, *got)
	got, err = store.Association(ctx, "acct1", "retry")
	require.NoError(t, err)
	assert.Nil(t, got, "the refused creation stored nothing")
}

func TestSymmetricAssociations(t *testing.T) {
	cases := []struct {
		name                   string
		firstKey, firstLabel   string
		secondKey, secondLabel string
		symmetric              bool
	}{
		{"contacts with the same label are symmetric", "contact", "Sibling", "contact", "Sibling", true},
		{"the label comparison ignores case and spaces", "contact", "Household member ", "contact", "household member", true},
		{"contacts with distinct labels are directed", "contact", "Parent", "contact", "Child", false},
		{"a contact and a custom object are directed even with one label", "contact", "Pet", "custom_objects.pet", "Pet", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := Association{FirstObjectKey: tc.firstKey, FirstObjectLabel: tc.firstLabel, SecondObjectKey: tc.secondKey, SecondObjectLabel: tc.secondLabel}
			assert.Equal(t, tc.symmetric, a.Symmetric())
		})
	}
}
