package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/apierror"
)

// ReadOption changes how an item is read.
type ReadOption func(*readOptions)

type readOptions struct{ eventual bool }

// Eventually reads without strong consistency: half the read units, and
// possibly a moment behind the latest write. For reads whose answer a
// write a moment ago may miss without being wrong (docs/design.md lists
// them); reads that decide a write, or answer a read of what the caller just
// wrote, stay strongly consistent.
func Eventually(o *readOptions) { o.eventual = true }

func readOptionsOf(opts []ReadOption) readOptions {
	var o readOptions
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// Get reads one item into a T (attributes T does not declare, such as the
// key, are ignored), with a strongly consistent read unless Eventually is
// given. It returns nil, nil when the item does not exist.
func Get[T any](ctx context.Context, t *Table, key Key, opts ...ReadOption) (*T, error) {
	item, err := t.getItem(ctx, key, !readOptionsOf(opts).eventual)
	if err != nil || item == nil {
		return nil, err
	}
	var v T
	if err := attributevalue.UnmarshalMap(item, &v); err != nil {
		return nil, fmt.Errorf("decode item %s/%s: %w", key.PK, key.SK, err)
	}
	return &v, nil
}

// getItem reads the attributes of the item at key; nil when there is no
// item.
func (t *Table) getItem(ctx context.Context, key Key, consistent bool) (map[string]types.AttributeValue, error) {
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(t.Name),
		Key:            key.AV(),
		ConsistentRead: aws.Bool(consistent),
	})
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

// FailedConditionItem returns the item a conditional write found in place
// of the one its condition asked for, from the failure itself: every
// conditional write of this package (a transaction's too) asks DynamoDB to
// return the item with a failed condition
// (ReturnValuesOnConditionCheckFailure ALL_OLD), at no extra read. nil, nil
// when the failure carries no item (there was none at the key) or condErr is
// not a failed condition.
func FailedConditionItem[T any](condErr error, key Key) (*T, error) {
	var item map[string]types.AttributeValue
	var cf *types.ConditionalCheckFailedException
	var txf *TxConditionFailed
	switch {
	case errors.As(condErr, &txf):
		item = txf.Item
	case errors.As(condErr, &cf):
		item = cf.Item
	}
	if len(item) == 0 {
		return nil, nil
	}
	var v T
	if err := attributevalue.UnmarshalMap(item, &v); err != nil {
		return nil, fmt.Errorf("decode item %s/%s: %w", key.PK, key.SK, err)
	}
	return &v, nil
}

// Put writes item (a struct with PK and SK attributes, or a Keyed record). A
// non-nil cond must hold for the write to happen; a failed condition is
// reported as the SDK's ConditionalCheckFailedException, carrying the item
// found at the key (see IsConditionFailed, Applied and FailedConditionItem).
func (t *Table) Put(ctx context.Context, item any, cond *expression.ConditionBuilder) error {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return fmt.Errorf("encode item: %w", err)
	}
	return t.putItem(ctx, av, cond)
}

