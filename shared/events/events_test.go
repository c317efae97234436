package events_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

type note struct {
	ID         string `json:"id"`
	LocationID string `json:"locationId"`
	Text       string `json:"text"`
}

var (
	noteCreated = events.Type{Name: "NoteCreate", Scope: "notes.readonly", Version: 1, Summary: "A note.", Fields: note{}}
	noteDeleted = events.Type{Name: "NoteDelete", Scope: "notes.readonly", Version: 1, Summary: "A note.", Fields: note{}}
	taskDeleted = events.Type{Name: "TaskDelete", Scope: "tasks.readonly", Version: 2, Summary: "A task.", Fields: note{}}
)

var owner = events.Owner{LocationID: "acct1"}

func TestTheBodyIsOneFlatObjectInTheOrderJavaScriptWritesIt(t *testing.T) {
	at := time.Date(2026, 11, 27, 10, 0, 0, 5e6, time.UTC)
	body, err := events.Body(noteCreated, owner, note{ID: "n1", LocationID: "acct1", Text: "<a & b>"}, "w1", at)
	require.NoError(t, err)
	assert.Equal(t, `{"type":"NoteCreate","locationId":"acct1","id":"n1","text":"<a & b>","webhookId":"w1","timestamp":"2026-11-27T10:00:00.005Z","version":1}`, string(body),
		"no HTML escaping, no newline, the owner said once")

	t.Run("line and paragraph separators are written raw, as JSON.stringify writes them", func(t *testing.T) {
		text := "a\u2028b\u2029c, a backslash then u2028: \\u2028, \"quoted\"\n"
		body, err := events.Body(noteCreated, owner, note{ID: "n1", LocationID: "acct1", Text: text}, "w1", at)
		require.NoError(t, err)
		// JSON.stringify(JSON.parse(body)) in node gives exactly this text.
		want := `{"type":"NoteCreate","locationId":"acct1","id":"n1","text":"a` + "\u2028b\u2029" + `c, a backslash then u2028: \\u2028, \"quoted\"\n","webhookId":"w1","timestamp":"2026-11-27T10:00:00.005Z","version":1}`
		assert.Equal(t, want, string(body))
		var back note
		require.NoError(t, json.Unmarshal(body, &back))
		assert.Equal(t, text, back.Text, "and it reads back as written")
	})
	t.Run("a field that contradicts the envelope is refused", func(t *testing.T) {
		_, err := events.Body(noteCreated, owner, note{ID: "n1", LocationID: "another"}, "w1", at)
		assert.ErrorContains(t, err, "the field locationId is the envelope's")
	})
	t.Run("fields of another type than the event's abort the transaction", func(t *testing.T) {
		table := testenv.NewTable(t)
		tx := table.Tx()
		noteCreated.Add(tx, owner, struct{ ID string }{"x"}, at)
		assert.ErrorContains(t, tx.Commit(context.Background()), "NoteCreate carries")
	})
}

func TestAPageListsTheNewestFirstAndItsCursorResumesAfterIt(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	types := []events.Type{noteCreated, noteDeleted, taskDeleted}
	for i := range 12 {
		at := start.Add(time.Duration(i) * time.Hour)
		tx := table.Tx()
		types[i%3].Add(tx, owner, note{ID: fmt.Sprint("n", i), LocationID: "acct1", Text: fmt.Sprint(i)}, at)
		require.NoError(t, tx.Commit(ctx))
	}
	tx := table.Tx()
	noteCreated.Add(tx, events.Owner{LocationID: "acct2"}, note{ID: "other", LocationID: "acct2"}, start)
	require.NoError(t, tx.Commit(ctx))

	texts := func(page []events.Recorded) []string {
		out := make([]string, len(page))
		for i, e := range page {
			var b note
			require.NoError(t, json.Unmarshal([]byte(e.Body), &b))
			out[i] = b.Text
		}
		return out
	}
	walk := func(f events.Filter, limit int32) ([][]string, error) {
		var pages [][]string
		cursor := ""
		for {
			page, next, err := events.Page(ctx, table, owner, f, limit, cursor)
			if err != nil {
				return nil, err
			}
			pages = append(pages, texts(page))
			if next == "" {
				return pages, nil
			}
			cursor = next
		}
	}
	cases := []struct {
		name   string
		filter events.Filter
		limit  int32
		want   [][]string
	}{
		{"every event of the account, newest first, five a page", events.Filter{}, 5,
			[][]string{{"11", "10", "9", "8", "7"}, {"6", "5", "4", "3", "2"}, {"1", "0"}}},
		{"one type", events.Filter{Types: []string{"TaskDelete"}}, 3, [][]string{{"11", "8", "5"}, {"2"}}},
		{"two types", events.Filter{Types: []string{"NoteCreate", "NoteDelete"}}, 10,
			[][]string{{"10", "9", "7", "6", "4", "3", "1", "0"}}},
		{"a time range, its end excluded", events.Filter{Since: start.Add(3 * time.Hour), Until: start.Add(6 * time.Hour)}, 10,
			[][]string{{"5", "4", "3"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pages, err := walk(tc.filter, tc.limit)
			require.NoError(t, err)
			assert.Equal(t, tc.want, pages)
		})
	}

	t.Run("an event written after a page was read comes before it, not into the next", func(t *testing.T) {
		page, next, err := events.Page(ctx, table, owner, events.Filter{}, 5, "")
		require.NoError(t, err)
		require.Len(t, page, 5)
		tx := table.Tx()
		noteCreated.Add(tx, owner, note{ID: "late", LocationID: "acct1", Text: "late"}, start.Add(24*time.Hour))
		require.NoError(t, tx.Commit(ctx))
		page, _, err = events.Page(ctx, table, owner, events.Filter{}, 5, next)
		require.NoError(t, err)
		assert.Equal(t, []string{"6", "5", "4", "3", "2"}, texts(page))
	})
	t.Run("a cursor it did not make is refused", func(t *testing.T) {
		_, _, err := events.Page(ctx, table, owner, events.Filter{}, 5, "ACCOUNT#x")
		assert.ErrorIs(t, err, events.ErrBadCursor)
	})
	t.Run("each event is kept 30 days", func(t *testing.T) {
		items, err := storage.QueryPartition[map[string]any](ctx, table, owner.PK(), "EVENT#")
		require.NoError(t, err)
		require.NotEmpty(t, items)
		created, err := time.Parse(time.RFC3339, items[0]["createdAt"].(string))
		require.NoError(t, err)
		assert.EqualValues(t, created.Add(events.Lifetime).Unix(), items[0][storage.AttrExpiresAt])
	})
}

func TestAnEventIsReadableWithItsScopeOrItsResourcesWriteScope(t *testing.T) {
	for _, c := range []struct {
		name   string
		scopes []string
		scope  string
		want   bool
	}{
		{"its own scope", []string{"tasks.readonly"}, "tasks.readonly", true},
		{"the write scope of its resource", []string{"notes.write"}, "notes.readonly", true},
		{"a write scope the event names", []string{"payments/coupons.write"}, "payments/coupons.write", true},
		{"another resource's scope", []string{"contacts.readonly"}, "tasks.readonly", false},
		{"a read scope does not read a write-scoped event", []string{"notes.readonly"}, "notes.write", false},
		{"no scope", nil, "tasks.readonly", false},
	} {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, events.Readable(c.scopes, c.scope)) })
	}
}
