// Package contactstore stores contacts and their tasks: the one place that
// builds their keys. The contacts area serves them; other areas (associations)
// check through it that a contact exists.
package contactstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
	return storage.Key{PK: storage.AccountPK(accountID), SK: "TASK#" + contactID + "#" + taskID}
}

type contactItem struct {
	storage.Key
	GSI1PK string `dynamodbav:"GSI1PK"`
	GSI1SK string `dynamodbav:"GSI1SK"`
	// Rev counts the item's writes. Every write of a contact is conditional
	// on the revision it read, so that of two writers of one contact only
	// one changes its index items and counters (the other reads again).
	Rev int `dynamodbav:"rev"`
	contactIndex
	Contact
}

// contactIndex records on a contact item what the search index holds for
// it (index.go), so that a write or a delete changes exactly those items.
type contactIndex struct {
	// Version is the indexVersion the contact was indexed with (0: never).
	Version int `dynamodbav:"ixv,omitempty"`
	// Keys are the search keys the contact is indexed and counted under.
	Keys []string `dynamodbav:"ixKeys,omitempty"`
	// Stale are index items (staleRef) a write left behind to delete after
	// it: no longer counted, deleted by the next write or Reindex if the
	// writer stopped first.
	Stale []string `dynamodbav:"ixStale,omitempty"`
}

// listedContact is what a page needs of a contact item: the contact and its
// place in the list order. Its index bookkeeping (contactIndex: some 26
// keys per contact) is left undecoded.
type listedContact struct {
	GSI1SK string `dynamodbav:"GSI1SK"`
	Contact
}

type taskItem struct {
	storage.Key
	Task
}

