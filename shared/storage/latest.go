package storage

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// QueryLatest returns at most limit items of partition pk whose sort key
// begins with prefix, the highest sort keys first (for sort keys that begin
// with a timestamp: the newest first), with one strongly consistent read.
func QueryLatest[T any](ctx context.Context, t *Table, pk, prefix string, limit int32) ([]T, error) {
	keyCond := expression.Key(AttrPK).Equal(expression.Value(pk)).And(expression.Key(AttrSK).BeginsWith(prefix))
	expr, err := expression.NewBuilder().WithKeyCondition(keyCond).Build()
	if err != nil {
		return nil, fmt.Errorf("build key condition: %w", err)
	}
	out, err := t.DB.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(t.Name),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ConsistentRead:            aws.Bool(true),
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(limit),
	})
	if err != nil {
		return nil, err
	}
	var items []T
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, fmt.Errorf("decode items of %s: %w", pk, err)
	}
	return items, nil
}
