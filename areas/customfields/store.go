package customfields

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/events"
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

// fieldRecord is a field as stored.
type fieldRecord struct {
	// Version counts the item's writes (see Update).
	Version int64 `dynamodbav:"version"`
	// RecentOptions are the options added less than recentWindow ago: option
	// key -> when it was added (epoch ms). Older entries are dropped on the
	// next write, so the map stays small. See unseenLabels.
	RecentOptions map[string]int64 `dynamodbav:"recentOptions,omitempty"`
	Field
}

// Fields reads and writes custom fields. They are stored by id in their
// account's partition, one item per field (options included), so every
// change is one conditional write of one item and nothing can be left
// half-written.
type Fields struct {
	records *storage.AccountItems[fieldRecord]
}

// NewFields returns the fields on table.
func NewFields(table *storage.Table) *Fields {
	return &Fields{storage.NewAccountItems(table, "CUSTOMFIELD#", func(r fieldRecord) (string, string) { return r.LocationID, r.ID })}
}

// Get returns the account's custom field, or nil when it has none with that
// id.
func (s *Fields) Get(ctx context.Context, accountID, id string) (*Field, error) {
	return field(s.records.Get(ctx, accountID, id))
}

// FieldUpdated is the event of an updated custom field: the field as the
// update's answer shows it.
var FieldUpdated = events.Type{
	Name: "CustomFieldUpdate", Scope: "locations/customFields.write", Version: 1,
	Summary: "A custom field was updated (PUT /custom-fields/{id}).",
	Fields:  Field{},
}

// Update applies change to the account's field record by optimistic
// locking (storage.UpdateVersioned: change may run once per attempt, and an
// error from it ends the update; storage.ErrNoChange ends it without a
// write) and returns the field as written, its CustomFieldUpdate event
// written with it; nil when the account has no field with that id.
func (s *Fields) Update(ctx context.Context, accountID, id string, at time.Time, change func(*fieldRecord) error) (*Field, error) {
	return field(s.records.Update(ctx, accountID, id, change, storage.Alongside(func(tx *storage.Tx, changed *fieldRecord) {
		FieldUpdated.Add(tx, events.Owner{LocationID: accountID}, changed.Field, at)
	})))
}

func field(r *fieldRecord, err error) (*Field, error) {
	if err != nil || r == nil {
		return nil, err
	}
	return &r.Field, nil
}