// newContactItem is the stored item of a contact, indexed under terms.
func newContactItem(c Contact, addedMs int64, terms searchTerms) contactItem {
	return contactItem{
		Key:          contactKey(c.LocationID, c.ID),
		GSI1PK:       listPK(c.LocationID),
		GSI1SK:       OrderKey(addedMs, c.ID),
		contactIndex: contactIndex{Version: indexVersion, Keys: terms.indexKeys()},
		Contact:      c,
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

// The number of an account's contacts is kept in one item, so that a list
// answers its total with one read instead of counting the whole account
// (which grew with the account: docs/performance.md).
func totalKey(accountID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "CONTACTS_TOTAL"}
}

type totalItem struct {
	storage.Key
	Total int `dynamodbav:"total"`
	// SearchIndex is the indexVersion of the account's search index when
	// every contact is indexed with it and the counters were recounted
	// (Recount); until then searches read the account's contacts.
	SearchIndex int `dynamodbav:"searchIndex,omitempty"`
}

// Total returns the account's number of contacts, and false when the
// account has no total item yet.
func (s *Contacts) Total(ctx context.Context, accountID string) (int, bool, error) {
	item, err := storage.Get[totalItem](ctx, s.table, totalKey(accountID))
	if err != nil || item == nil {
		return 0, false, err
	}
	return item.Total, true, nil
}

// addToTotal adds delta to the account's kept total, when it has one.
func (s *Contacts) addToTotal(ctx context.Context, accountID string, delta int) error {
	cond := expression.AttributeExists(expression.Name(storage.AttrPK))
	err := s.table.Update(ctx, totalKey(accountID), expression.Add(expression.Name("total"), expression.Value(delta)), &cond)
	if storage.IsConditionFailed(err) {
		return nil // no total kept yet: the list counts
	}
	return err
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

// idOf is the contact id in an order key.
func idOf(orderKey string) string { return orderKey[14:] }

// PageResult is one page and whether more matching contacts follow it.
type PageResult struct {
	Entries []Entry
	More    bool
}

// ListPage reads one page of the list order.
func (s *Contacts) ListPage(ctx context.Context, p Page) (PageResult, error) {
	in, err := s.listQuery(p.AccountID, p.After, false)
	if err != nil {
		return PageResult{}, err
	}
	// Read one more than the page to learn whether another page follows.
	in.Limit = aws.Int32(int32(p.Limit + 1))
	out, err := s.table.DB.Query(ctx, in)
	if err != nil {
		return PageResult{}, err
	}
	var items []listedContact
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return PageResult{}, fmt.Errorf("decode contacts: %w", err)
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
	in, err := s.listQuery(accountID, upTo, true)
	if err != nil {
		return 0, err
	}
	in.Select = types.SelectCount
	return countAll(ctx, s.table, in)
}

// countAll runs a Select COUNT query to its end.
func countAll(ctx context.Context, t *storage.Table, in *dynamodb.QueryInput) (int, error) {
	total := 0
	for {
		out, err := t.DB.Query(ctx, in)
		if err != nil {
			return 0, err
		}
		total += int(out.Count)
		if out.LastEvaluatedKey == nil {
			return total, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// contactPages reads an account's contact items in list order, a page (of
// at most 1 MB) at a time. It is a type rather than a function taking a
// callback: the least-privilege check (internal/deploytest) follows a
// callback into every function any caller passes, and the API's reads
// would seem to make the writers' calls.
type contactPages struct {
	table *storage.Table
	in    *dynamodb.QueryInput
	done  bool
}

// listPages reads the account's contacts in list order (from the list
// index, whose reads are eventually consistent).
func (s *Contacts) listPages(accountID string) (*contactPages, error) {
	in, err := s.listQuery(accountID, "", false)
	if err != nil {
		return nil, err
	}
	return &contactPages{table: s.table, in: in}, nil
}

// storedPages reads the account's contacts by id, with strongly consistent
// reads: for counting them and indexing them, where a contact written a
// moment ago must be seen as it is.
func (s *Contacts) storedPages(accountID string) (*contactPages, error) {
	key := contactKey(accountID, "")
	expr, err := expression.NewBuilder().WithKeyCondition(expression.Key(storage.AttrPK).Equal(expression.Value(key.PK)).
		And(expression.Key(storage.AttrSK).BeginsWith(key.SK))).Build()
	if err != nil {
		return nil, fmt.Errorf("build contacts query: %w", err)
	}
	return &contactPages{table: s.table, in: &dynamodb.QueryInput{
		TableName:                 aws.String(s.table.Name),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ConsistentRead:            aws.Bool(true),
		Limit:                     aws.Int32(walkPage),
	}}, nil
}

// walkPage is the page of a walk through all of an account's contacts or
// counters: small enough that each call stays short on a loaded engine.
const walkPage = 500

// eachStored calls fn with each page of the account's contacts, read as
// storedPages reads them. Only the writers (Reindex, recount) call it: the
// API's reads walk pages with next, which keeps the least-privilege check
// from reaching fn's calls.
func (s *Contacts) eachStored(ctx context.Context, accountID string, fn func([]contactItem) error) error {
	pages, err := s.storedPages(accountID)
	if err != nil {
		return err
	}
	for {
		items, ok, err := pages.next(ctx)
		if err != nil || !ok {
			return err
		}
		if err := fn(items); err != nil {
			return err
		}
	}
}

// next returns the next page, and false after the last.
func (p *contactPages) next(ctx context.Context) ([]contactItem, bool, error) {
	if p.done {
		return nil, false, nil
	}
	out, err := p.table.DB.Query(ctx, p.in)
	if err != nil {
		return nil, false, err
	}
	var items []contactItem
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, false, fmt.Errorf("decode contacts: %w", err)
	}
	p.in.ExclusiveStartKey = out.LastEvaluatedKey
	p.done = out.LastEvaluatedKey == nil
	return items, true, nil
}

// listQuery builds a query of the account's list order. With upTo false, the
// bound is an exclusive lower bound (a cursor); with upTo true, an inclusive
// upper bound (counting what precedes a cursor).
func (s *Contacts) listQuery(accountID, bound string, upTo bool) (*dynamodb.QueryInput, error) {
	in, err := s.rangeQuery(storage.AttrGSI1PK, storage.AttrGSI1SK, listPK(accountID), bound, upTo)
	if err != nil {
		return nil, err
	}
	in.IndexName = aws.String(storage.IndexGSI1)
	return in, nil
}

// rangeQuery builds a query of the partition pk (the attribute pkName,
// sorted by skName) after bound, or with upTo up to and including it; an
// empty bound bounds nothing.
func (s *Contacts) rangeQuery(pkName, skName, pk, bound string, upTo bool) (*dynamodb.QueryInput, error) {
	keyCond := expression.Key(pkName).Equal(expression.Value(pk))
	if bound != "" {
		if upTo {
			keyCond = keyCond.And(expression.Key(skName).LessThanEqual(expression.Value(bound)))
		} else {
			keyCond = keyCond.And(expression.Key(skName).GreaterThan(expression.Value(bound)))
		}
	}
	expr, err := expression.NewBuilder().WithKeyCondition(keyCond).Build()
	if err != nil {
		return nil, fmt.Errorf("build contacts query: %w", err)
	}
	return &dynamodb.QueryInput{
		TableName:                 aws.String(s.table.Name),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	}, nil
}

// DeleteTask deletes a task of the account's contact; it reports false when
// there is no such task.
func (s *Contacts) DeleteTask(ctx context.Context, accountID, contactID, taskID string) (bool, error) {
	err := s.table.Delete(ctx, taskKey(accountID, contactID, taskID), storage.ItemExists())
	if storage.IsConditionFailed(err) {
		return false, nil
	}
	return err == nil, err
}

// GetTask returns a task, or nil.
func (s *Contacts) GetTask(ctx context.Context, accountID, contactID, taskID string) (*Task, error) {
	item, err := storage.Get[taskItem](ctx, s.table, taskKey(accountID, contactID, taskID))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Task, nil
}
