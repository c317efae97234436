// Package contactstore stores contacts and their tasks: the one place that
// builds their keys. The contacts area serves them; other areas (associations)
// check through it that a contact exists.
package contactstore

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// Contact is a contact record as the API shows it.
type Contact struct {
	ID           string        `dynamodbav:"id" json:"id"`
	LocationID   string        `dynamodbav:"locationId" json:"locationId"`
	ContactName  string        `dynamodbav:"contactName,omitempty" json:"contactName,omitempty"`
	FirstName    string        `dynamodbav:"firstName,omitempty" json:"firstName,omitempty"`
	LastName     string        `dynamodbav:"lastName,omitempty" json:"lastName,omitempty"`
	Email        string        `dynamodbav:"email,omitempty" json:"email,omitempty"`
	Phone        string        `dynamodbav:"phone,omitempty" json:"phone,omitempty"`
	CompanyName  string        `dynamodbav:"companyName,omitempty" json:"companyName,omitempty"`
	Source       string        `dynamodbav:"source,omitempty" json:"source,omitempty"`
	Country      string        `dynamodbav:"country,omitempty" json:"country,omitempty"`
	Timezone     string        `dynamodbav:"timezone,omitempty" json:"timezone,omitempty"`
	DateAdded    string        `dynamodbav:"dateAdded" json:"dateAdded"`
	Tags         []string      `dynamodbav:"tags" json:"tags"`
	CustomFields []CustomValue `dynamodbav:"customFields" json:"customFields"`
	BusinessID   string        `dynamodbav:"businessId,omitempty" json:"businessId,omitempty"`
	Followers    []string      `dynamodbav:"followers" json:"followers"`
}

// CustomValue is a contact's value of a custom field.
type CustomValue struct {
	ID    string `dynamodbav:"id" json:"id"`
	Value string `dynamodbav:"value" json:"value"`
}

// Task is a task attached to a contact.
type Task struct {
	ID         string `dynamodbav:"id" json:"id"`
	ContactID  string `dynamodbav:"contactId" json:"contactId"`
	Title      string `dynamodbav:"title" json:"title"`
	Body       string `dynamodbav:"body,omitempty" json:"body,omitempty"`
	DueDate    string `dynamodbav:"dueDate,omitempty" json:"dueDate,omitempty"`
	Completed  bool   `dynamodbav:"completed" json:"completed"`
	AssignedTo string `dynamodbav:"assignedTo,omitempty" json:"assignedTo,omitempty"`
	DateAdded  string `dynamodbav:"dateAdded,omitempty" json:"dateAdded,omitempty"`
}

// Contacts are stored by id in their account's partition, and indexed on
// GSI1 by (date added, id): the order the list serves, which new contacts
// only ever extend, so a cursor walk never skips or repeats one.
func contactKey(accountID, id string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "CONTACT#" + id}
}

func listPK(accountID string) string { return "CONTACTS#" + accountID }

// OrderKey is the list-order key (GSI1 sort key) of a contact added at
// addedMs: what a cursor is made of.
func OrderKey(addedMs int64, id string) string { return fmt.Sprintf("%013d#%s", addedMs, id) }

// AfterAllIDs sorts after every id (ids are [A-Za-z0-9_-]), so
// OrderKey(ms, AfterAllIDs) is past every contact added at ms.
const AfterAllIDs = "~"

func taskKey(accountID, contactID, taskID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: taskPrefix + contactID + "#" + taskID}
}

// A contact's children, its tasks and notes, are items of its account's
// partition under these prefixes, then the contact's id and '#': a
// contact's children are one key range per kind.
const (
	taskPrefix = "TASK#"
	notePrefix = "NOTE#"
)

// childPrefixes are the sort-key prefixes of a contact's children.
func childPrefixes(contactID string) []string {
	return []string{taskPrefix + contactID + "#", notePrefix + contactID + "#"}
}

