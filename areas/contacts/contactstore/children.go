package contactstore

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// A contact's tasks and notes are its children: each one item in the
// account's partition under <kind>#<contactId>#<id> (taskKey, noteKey), so
// that one Query reads a contact's children of a kind and another
// account's are never found. What the two kinds share is here; tasks.go
// and notes.go hold what differs (fields, events).

// AttrChildRev is the contact item's count of children created. A create
// adds 1 to it in its own transaction, on condition that the contact item
// exists, so a child is never written for a missing contact; deleting a
// contact conditions on the count it read, so a child created meanwhile
// makes the delete start again rather than leave the child behind.
const AttrChildRev = "childRev"

// ErrContactNotFound is a child's create, or a list, naming a contact the
// account does not have.
var ErrContactNotFound = errors.New("contactstore: no such contact")

// child is a record a contact owns: a Task or a Note.
type child interface {
	comparable
	// listOrder sorts a contact's children of a kind: the order they were
	// added in, ids breaking ties.
	listOrder() string
}

// children are the records of one kind a contact owns. key builds a
// child's key, the one place each kind builds them; with an empty id it is
// the sort key prefix of a contact's children of the kind.
type children[T child] struct {
	table *storage.Table
	key   func(accountID, contactID, id string) storage.Key
}

// ofContact is the sort key prefix of a contact's children of this kind
// (what deleting a contact reads them by).
func (c children[T]) ofContact(contactID string) string { return c.key("", contactID, "").SK }

// list returns a contact's children in the order they were added, or
// ErrContactNotFound when the account has no such contact. The Query is
// strongly consistent: a client that has just added a task lists it. Only
// an empty answer costs a second read, of the contact, to tell "none"
// from "no such contact" (children exist only while their contact does).
func (c children[T]) list(ctx context.Context, accountID, contactID string) ([]T, error) {
	got, err := storage.QueryPartition[T](ctx, c.table, storage.AccountPK(accountID), c.ofContact(contactID))
	if err != nil {
		return nil, err
	}
	if len(got) == 0 {
		found, err := c.contactExists(ctx, accountID, contactID)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, ErrContactNotFound
		}
	}
	slices.SortFunc(got, func(a, b T) int { return cmp.Compare(a.listOrder(), b.listOrder()) })
	return got, nil
}

// contactExists reads whether the account has the contact (strongly
// consistent: a contact created a moment ago exists).
func (c children[T]) contactExists(ctx context.Context, accountID, contactID string) (bool, error) {
	type idOnly struct {
		ID string `dynamodbav:"id"`
	}
	item, err := storage.Get[idOnly](ctx, c.table, contactKey(accountID, contactID))
	return item != nil, err
}

// get returns a child, or nil when the contact has none with that id.
func (c children[T]) get(ctx context.Context, accountID, contactID, id string) (*T, error) {
	return storage.Get[T](ctx, c.table, c.key(accountID, contactID, id))
}

// create writes a new child with the event of its creation and adds 1 to
// the contact's AttrChildRev, in one transaction on condition that the
// contact exists (ErrContactNotFound otherwise, writing nothing).
func (c children[T]) create(ctx context.Context, accountID, contactID, id string, record T, created events.Type, now time.Time) error {
	exists := expression.AttributeExists(expression.Name(storage.AttrPK))
	tx := c.table.Tx().
		Update(contactKey(accountID, contactID), expression.Add(expression.Name(AttrChildRev), expression.Value(1)), &exists).Else(ErrContactNotFound).
		Put(storage.Keyed{Key: c.key(accountID, contactID, id), Record: record}, storage.ItemAbsent())
	created.Add(tx, events.Owner{LocationID: accountID}, record, now)
	return tx.Commit(ctx)
}

// update changes a child by optimistic locking (storage.UpdateVersioned),
// so that concurrent updates of one child apply one after the other and
// lose no field. change applies the request to the child as stored and
// names the event of the change: none when the child is as it was
// (nothing is written then). It returns nil, nil when there is no such
// child.
func (c children[T]) update(ctx context.Context, accountID, contactID, id string, change func(*T) events.Type, now time.Time) (*T, error) {
	var event events.Type // the event of the cycle that writes
	return storage.UpdateVersioned(ctx, c.table, c.key(accountID, contactID, id), func(rec *T) error {
		before := *rec
		event = change(rec)
		if *rec == before {
			return storage.ErrNoChange
		}
		return nil
	}, storage.Alongside(func(tx *storage.Tx, changed *T) {
		event.Add(tx, events.Owner{LocationID: accountID}, *changed, now)
	}))
}

// remove deletes a child with the event of its deletion, showing the child
// as it was, in one transaction; false, writing nothing, when there is no
// such child (or a concurrent delete took it first).
func (c children[T]) remove(ctx context.Context, accountID, contactID, id string, deleted events.Type, now time.Time) (bool, error) {
	return storage.DeleteAlong(ctx, c.table, c.key(accountID, contactID, id), func(tx *storage.Tx, old T) {
		deleted.Add(tx, events.Owner{LocationID: accountID}, old, now)
	})
}