// putItem writes the attributes av, on condition cond when it is not nil.
func (t *Table) putItem(ctx context.Context, av map[string]types.AttributeValue, cond *expression.ConditionBuilder) error {
	in := &dynamodb.PutItemInput{TableName: aws.String(t.Name), Item: av}
	expr, err := conditionOf(cond)
	if err != nil {
		return err
	}
	in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues = expr.Condition(), expr.Names(), expr.Values()
	if cond != nil {
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	_, err = t.DB.PutItem(ctx, in)
	return err
}

// Delete removes the item at key. A non-nil cond must hold; a failed
// condition is reported as ConditionalCheckFailedException.
func (t *Table) Delete(ctx context.Context, key Key, cond *expression.ConditionBuilder) error {
	in := &dynamodb.DeleteItemInput{TableName: aws.String(t.Name), Key: key.AV()}
	expr, err := conditionOf(cond)
	if err != nil {
		return err
	}
	in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues = expr.Condition(), expr.Names(), expr.Values()
	if cond != nil {
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	_, err = t.DB.DeleteItem(ctx, in)
	return err
}

// conditionOf builds the expression of cond; the empty expression (no
// condition, no names, no values) when cond is nil.
func conditionOf(cond *expression.ConditionBuilder) (expression.Expression, error) {
	if cond == nil {
		return expression.Expression{}, nil
	}
	expr, err := expression.NewBuilder().WithCondition(*cond).Build()
	if err != nil {
		return expression.Expression{}, fmt.Errorf("build condition: %w", err)
	}
	return expr, nil
}

// ItemExists is the condition "an item is at this key".
func ItemExists() *expression.ConditionBuilder {
	c := expression.AttributeExists(expression.Name(AttrPK))
	return &c
}

// ItemAbsent is the condition "no item is at this key".
func ItemAbsent() *expression.ConditionBuilder {
	c := expression.AttributeNotExists(expression.Name(AttrPK))
	return &c
}

// Applied turns the error of a conditional write into whether the write
// happened: a failed condition is false without error, so that a caller can
// answer "already exists" or "not found" from it.
func Applied(err error) (bool, error) {
	if IsConditionFailed(err) {
		return false, nil
	}
	return err == nil, err
}

// Query is a query of the table, or of an index, by a key condition.
type Query struct {
	// Index is the index queried; "" queries the table, with strongly
	// consistent reads unless Eventual (an index read is always eventually
	// consistent).
	Index string
	Key   expression.KeyConditionBuilder
	// Filter, when set, drops items after they are read (they still cost
	// their read).
	Filter *expression.ConditionBuilder
	// Projection, when set, reads only those attributes.
	Projection *expression.ProjectionBuilder
	// Descending reads the highest sort keys first.
	Descending bool
	// Eventual reads the table without strong consistency (see Eventually).
	Eventual bool
}

// input builds the query's request.
func (q Query) input(t *Table) (*dynamodb.QueryInput, error) {
	b := expression.NewBuilder().WithKeyCondition(q.Key)
	if q.Filter != nil {
		b = b.WithFilter(*q.Filter)
	}
	if q.Projection != nil {
		b = b.WithProjection(*q.Projection)
	}
	expr, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("build query: %w", err)
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(t.Name),
		KeyConditionExpression:    expr.KeyCondition(),
		FilterExpression:          expr.Filter(),
		ProjectionExpression:      expr.Projection(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	}
	if q.Index == "" {
		in.ConsistentRead = aws.Bool(!q.Eventual)
	} else {
		in.IndexName = aws.String(q.Index)
	}
	if q.Descending {
		in.ScanIndexForward = aws.Bool(false)
	}
	return in, nil
}

// QueryAll runs q and decodes the items of every page into Ts, in the
// order of the queried sort key.
func QueryAll[T any](ctx context.Context, t *Table, q Query) ([]T, error) {
	raw, err := queryAll(ctx, t, q)
	if err != nil {
		return nil, err
	}
	items := []T{}
	if err := attributevalue.UnmarshalListOfMaps(raw, &items); err != nil {
		return nil, fmt.Errorf("decode query results: %w", err)
	}
	return items, nil
}

// QueryPartition returns every item of partition pk whose sort key begins
// with prefix, in sort-key order, with strongly consistent reads.
func QueryPartition[T any](ctx context.Context, t *Table, pk, prefix string) ([]T, error) {
	return QueryAll[T](ctx, t, Query{Key: PartitionPrefix(pk, prefix)})
}

// PartitionPrefix is the key condition "partition pk, sort key beginning
// with prefix" (any sort key when prefix is empty).
func PartitionPrefix(pk, prefix string) expression.KeyConditionBuilder {
	keyCond := expression.Key(AttrPK).Equal(expression.Value(pk))
	if prefix != "" {
		keyCond = keyCond.And(expression.Key(AttrSK).BeginsWith(prefix))
	}
	return keyCond
}

// QueryRange returns the items of partition pk whose sort keys lie between
// from and to (both included), in sort key order, as attribute maps: for a
// range that holds items of several types (a record and its children).
func QueryRange(ctx context.Context, t *Table, pk, from, to string) ([]map[string]types.AttributeValue, error) {
	return queryAll(ctx, t, Query{Key: expression.Key(AttrPK).Equal(expression.Value(pk)).
		And(expression.Key(AttrSK).Between(expression.Value(from), expression.Value(to)))})
}

// queryAll runs q and returns the items of every page.
func queryAll(ctx context.Context, t *Table, q Query) ([]map[string]types.AttributeValue, error) {
	in, err := q.input(t)
	if err != nil {
		return nil, err
	}
	var all []map[string]types.AttributeValue
	p := dynamodb.NewQueryPaginator(t.DB, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		all = append(all, page.Items...)
	}
	return all, nil
}

// DynamoDB's limits of requests per BatchWriteItem and keys per
// BatchGetItem call.
const (
	maxBatchWrite = 25
	maxBatchGet   = 100
)

// batchAttempts bounds the calls made for one batch of 25 writes or 100
// reads while DynamoDB leaves some unprocessed (it does under throttling).
const batchAttempts = 6

// ErrUnprocessed is the cause of the 503 a batch answers when DynamoDB keeps
// leaving some of it unprocessed.
var ErrUnprocessed = errors.New("storage: batch still unprocessed after retries")

// BatchGet reads the items at keys (strongly consistent unless Eventually
// is given, 100 keys a call)
// and returns those that exist, decoded, in no particular order. Keys
// DynamoDB leaves unprocessed are asked again after a pause (20 ms, 40 ms,
// ...); after batchAttempts calls the read fails with ErrUnprocessed as a
// 503. Repeated keys are read once (DynamoDB refuses a call that names a
// key twice).
func BatchGet[T any](ctx context.Context, t *Table, keys []Key, opts ...ReadOption) ([]T, error) {
	consistent := !readOptionsOf(opts).eventual
	seen := make(map[Key]bool, len(keys))
	avs := make([]map[string]types.AttributeValue, 0, len(keys))
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			avs = append(avs, k.AV())
		}
	}
	var found []T
	for start := 0; start < len(avs); start += maxBatchGet {
		pending := map[string]types.KeysAndAttributes{t.Name: {Keys: avs[start:min(start+maxBatchGet, len(avs))], ConsistentRead: aws.Bool(consistent)}}
		for attempt := 0; len(pending[t.Name].Keys) > 0; attempt++ {
			if err := beforeBatchAttempt(ctx, attempt); err != nil {
				return nil, err
			}
			out, err := t.DB.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
			if err != nil {
				return nil, err
			}
			var items []T
			if err := attributevalue.UnmarshalListOfMaps(out.Responses[t.Name], &items); err != nil {
				return nil, fmt.Errorf("decode batch: %w", err)
			}
			found = append(found, items...)
			pending = out.UnprocessedKeys
		}
	}
	return found, nil
}

