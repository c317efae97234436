package storage

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Cursor is where a page of a query ended (DynamoDB's LastEvaluatedKey): the
// next page starts after it. nil starts at the beginning, and, returned,
// means nothing follows.
type Cursor map[string]types.AttributeValue

// QueryPage runs q for one page: at most limit items after start, decoded
// into Ts, and the cursor of the page that follows (nil when none does).
// DynamoDB may end a page early (at 1 MB read, or when a filter drops
// items) with a cursor all the same.
func QueryPage[T any](ctx context.Context, t *Table, q Query, limit int32, start Cursor) ([]T, Cursor, error) {
	in, err := q.input(t)
	if err != nil {
		return nil, nil, err
	}
	in.Limit = aws.Int32(limit)
	in.ExclusiveStartKey = start
	out, err := t.DB.Query(ctx, in)
	if err != nil {
		return nil, nil, err
	}
	items := []T{}
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, nil, fmt.Errorf("decode query results: %w", err)
	}
	return items, out.LastEvaluatedKey, nil
}

// QueryCount counts the items q matches (Select COUNT: the items are read,
// and paid for, but not sent), over every page.
func QueryCount(ctx context.Context, t *Table, q Query) (int, error) {
	in, err := q.input(t)
	if err != nil {
		return 0, err
	}
	in.Select = types.SelectCount
	in.ProjectionExpression = nil
	total := 0
	for {
		out, err := t.DB.Query(ctx, in)
		if err != nil {
			return 0, err
		}
		total += int(out.Count)
		if out.LastEvaluatedKey == nil {
			return total, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// Pages walks the items q matches a page at a time (Next). It is a type
// rather than a function taking a callback so that a reader's calls and a
// writer's stay apart for the least-privilege check (internal/deploytest),
// which follows a callback into everything any caller passes.
type Pages[T any] struct {
	table *Table
	in    *dynamodb.QueryInput
	done  bool
}

// NewPages prepares the walk of q in pages of at most pageSize items.
func NewPages[T any](t *Table, q Query, pageSize int32) (*Pages[T], error) {
	in, err := q.input(t)
	if err != nil {
		return nil, err
	}
	in.Limit = aws.Int32(pageSize)
	return &Pages[T]{table: t, in: in}, nil
}

// Next returns the next page, and false after the last.
func (p *Pages[T]) Next(ctx context.Context) ([]T, bool, error) {
	if p.done {
		return nil, false, nil
	}
	out, err := p.table.DB.Query(ctx, p.in)
	if err != nil {
		return nil, false, err
	}
	items := []T{}
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &items); err != nil {
		return nil, false, fmt.Errorf("decode query results: %w", err)
	}
	p.in.ExclusiveStartKey = out.LastEvaluatedKey
	p.done = out.LastEvaluatedKey == nil
	return items, true, nil
}
