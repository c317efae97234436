package hardening

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/storage"
)

// maxItemBytes is DynamoDB's item size limit.
const maxItemBytes = 400 * 1024

// rawItems reads one partition's items as attribute values, by key.
func rawItems(t testing.TB, table *storage.Table, pk string) map[string]map[string]types.AttributeValue {
	t.Helper()
	out := map[string]map[string]types.AttributeValue{}
	p := dynamodb.NewQueryPaginator(rawClient(t), &dynamodb.QueryInput{
		TableName: &table.Name, ConsistentRead: ptr(true),
		KeyConditionExpression:    ptr("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}},
	})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		require.NoError(t, err)
		for _, item := range page.Items {
			pk := item[storage.AttrPK].(*types.AttributeValueMemberS).Value
			sk := item[storage.AttrSK].(*types.AttributeValueMemberS).Value
			out[pk+"\x00"+sk] = item
		}
	}
	return out
}

// itemBytes is an item's size as DynamoDB counts it against the 400 KB
// limit: attribute names and strings in UTF-8 bytes. The battery counts for
// itself rather than trust an engine's refusal, so that it finds the
// largest accepted item wherever it runs.
func itemBytes(item map[string]types.AttributeValue) int {
	n := 0
	for name, v := range item {
		n += len(name) + valueBytes(v)
	}
	return n
}

func valueBytes(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		// Up to 38 significant digits, two to a byte, plus one.
		digits := 0
		for _, r := range v.Value {
			if r >= '0' && r <= '9' {
				digits++
			}
		}
		return (digits+1)/2 + 1
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + valueBytes(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for name, e := range v.Value {
			n += 1 + len(name) + valueBytes(e)
		}
		return n
	default:
		return 0
	}
}
