package testenv

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// Items returns every item of the table decoded into Ts, by a strongly
// consistent scan: for tests that check that concurrent changes left
// nothing half-written, under keys the test cannot know (the ids a losing
// change drew). The product never scans the table.
func Items[T any](t testing.TB, table *storage.Table) []T {
	t.Helper()
	db, err := dynamo.NewClient(context.Background(), Endpoint(t), "us-east-1", nil)
	require.NoError(t, err)
	var out []T
	pages := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: aws.String(table.Name), ConsistentRead: aws.Bool(true)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(context.Background())
		require.NoError(t, err)
		var items []T
		require.NoError(t, attributevalue.UnmarshalListOfMaps(page.Items, &items))
		out = append(out, items...)
	}
	return out
}
