package deliveries

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/events"
)

// A delivery keeps its body as its event does (events.PackBody): text
// while the item fits in one KB, gzipped beyond, since the put, each
// attempt's record and the due index's copy pay for the item's KB. Body
// is always the text sent and signed.

// storedItem is a delivery's item without its marshalling.
type storedItem Item

// MarshalDynamoDBAttributeValue writes the item with its body packed.
func (it Item) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return events.MarshalPacked(storedItem(it))
}

// UnmarshalDynamoDBAttributeValue reads an item whose body may be packed.
func (it *Item) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	return events.UnmarshalPacked(av, (*storedItem)(it))
}