type contactItem struct {
	storage.Key
	GSI1PK string `dynamodbav:"GSI1PK"`
	GSI1SK string `dynamodbav:"GSI1SK"`
	// Rev counts the item's writes. Every write of a contact is conditional
	// on the revision it read, so that of two writers of one contact only
	// one changes the index (the other starts again from what it found).
	Rev int `dynamodbav:"rev"`
	// ChildRev counts the creations of the contact's children (tasks,
	// notes): each adds 1 in its own transaction, on condition that the
	// contact exists. A contact's writes are conditional on it too, so that
	// a delete that read the children at one ChildRev deletes the contact
	// only if no child was created since, and no write puts back a ChildRev
	// it read before a creation.
	ChildRev int `dynamodbav:"childRev,omitempty"`
	indexRecord
	firstIndex
	Record
}

// indexRecord is what a contact item says of the contact's index items
// (index.go). Between writes it is one small number: the items are those
// the content gives.
type indexRecord struct {
	// Version is the indexVersion the contact is counted under (0: not
	// counted: written before the index, or being deleted).
	Version int `dynamodbav:"ixv,omitempty"`
	// Partial is set while a write spread over several transactions is
	// under way: the contact's index items are then Items (refs), not
	// those of its content.
	Partial bool     `dynamodbav:"ixPartial,omitempty"`
	Items   []string `dynamodbav:"ixItems,omitempty"`
	// ItemsVersion is the index version Items name items of (a record
	// left by version 2 has none).
	ItemsVersion int `dynamodbav:"ixItemsV,omitempty"`
}

// listedContact is what a page needs of a contact item: the contact and its
// place in the list order.
type listedContact struct {
	GSI1SK string `dynamodbav:"GSI1SK"`
	Contact
}

type taskItem struct {
	storage.Key
	Task
}

// newContactItem is the stored item of a contact added at addedMs, indexed.
func newContactItem(r Record, addedMs int64) contactItem {
	return contactItem{
		Key:         contactKey(r.LocationID, r.ID),
		GSI1PK:      listPK(r.LocationID),
		GSI1SK:      OrderKey(addedMs, r.ID),
		indexRecord: indexRecord{Version: indexVersion},
		Record:      r,
	}
}

// Contacts reads and writes contacts and tasks.
type Contacts struct {
	table *storage.Table
}

// NewContacts returns the contacts on table.
func NewContacts(table *storage.Table) *Contacts { return &Contacts{table: table} }

// Get returns the account's contact, or nil when it has none with that id.
// Other areas use it to check that a contact exists.
func (s *Contacts) Get(ctx context.Context, accountID, id string) (*Contact, error) {
	item, err := storage.Get[contactItem](ctx, s.table, contactKey(accountID, id))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Contact, nil
}

// OrderKeyOf returns the list-order key of an existing contact.
func (s *Contacts) OrderKeyOf(ctx context.Context, accountID, id string) (string, bool, error) {
	item, err := storage.Get[contactItem](ctx, s.table, contactKey(accountID, id))
	if err != nil || item == nil {
		return "", false, err
	}
	return item.GSI1SK, true, nil
}

// Total returns the account's number of contacts, kept by the account's
// counter of the search index (index.go), and false when the account is
// not yet ready (not every contact is indexed: the list counts). The read
// is eventually consistent: the page it goes with is read from the list
// index, which is too.
func (s *Contacts) Total(ctx context.Context, accountID string) (int, bool, error) {
	item, err := storage.Get[counterItem](ctx, s.table, accountCounterKey(accountID), storage.Eventually)
	if err != nil || item == nil || !item.Ready {
		return 0, false, err
	}
	return item.Count, true, nil
}

// Page asks for up to Limit contacts of an account after the cursor After
// (an order key; "" starts at the beginning).
type Page struct {
	AccountID string
	After     string
	Limit     int
}

// Entry is a listed contact and its place in the list order.
type Entry struct {
	Contact  Contact
	OrderKey string
}

// AddedMs is the time in the entry's order key (epoch milliseconds).
func (e Entry) AddedMs() int64 {
	ms, _ := strconv.ParseInt(e.OrderKey[:13], 10, 64)
	return ms
}

// PageResult is one page and whether more matching contacts follow it.
type PageResult struct {
	Entries []Entry
	More    bool
}

