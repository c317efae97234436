package associations

import (
	"context"

	"github.com/bizplatform/api/shared/storage"
)

// CustomObject is the definition of an account's custom object (a pet, a
// vehicle...). This area owns custom object definitions and records until an
// area of their own takes them over; it only needs to know that they exist.
type CustomObject struct {
	LocationID string       `dynamodbav:"locationId" json:"locationId"`
	Key        string       `dynamodbav:"key" json:"key"` // custom_objects.<name>
	Labels     ObjectLabels `dynamodbav:"labels" json:"labels"`
	CreatedAt  string       `dynamodbav:"createdAt" json:"createdAt"`
}

// ObjectLabels are how the object is named in the user interface.
type ObjectLabels struct {
	Singular string `dynamodbav:"singular" json:"singular"`
	Plural   string `dynamodbav:"plural" json:"plural"`
}

// CustomRecord is one record of a custom object.
type CustomRecord struct {
	ID         string            `dynamodbav:"id" json:"id"`
	LocationID string            `dynamodbav:"locationId" json:"locationId"`
	ObjectKey  string            `dynamodbav:"objectKey" json:"objectKey"`
	Properties map[string]string `dynamodbav:"properties" json:"properties"`
	CreatedAt  string            `dynamodbav:"createdAt" json:"createdAt"`
}

// A custom object's definition is stored by object name; its records by
// object name and record id, so a record id only counts under its object.
func customObjectKey(accountID, name string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "CUSTOMOBJECT#" + name}
}

func customRecordKey(accountID, objectName, recordID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "CUSTOMOBJECTRECORD#" + objectName + "#" + recordID}
}

type customObjectItem struct {
	storage.Key
	CustomObject
}

type customRecordItem struct {
	storage.Key
	CustomRecord
}

// CustomObject returns the account's custom object called name, or nil.
func (s *Graph) CustomObject(ctx context.Context, accountID, name string) (*CustomObject, error) {
	item, err := storage.Get[customObjectItem](ctx, s.table, customObjectKey(accountID, name))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.CustomObject, nil
}

// CustomRecord returns the record of the account's custom object, or nil.
func (s *Graph) CustomRecord(ctx context.Context, accountID, objectName, recordID string) (*CustomRecord, error) {
	item, err := storage.Get[customRecordItem](ctx, s.table, customRecordKey(accountID, objectName, recordID))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.CustomRecord, nil
}
