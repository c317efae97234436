package storage

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
)

func TestItemSizeCountsAsDynamoDBDoes(t *testing.T) {
	tests := []struct {
		name string
		item map[string]types.AttributeValue
		want int
	}{
		{"a string is its name and its bytes", map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "ü1"}}, 2 + 3},
		{"a number is a byte per two significant digits, plus one", map[string]types.AttributeValue{"n": &types.AttributeValueMemberN{Value: "-1234.5"}}, 1 + 4},
		{"binary is its bytes, a boolean and a null one each", map[string]types.AttributeValue{"b": &types.AttributeValueMemberB{Value: []byte{1, 2}}, "t": &types.AttributeValueMemberBOOL{Value: true}, "z": &types.AttributeValueMemberNULL{Value: true}}, 3 + 2 + 2},
		{"a set is its members", map[string]types.AttributeValue{"ss": &types.AttributeValueMemberSS{Value: []string{"a", "bc"}}}, 2 + 3},
		{"a list is 3 bytes and its members, 1 byte each", map[string]types.AttributeValue{"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "a"}, &types.AttributeValueMemberS{Value: "bc"}}}}, 1 + 3 + 2 + 3},
		{"a map is 3 bytes and its members' names and values, 1 byte each", map[string]types.AttributeValue{"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": &types.AttributeValueMemberBOOL{Value: true}}}}, 1 + 3 + 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ItemSize(tt.item))
		})
	}
}
