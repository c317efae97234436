package scopes

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAnUnknownScopesNearestKnownOnesAreItsTyposAndItsResourcesScopes(t *testing.T) {
	cases := []struct {
		name, scope string
		want        []string
	}{
		{"a typo finds the scope it misspells", "contcts.readonly", []string{"contacts.readonly"}},
		{"a wrong access level finds the resource's scopes, fewest edits first", "contacts.readwrite",
			[]string{"contacts.write", "contacts.readonly", "contacts/bulkActions.write"}},
		{"a made-up access level still finds its resource's", "medias.everything", []string{"medias.write", "medias.readonly"}},
		{"a wrong case is one edit", "Contacts.readonly", []string{"contacts.readonly"}},
		{"nothing near, nothing offered", "zzzzzzzzzz", []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Nearest(tc.scope, 3)
			assert.Equal(t, tc.want, got[:min(len(tc.want), len(got))], "%v", got)
			assert.LessOrEqual(t, len(got), 3)
			for _, s := range got {
				assert.True(t, Known(s), s)
			}
			if len(tc.want) == 0 {
				assert.Empty(t, got)
			}
		})
	}
}
