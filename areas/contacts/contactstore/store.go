// Package contactstore stores contacts and their tasks: the one place that
// builds their keys. The contacts area serves them; other areas (associations)
// check through it that a contact exists.
package contactstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"

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
	// Search is the lower-cased text the query parameter matches: names,
	// e-mail and phone.
	Search string `dynamodbav:"search"`
	Contact
}

type taskItem struct {
	storage.Key
	Task
}

// Items are the stored items of a contact and its tasks, for loading data in
// bulk (the demo dataset).
func Items(c Contact, addedMs int64, tasks []Task) []any {
	items := []any{newContactItem(c, addedMs)}
	for _, t := range tasks {
		t.ContactID = c.ID
		items = append(items, taskItem{Key: taskKey(c.LocationID, c.ID, t.ID), Task: t})
	}
	return items
}

func newContactItem(c Contact, addedMs int64) contactItem {
	search := strings.ToLower(strings.Join([]string{c.FirstName, c.LastName, c.ContactName, c.Email, c.Phone}, " "))
	return contactItem{
		Key:     contactKey(c.LocationID, c.ID),
		GSI1PK:  listPK(c.LocationID),
		GSI1SK:  OrderKey(addedMs, c.ID),
		Search:  search,
		Contact: c,
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

// Put stores a contact. A new contact also counts in the account's total
// (when the account has one; see Recount).
func (s *Contacts) Put(ctx context.Context, c Contact, addedMs int64) error {
	av, err := attributevalue.MarshalMap(newContactItem(c, addedMs))
	if err != nil {
		return fmt.Errorf("encode contact: %w", err)
	}
	out, err := s.table.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name), Item: av, ReturnValues: types.ReturnValueAllOld})
	if err != nil || len(out.Attributes) > 0 {
		return err
	}
	// Without transactions the two writes are not atomic: a failure between
	// them leaves the total one short until the next Recount.
	cond := expression.AttributeExists(expression.Name(storage.AttrPK))
	err = s.table.Update(ctx, totalKey(c.LocationID), expression.Add(expression.Name("total"), expression.Value(1)), &cond)
	if storage.IsConditionFailed(err) {
		return nil // no total kept yet: the list counts
	}
	return err
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

// Recount counts the account's contacts and stores the total. Loaders call
// it after writing contacts in bulk (BatchWriteItem cannot tell new contacts
// from overwritten ones).
func (s *Contacts) Recount(ctx context.Context, accountID string) error {
	n, err := s.Count(ctx, accountID, "", "")
	if err != nil {
		return err
	}
	return s.table.Put(ctx, totalItem{Key: totalKey(accountID), Total: n}, nil)
}

// Page asks for up to Limit contacts of an account after the cursor After
// (an order key; "" starts at the beginning) whose names, e-mail or phone
// contain Query.
type Page struct {
	AccountID string
	After     string
	Query     string
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
	in, err := s.listQuery(p.AccountID, p.After, p.Query, false)
	if err != nil {
		return PageResult{}, err
	}
	if p.Query == "" {
		// Without a filter every item read is a match: read one more than
		// the page to learn whether another page follows.
		in.Limit = aws.Int32(int32(p.Limit + 1))
	}
	var res PageResult
	for {
		out, err := s.table.DB.Query(ctx, in)
		if err != nil {
			return PageResult{}, err
		}
		var items []contactItem
		if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
			return PageResult{}, fmt.Errorf("decode contacts: %w", err)
		}
		for _, it := range items {
			if len(res.Entries) == p.Limit {
				res.More = true
				return res, nil
			}
			res.Entries = append(res.Entries, Entry{Contact: it.Contact, OrderKey: it.GSI1SK})
		}
		if out.LastEvaluatedKey == nil {
			return res, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// Count returns how many of the account's contacts match query, in the
// whole list (upTo "") or up to and including the order key upTo.
func (s *Contacts) Count(ctx context.Context, accountID, query, upTo string) (int, error) {
	in, err := s.listQuery(accountID, upTo, query, true)
	if err != nil {
		return 0, err
	}
	in.Select = types.SelectCount
	total := 0
	for {
		out, err := s.table.DB.Query(ctx, in)
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

// listQuery builds a query of the account's list order. With upTo false, the
// bound is an exclusive lower bound (a cursor); with upTo true, an inclusive
// upper bound (counting what precedes a cursor).
func (s *Contacts) listQuery(accountID, bound, query string, upTo bool) (*dynamodb.QueryInput, error) {
	keyCond := expression.Key(storage.AttrGSI1PK).Equal(expression.Value(listPK(accountID)))
	if bound != "" {
		if upTo {
			keyCond = keyCond.And(expression.Key(storage.AttrGSI1SK).LessThanEqual(expression.Value(bound)))
		} else {
			keyCond = keyCond.And(expression.Key(storage.AttrGSI1SK).GreaterThan(expression.Value(bound)))
		}
	}
	b := expression.NewBuilder().WithKeyCondition(keyCond)
	if query != "" {
		b = b.WithFilter(expression.Contains(expression.Name("search"), strings.ToLower(query)))
	}
	expr, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("build contacts query: %w", err)
	}
	return &dynamodb.QueryInput{
		TableName:                 aws.String(s.table.Name),
		IndexName:                 aws.String(storage.IndexGSI1),
		KeyConditionExpression:    expr.KeyCondition(),
		FilterExpression:          expr.Filter(),
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
