package customfields

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A retry re-applies the request to a field another update changed. These
// cases pin what a retry sees, which the concurrent HTTP test reaches only
// by chance.
func TestApplyOnARetryKeepsWhatAnotherUpdateAdded(t *testing.T) {
	field := func(labels ...string) Field {
		f := Field{ID: "f", LocationID: "a", ObjectKey: "custom_object.pet", DataType: TypeSingleOptions}
		for _, l := range labels {
			f.Options = append(f.Options, Option{Key: "k_" + l, Label: l})
		}
		return f
	}
	req := func(labels ...string) change {
		c := change{showInForms: true, options: []optionChange{}}
		for _, l := range labels {
			c.options = append(c.options, optionChange{label: l})
		}
		return c
	}
	unseen := map[string]bool{"Cat": true}

	t.Run("an unseen option is kept after the request's options", func(t *testing.T) {
		got, problems := apply(field("Dog", "Cat"), unseen, req("Dog", "Bird"), "now")
		require.Empty(t, problems)
		assert.Equal(t, []Option{{Key: "k_Dog", Label: "Dog"}, {Key: "bird", Label: "Bird"}, {Key: "k_Cat", Label: "Cat"}}, got.Options)
	})
	t.Run("an option both updates add is stored once with the first key", func(t *testing.T) {
		got, problems := apply(field("Dog", "Cat"), unseen, req("Dog", "Cat"), "now")
		require.Empty(t, problems)
		assert.Equal(t, []Option{{Key: "k_Dog", Label: "Dog"}, {Key: "k_Cat", Label: "Cat"}}, got.Options)
	})
	t.Run("a new key avoids the key another update took", func(t *testing.T) {
		cur := field("Dog")
		cur.Options = append(cur.Options, Option{Key: "bird", Label: "bird?"})
		got, problems := apply(cur, map[string]bool{"bird?": true}, req("Dog", "Bird"), "now")
		require.Empty(t, problems)
		assert.Equal(t, "bird_2", got.Options[1].Key)
	})
	t.Run("a seen option left out is still a removal", func(t *testing.T) {
		_, problems := apply(field("Dog", "Cat"), unseen, req("Bird"), "now")
		require.Len(t, problems, 1)
		assert.Contains(t, problems[0], `missing: "Dog"`)
	})
	t.Run("the options added meanwhile count toward the limit", func(t *testing.T) {
		cur := field("Dog")
		labels := []string{"Dog"}
		for i := 0; i < maxOptions-1; i++ {
			l := string(rune('a'+i%26)) + string(rune('A'+i/26))
			labels = append(labels, l)
		}
		cur.Options = append(cur.Options, Option{Key: "late", Label: "Late"})
		_, problems := apply(cur, map[string]bool{"Late": true}, req(labels...), "now")
		require.Len(t, problems, 1)
		assert.Contains(t, problems[0], "options must hold at most 300 options")
	})
}

func TestUnseenLabelsAreThoseAddedSinceTheFirstReadOrWithinTheWindow(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	item := fieldRecord{
		RecentOptions: map[string]int64{
			"fresh": now.Add(-recentWindow).UnixMilli(),
			"stale": now.Add(-recentWindow - time.Millisecond).UnixMilli(),
		},
		Field: Field{Options: []Option{
			{Key: "old", Label: "Old"}, {Key: "fresh", Label: "Fresh"}, {Key: "stale", Label: "Stale"}, {Key: "late", Label: "Late"},
		}},
	}
	first := map[string]bool{"Old": true, "Fresh": true, "Stale": true}
	assert.Equal(t, map[string]bool{"Fresh": true, "Late": true}, unseenLabels(item, first, now))

	next := item.Field
	next.Options = append(next.Options, Option{Key: "new", Label: "New"})
	assert.Equal(t, map[string]int64{"fresh": item.RecentOptions["fresh"], "new": now.UnixMilli()},
		nextRecent(item.RecentOptions, item.Field, next, now), "new options are recorded and stale entries dropped")
}