// ListPage reads one page of the list order.
func (s *Contacts) ListPage(ctx context.Context, p Page) (PageResult, error) {
	// One more than the page, to learn whether another page follows.
	items, _, err := storage.QueryPage[listedContact](ctx, s.table, listQuery(p.AccountID, p.After, false), int32(p.Limit+1), nil)
	if err != nil {
		return PageResult{}, err
	}
	var res PageResult
	for _, it := range items {
		if len(res.Entries) == p.Limit {
			res.More = true
			break
		}
		res.Entries = append(res.Entries, Entry{Contact: it.Contact, OrderKey: it.GSI1SK})
	}
	return res, nil
}

// Count returns how many contacts the account has, in the whole list (upTo
// "") or up to and including the order key upTo.
func (s *Contacts) Count(ctx context.Context, accountID, upTo string) (int, error) {
	return storage.QueryCount(ctx, s.table, listQuery(accountID, upTo, true))
}

// listQuery is the query of the account's list order (the list index, read
// eventually consistent) past bound (upTo false: a cursor) or up to and
// including it (upTo true: counting what precedes a cursor).
func listQuery(accountID, bound string, upTo bool) storage.Query {
	return storage.Query{Index: storage.IndexGSI1, Key: rangeKey(storage.AttrGSI1PK, storage.AttrGSI1SK, listPK(accountID), bound, upTo)}
}

// rangeKey is the key condition "partition pk (the attribute pkName,
// sorted by skName) after bound", or with upTo "up to and including it";
// an empty bound bounds nothing.
func rangeKey(pkName, skName, pk, bound string, upTo bool) expression.KeyConditionBuilder {
	keyCond := expression.Key(pkName).Equal(expression.Value(pk))
	switch {
	case bound == "":
	case upTo:
		keyCond = keyCond.And(expression.Key(skName).LessThanEqual(expression.Value(bound)))
	default:
		keyCond = keyCond.And(expression.Key(skName).GreaterThan(expression.Value(bound)))
	}
	return keyCond
}

// walkPage is the page of a walk through all of an account's contacts:
// small enough that each call stays short on a loaded engine.
const walkPage = 500

// listPages reads the account's contacts in list order (from the list
// index, eventually consistent): what a search reads until the account is
// indexed.
func (s *Contacts) listPages(accountID string) (*storage.Pages[listedContact], error) {
	return storage.NewPages[listedContact](s.table, listQuery(accountID, "", false), walkPage)
}

// eachStored calls fn with each page of the account's contact items, read
// by id with strongly consistent reads: for indexing and counting them,
// where a contact written a moment ago must be seen as it is. Only the
// writers (Load, Reindex) call it: the API's reads walk Pages with Next,
// which keeps the least-privilege check (internal/deploytest), which
// follows a callback into every function any caller passes, from
// reaching fn's writes.
func (s *Contacts) eachStored(ctx context.Context, accountID string, fn func([]contactItem) error) error {
	pages, err := storage.NewPages[contactItem](s.table, storage.Query{Key: storage.PartitionPrefix(storage.AccountPK(accountID), contactKey(accountID, "").SK)}, walkPage)
	if err != nil {
		return err
	}
	for {
		items, ok, err := pages.Next(ctx)
		if err != nil || !ok {
			return err
		}
		if err := fn(items); err != nil {
			return err
		}
	}
}

// TaskDeleted is the event of a deleted task: the task as it was.
var TaskDeleted = events.Type{
	Name: "TaskDelete", Scope: "contacts.readonly", Version: 1,
	Summary: "A contact's task was deleted (DELETE /contacts/{contactId}/tasks/{taskId}).",
	Fields:  Task{},
}

// DeleteTask deletes a task of the account's contact, with its TaskDelete
// event, in one transaction; it reports false, writing nothing, when there
// is no such task (or a concurrent delete took it first).
func (s *Contacts) DeleteTask(ctx context.Context, accountID, contactID, taskID string, now time.Time) (bool, error) {
	return storage.DeleteAlong(ctx, s.table, taskKey(accountID, contactID, taskID), func(tx *storage.Tx, old taskItem) {
		TaskDeleted.Add(tx, events.Owner{LocationID: accountID}, old.Task, now)
	})
}

// GetTask returns a task, or nil.
func (s *Contacts) GetTask(ctx context.Context, accountID, contactID, taskID string) (*Task, error) {
	item, err := storage.Get[taskItem](ctx, s.table, taskKey(accountID, contactID, taskID))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Task, nil
}
