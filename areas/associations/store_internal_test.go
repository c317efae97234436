package associations

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

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
