package testenv

import (
	"context"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/events"
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

// Events returns every event of owner, oldest first, as the tests that
// follow a change's event read them (the product pages them newest first:
// events.Page).
func Events(t testing.TB, table *storage.Table, owner events.Owner) []events.Recorded {
	t.Helper()
	var out []events.Recorded
	cursor := ""
	for {
		page, next, err := events.Page(context.Background(), table, owner, events.Filter{}, 100, cursor)
		require.NoError(t, err)
		out = append(out, page...)
		if next == "" {
			break
		}
		cursor = next
	}
	slices.Reverse(out)
	return out
}
