package events

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/storage"
)

// How a body is stored. DynamoDB charges a write by the KB of its item,
// twice in a transaction, once more for each index copy, and again for
// each later update of the item (the fan-out's hand-on, each delivery's
// counts). An event's item was its body plus about 330 bytes, so a body
// over 700 bytes (a brand board, an inventory change of many prices)
// made every one of those writes cost 2 units a KB more. The body is kept
// as text while its item fits in one KB, and gzipped beyond: JSON of
// repeated member names gzips to a third or less, and the item is
// priced by its stored bytes. The bytes signed and sent are the same
// either way (Body is always the text), and the published shapes do not
// change; only a reader of the raw item sees binary.
//
// The attribute keeps its name, "body", and becomes binary: a deliverer
// of before, which expects a string, fails to read such an event (and
// leaves it waiting in the fan-out index for the deliverer of this
// version) rather than sending an empty body.

// BodyAttr is the attribute holding an event's or a delivery's body.
const BodyAttr = "body"

// unitSize is DynamoDB's unit of write capacity.
const unitSize = 1024

// PackBody stores the item's body (BodyAttr, text) gzipped when, as text,
// it makes the item larger than one write unit and gzip makes it smaller.
func PackBody(item map[string]types.AttributeValue) error {
	text, ok := item[BodyAttr].(*types.AttributeValueMemberS)
	if !ok || storage.ItemSize(item) <= unitSize {
		return nil
	}
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(zw, text.Value); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if b.Len() < len(text.Value) {
		item[BodyAttr] = &types.AttributeValueMemberB{Value: b.Bytes()}
	}
	return nil
}

// UnpackBody makes a gzipped body (PackBody) text again.
func UnpackBody(item map[string]types.AttributeValue) error {
	packed, ok := item[BodyAttr].(*types.AttributeValueMemberB)
	if !ok {
		return nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(packed.Value))
	if err != nil {
		return fmt.Errorf("events: a stored body: %w", err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		return fmt.Errorf("events: a stored body: %w", err)
	}
	item[BodyAttr] = &types.AttributeValueMemberS{Value: string(text)}
	return nil
}

// MarshalPacked marshals v, a struct of an item (one without this
// marshalling, or it would call itself), with its body packed
// (PackBody): an item's MarshalDynamoDBAttributeValue.
func MarshalPacked(v any) (types.AttributeValue, error) {
	av, err := attributevalue.MarshalMap(v)
	if err != nil {
		return nil, err
	}
	if err := PackBody(av); err != nil {
		return nil, err
	}
	return &types.AttributeValueMemberM{Value: av}, nil
}

// UnmarshalPacked unmarshals an item whose body may be packed into v (as
// MarshalPacked's): an item's UnmarshalDynamoDBAttributeValue.
func UnmarshalPacked(av types.AttributeValue, v any) error {
	m, ok := av.(*types.AttributeValueMemberM)
	if !ok {
		return errors.New("an item is not a map")
	}
	fields := make(map[string]types.AttributeValue, len(m.Value))
	for k, val := range m.Value {
		fields[k] = val
	}
	if err := UnpackBody(fields); err != nil {
		return err
	}
	return attributevalue.UnmarshalMap(fields, v)
}

// storedItem is an event's item without its marshalling.
type storedItem item

// MarshalDynamoDBAttributeValue writes the item with its body packed.
func (it item) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return MarshalPacked(storedItem(it))
}

// UnmarshalDynamoDBAttributeValue reads an item whose body may be packed.
func (it *item) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	return UnmarshalPacked(av, (*storedItem)(it))
}
