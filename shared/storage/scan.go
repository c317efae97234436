package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Scanner is the client's Scan, which API leaves out: reading a whole table
// is for admin tools (platformctl), never for a request, so no function's
// code can call it.
type Scanner interface {
	Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
}

var _ Scanner = (*dynamodb.Client)(nil)

// ErrCannotScan: the table's client has no Scan.
var ErrCannotScan = errors.New("storage: the table's client cannot scan")

// ScanAll reads the whole table and returns the items filter keeps (every
// item when nil), decoded into Ts, with the attributes projection names
// (all when nil). It reads, and pays for, every item of the table.
func ScanAll[T any](ctx context.Context, t *Table, filter *expression.ConditionBuilder, projection *expression.ProjectionBuilder) ([]T, error) {
	db, ok := t.DB.(Scanner)
	if !ok {
		return nil, ErrCannotScan
	}
	in := &dynamodb.ScanInput{TableName: aws.String(t.Name)}
	if filter != nil || projection != nil {
		b := expression.NewBuilder()
		if filter != nil {
			b = b.WithFilter(*filter)
		}
		if projection != nil {
			b = b.WithProjection(*projection)
		}
		expr, err := b.Build()
		if err != nil {
			return nil, fmt.Errorf("build scan: %w", err)
		}
		in.FilterExpression, in.ProjectionExpression = expr.Filter(), expr.Projection()
		in.ExpressionAttributeNames, in.ExpressionAttributeValues = expr.Names(), expr.Values()
	}
	items := []T{}
	p := dynamodb.NewScanPaginator(db, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		var found []T
		if err := attributevalue.UnmarshalListOfMaps(page.Items, &found); err != nil {
			return nil, fmt.Errorf("decode scan results: %w", err)
		}
		items = append(items, found...)
	}
	return items, nil
}
