package contactstore

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

var childTime = time.Date(2026, 11, 28, 9, 30, 0, 0, time.UTC)

// childRevOf reads the contact item's count of children created.
func childRevOf(t *testing.T, s *Contacts, contactID string) int {
	t.Helper()
	item, err := storage.Get[struct {
		ChildRev int `dynamodbav:"childRev"`
	}](bg, s.table, contactKey(acct, contactID))
	require.NoError(t, err)
	require.NotNil(t, item, "the contact exists")
	return item.ChildRev
}

func newChildStore(t *testing.T, contactIDs ...string) *Contacts {
	t.Helper()
	s := NewContacts(testenv.NewTable(t))
	for i, id := range contactIDs {
		require.NoError(t, s.Put(bg, person(id, "Ann", "Lee"), int64(i)))
	}
	return s
}

func TestAChildIsWrittenOnlyUnderAContactThatExists(t *testing.T) {
	s := newChildStore(t, "c0001")
	_, err := s.CreateTask(bg, acct, "c0404", Task{Title: "Call", DueDate: "2026-12-01T09:00:00.000Z"}, childTime)
	assert.ErrorIs(t, err, ErrContactNotFound)
	_, err = s.CreateNote(bg, acct, "c0404", Note{Body: "Hello"}, childTime)
	assert.ErrorIs(t, err, ErrContactNotFound)
	_, err = s.CreateNote(bg, "acctOther", "c0001", Note{Body: "Hello"}, childTime)
	assert.ErrorIs(t, err, ErrContactNotFound, "another account's contact is not found either")

	for _, prefix := range []string{s.tasks().ofContact("c0404"), s.notes().ofContact("c0404")} {
		left, err := storage.QueryPartition[map[string]any](bg, s.table, storage.AccountPK(acct), prefix)
		require.NoError(t, err)
		assert.Empty(t, left, "nothing under %s", prefix)
	}
	evs := testenv.Events(t, s.table, events.Owner{LocationID: acct})
	assert.Empty(t, evs, "no event for a refused create")
	_, err = s.ListTasks(bg, acct, "c0404")
	assert.ErrorIs(t, err, ErrContactNotFound, "a missing contact's list is not an empty one")
	tasks, err := s.ListTasks(bg, acct, "c0001")
	require.NoError(t, err)
	assert.Empty(t, tasks, "a contact without tasks lists none")
}

// Deleting a contact (part of the contacts area's delete) conditions on the
// count of children it read: every create moves it, concurrent creates
// included, so a delete that read the count before a child was created
// fails instead of leaving the child behind.
func TestEveryChildCreatedMovesTheContactsCount(t *testing.T) {
	s := newChildStore(t, "c0001")
	require.Zero(t, childRevOf(t, s, "c0001"), "a new contact has created no child")
	const creates = 8
	var wg sync.WaitGroup
	for i := range creates {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				_, err = s.CreateTask(bg, acct, "c0001", Task{Title: fmt.Sprintf("Task %d", i), DueDate: "2026-12-01T09:00:00.000Z"}, childTime)
			} else {
				_, err = s.CreateNote(bg, acct, "c0001", Note{Body: fmt.Sprintf("Note %d", i)}, childTime)
			}
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	assert.Equal(t, creates, childRevOf(t, s, "c0001"), "one count per child created")
	tasks, err := s.ListTasks(bg, acct, "c0001")
	require.NoError(t, err)
	notes, err := s.ListNotes(bg, acct, "c0001")
	require.NoError(t, err)
	assert.Len(t, tasks, creates/2)
	assert.Len(t, notes, creates/2)
	evs := testenv.Events(t, s.table, events.Owner{LocationID: acct})
	assert.Len(t, evs, creates, "one event per child")

	t.Run("a delete conditioned on the count read before a create fails", func(t *testing.T) {
		read := childRevOf(t, s, "c0001")
		_, err := s.CreateTask(bg, acct, "c0001", Task{Title: "Late", DueDate: "2026-12-01T09:00:00.000Z"}, childTime)
		require.NoError(t, err)
		cond := expression.Name(AttrChildRev).Equal(expression.Value(read))
		err = s.table.Tx().Delete(contactKey(acct, "c0001"), &cond).Commit(bg)
		assert.True(t, storage.IsConditionFailed(err), "the delete sees the child created meanwhile: %v", err)
	})
}

func TestAContactsChildrenListInTheOrderTheyWereAdded(t *testing.T) {
	s := newChildStore(t, "c0001", "c0002")
	var want []string
	for i := range 5 {
		// Ids are random: the order must come from the time added.
		n, err := s.CreateNote(bg, acct, "c0001", Note{Body: strings.Repeat("x", i+1)}, childTime.Add(time.Duration(i)*time.Minute))
		require.NoError(t, err)
		want = append(want, n.ID)
	}
	_, err := s.CreateNote(bg, acct, "c0002", Note{Body: "another contact's"}, childTime)
	require.NoError(t, err)
	notes, err := s.ListNotes(bg, acct, "c0001")
	require.NoError(t, err)
	var got []string
	for _, n := range notes {
		got = append(got, n.ID)
		assert.Equal(t, "c0001", n.ContactID)
	}
	assert.Equal(t, want, got)
}
