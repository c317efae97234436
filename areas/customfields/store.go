package customfields

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
)

// Field is a custom field as the public API shows it (ICustomField).
type Field struct {
	ID          string `dynamodbav:"id" json:"id"`
	LocationID  string `dynamodbav:"locationId" json:"locationId"`
	Name        string `dynamodbav:"name" json:"name"`
	Description string `dynamodbav:"description,omitempty" json:"description,omitempty"`
	Placeholder string `dynamodbav:"placeholder,omitempty" json:"placeholder,omitempty"`
	ShowInForms bool   `dynamodbav:"showInForms" json:"showInForms"`
	// Options is set on the data types that have options (see hasOptions)
	// and absent on the others.
	Options         []Option `dynamodbav:"options,omitempty" json:"options,omitempty"`
	AcceptedFormats string   `dynamodbav:"acceptedFormats,omitempty" json:"acceptedFormats,omitempty"`
	ObjectKey       string   `dynamodbav:"objectKey" json:"objectKey"`
	DataType        string   `dynamodbav:"dataType" json:"dataType"`
	ParentID        string   `dynamodbav:"parentId" json:"parentId"`
	FieldKey        string   `dynamodbav:"fieldKey" json:"fieldKey"`
	// AllowCustomOption is set on RADIO fields only.
	AllowCustomOption *bool `dynamodbav:"allowCustomOption,omitempty" json:"allowCustomOption,omitempty"`
	// MaxFileLimit is set on FILE_UPLOAD fields only.
	MaxFileLimit int    `dynamodbav:"maxFileLimit,omitempty" json:"maxFileLimit,omitempty"`
	DateAdded    string `dynamodbav:"dateAdded" json:"dateAdded"`
	DateUpdated  string `dynamodbav:"dateUpdated" json:"dateUpdated"`
}

// Option is one choice of an options field. Key identifies it for good:
// records store the key, so it never changes once given.
type Option struct {
	Key   string `dynamodbav:"key" json:"key"`
	Label string `dynamodbav:"label" json:"label"`
	URL   string `dynamodbav:"url,omitempty" json:"url,omitempty"`
}

// Custom fields are stored by id in their account's partition, one item per
// field (options included), so every change is one conditional write of one
// item and nothing can be left half-written.
func customFieldKey(accountID, id string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "CUSTOMFIELD#" + id}
}

// attrVersion counts the writes of a field item: a writer replaces the item
// only if the version is still the one it read (optimistic locking).
const attrVersion = "version"

type fieldItem struct {
	storage.Key
	Version int64 `dynamodbav:"version"`
	// RecentOptions are the options added less than recentWindow ago: option
	// key -> when it was added (epoch ms). Older entries are dropped on the
	// next write, so the map stays small. See unseenLabels.
	RecentOptions map[string]int64 `dynamodbav:"recentOptions,omitempty"`
	Field
}

// Fields reads and writes custom fields.
type Fields struct {
	table *storage.Table
}

// NewFields returns the fields on table.
func NewFields(table *storage.Table) *Fields { return &Fields{table: table} }

// Get returns the account's custom field, or nil when it has none with that
// id.
func (s *Fields) Get(ctx context.Context, accountID, id string) (*Field, error) {
	item, err := s.get(ctx, accountID, id)
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Field, nil
}

func (s *Fields) get(ctx context.Context, accountID, id string) (*fieldItem, error) {
	return storage.Get[fieldItem](ctx, s.table, customFieldKey(accountID, id))
}

// replace writes item over the account's stored field if the stored version
// is still item.Version (the version read), and bumps the version. It reports false,
// without error, when another write came first (or the field is gone): the
// caller re-reads.
func (s *Fields) replace(ctx context.Context, accountID string, item fieldItem) (bool, error) {
	readVersion := item.Version
	item.Key = customFieldKey(accountID, item.ID)
	item.Version = readVersion + 1
	cond := expression.Name(attrVersion).Equal(expression.Value(readVersion))
	if readVersion == 0 {
		// An item written without a version (by hand, or before versions
		// existed) reads as version 0.
		cond = expression.AttributeExists(expression.Name(storage.AttrPK)).
			And(expression.AttributeNotExists(expression.Name(attrVersion)))
	}
	err := s.table.Put(ctx, item, &cond)
	if storage.IsConditionFailed(err) {
		return false, nil
	}
	return err == nil, err
}

// newItem is a field as the demo data writes it: version 1.
func newItem(f Field) fieldItem {
	return fieldItem{Key: customFieldKey(f.LocationID, f.ID), Version: 1, Field: f}
}
