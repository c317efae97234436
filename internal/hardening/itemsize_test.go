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
