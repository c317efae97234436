package contactstore

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/storage"
)

// Note is a note on a contact, with the public API's fields.
type Note struct {
	ID        string `dynamodbav:"id" json:"id"`
	ContactID string `dynamodbav:"contactId" json:"contactId"`
	Body      string `dynamodbav:"body" json:"body"`
	UserID    string `dynamodbav:"userId,omitempty" json:"userId,omitempty"`
	Title     string `dynamodbav:"title,omitempty" json:"title,omitempty"`
	Color     string `dynamodbav:"color,omitempty" json:"color,omitempty"`
	Pinned    bool   `dynamodbav:"pinned" json:"pinned"`
	DateAdded string `dynamodbav:"dateAdded" json:"dateAdded"`
}

// noteKey is the key of a note: in the account's partition, under its
// contact, so that one Query reads a contact's notes.
func noteKey(accountID, contactID, noteID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "NOTE#" + contactID + "#" + noteID}
}

// The events of a note's life. Each carries the note as the change's
// answer shows it (a deleted note as it was).
var (
	NoteCreated = events.Type{
		Name: "NoteCreate", Scope: "contacts.readonly", Version: 1,
		Summary: "A note was added to a contact (POST /contacts/{contactId}/notes).",
		Fields:  Note{},
	}
	NoteUpdated = events.Type{
		Name: "NoteUpdate", Scope: "contacts.readonly", Version: 1,
		Summary: "A contact's note was changed (PUT /contacts/{contactId}/notes/{id}).",
		Fields:  Note{},
	}
	NoteDeleted = events.Type{
		Name: "NoteDelete", Scope: "contacts.readonly", Version: 1,
		Summary: "A contact's note was deleted (DELETE /contacts/{contactId}/notes/{id}): the note as it was.",
		Fields:  Note{},
	}
)

func (n Note) listOrder() string { return n.DateAdded + "#" + n.ID }

func (s *Contacts) notes() children[Note] { return children[Note]{table: s.table, key: noteKey} }

// ListNotes returns the notes of the account's contact, in the order they
// were added; ErrContactNotFound when the account has no such contact.
func (s *Contacts) ListNotes(ctx context.Context, accountID, contactID string) ([]Note, error) {
	return s.notes().list(ctx, accountID, contactID)
}

// GetNote returns a note of the account's contact, or nil.
func (s *Contacts) GetNote(ctx context.Context, accountID, contactID, noteID string) (*Note, error) {
	return s.notes().get(ctx, accountID, contactID, noteID)
}

// CreateNote adds n to the account's contact under a new id, with its
// NoteCreate event, and returns it as stored; ErrContactNotFound, writing
// nothing, when the account has no such contact.
func (s *Contacts) CreateNote(ctx context.Context, accountID, contactID string, n Note, now time.Time) (Note, error) {
	n.ID, n.ContactID, n.DateAdded = ids.Alnum20(), contactID, clock.Timestamp(now)
	return n, s.notes().create(ctx, accountID, contactID, n.ID, n, NoteCreated, now)
}

// UpdateNote applies apply (the request's changes) to the stored note and
// writes it with its NoteUpdate event, or writes nothing when it changes
// nothing. It returns the note as it is, or nil when there is no such note.
func (s *Contacts) UpdateNote(ctx context.Context, accountID, contactID, noteID string, apply func(*Note), now time.Time) (*Note, error) {
	return s.notes().update(ctx, accountID, contactID, noteID, func(n *Note) events.Type {
		apply(n)
		return NoteUpdated
	}, now)
}

// DeleteNote deletes a note of the account's contact with its NoteDelete
// event; false, writing nothing, when there is no such note (or a
// concurrent delete took it first).
func (s *Contacts) DeleteNote(ctx context.Context, accountID, contactID, noteID string, now time.Time) (bool, error) {
	return s.notes().remove(ctx, accountID, contactID, noteID, NoteDeleted, now)
}