// BatchPut writes items in batches of 25, retrying unprocessed items like
// BatchGet. It is for loading data (the demo dataset); requests use
// conditional writes.
func (t *Table) BatchPut(ctx context.Context, items []any) error {
	return t.BatchWrite(ctx, items, nil)
}

// BatchWrite puts items and deletes the items at keys, in batches of 25,
// retrying unprocessed requests. Puts and deletes are unconditional, so a
// batch written again leaves the same items.
func (t *Table) BatchWrite(ctx context.Context, puts []any, deletes []Key) error {
	reqs := make([]types.WriteRequest, 0, len(puts)+len(deletes))
	for _, item := range puts {
		av, err := attributevalue.MarshalMap(item)
		if err != nil {
			return fmt.Errorf("encode item: %w", err)
		}
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: av}})
	}
	for _, k := range deletes {
		reqs = append(reqs, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: k.AV()}})
	}
	for start := 0; start < len(reqs); start += maxBatchWrite {
		if err := t.writeBatch(ctx, reqs[start:min(start+maxBatchWrite, len(reqs))]); err != nil {
			return err
		}
	}
	return nil
}

// writeBatch writes one batch of at most 25 requests, retrying what
// DynamoDB leaves unprocessed.
func (t *Table) writeBatch(ctx context.Context, batch []types.WriteRequest) error {
	pending := map[string][]types.WriteRequest{t.Name: batch}
	for attempt := 0; len(pending[t.Name]) > 0; attempt++ {
		if err := beforeBatchAttempt(ctx, attempt); err != nil {
			return err
		}
		out, err := t.DB.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			return err
		}
		pending = out.UnprocessedItems
	}
	return nil
}

// beforeBatchAttempt waits before a batch's retry n (20 ms, 40 ms, 80 ms...)
// and refuses the retry past batchAttempts calls.
func beforeBatchAttempt(ctx context.Context, n int) error {
	switch {
	case n == 0:
		return nil
	case n >= batchAttempts:
		return apierror.Unavailable(ErrUnprocessed, time.Second)
	}
	return Pause(ctx, (10<<n)*time.Millisecond)
}
