package associations

import (
	"context"
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
func customRecordID(objectName, recordID string) string { return objectName + "#" + recordID }

// CustomObject returns the account's custom object called name, or nil.
func (s *Graph) CustomObject(ctx context.Context, accountID, name string) (*CustomObject, error) {
	return s.customObjects.Get(ctx, accountID, name)
}

// CustomRecord returns the record of the account's custom object, or nil.
func (s *Graph) CustomRecord(ctx context.Context, accountID, objectName, recordID string) (*CustomRecord, error) {
	return s.customRecords.Get(ctx, accountID, customRecordID(objectName, recordID))
}
