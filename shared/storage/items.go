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
)

// Get reads one item with a strongly consistent read. It returns nil, nil
// when the item does not exist.
func Get[T any](ctx context.Context, t *Table, key Key) (*T, error) {
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(t.Name),
		Key:            key.AV(),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, err
	}
	if out.Item == nil {
		return nil, nil
	}
	var v T
	if err := attributevalue.UnmarshalMap(out.Item, &v); err != nil {
		return nil, fmt.Errorf("decode item %s/%s: %w", key.PK, key.SK, err)
	}
	return &v, nil
}

// Put writes item (a struct with PK and SK attributes). A non-nil cond must
// hold for the write to happen; a failed condition is reported as the SDK's
// ConditionalCheckFailedException (see IsConditionFailed).
func (t *Table) Put(ctx context.Context, item any, cond *expression.ConditionBuilder) error {
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return fmt.Errorf("encode item: %w", err)
	}
	in := &dynamodb.PutItemInput{TableName: aws.String(t.Name), Item: av}
	if cond != nil {
		expr, err := expression.NewBuilder().WithCondition(*cond).Build()
		if err != nil {
			return fmt.Errorf("build condition: %w", err)
		}
		in.ConditionExpression = expr.Condition()
		in.ExpressionAttributeNames = expr.Names()
		in.ExpressionAttributeValues = expr.Values()
	}
	_, err = t.DB.PutItem(ctx, in)
	return err
}

// Delete removes the item at key. A non-nil cond must hold; a failed
// condition is reported as ConditionalCheckFailedException.
func (t *Table) Delete(ctx context.Context, key Key, cond *expression.ConditionBuilder) error {
	in := &dynamodb.DeleteItemInput{TableName: aws.String(t.Name), Key: key.AV()}
	if cond != nil {
		expr, err := expression.NewBuilder().WithCondition(*cond).Build()
		if err != nil {
			return fmt.Errorf("build condition: %w", err)
		}
		in.ConditionExpression = expr.Condition()
		in.ExpressionAttributeNames = expr.Names()
		in.ExpressionAttributeValues = expr.Values()
	}
	_, err := t.DB.DeleteItem(ctx, in)
	return err
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

// QueryPartition returns every item of partition pk whose sort key begins
// with prefix, in sort-key order, with strongly consistent reads.
func QueryPartition[T any](ctx context.Context, t *Table, pk, prefix string) ([]T, error) {
	keyCond := expression.Key(AttrPK).Equal(expression.Value(pk))
	if prefix != "" {
		keyCond = keyCond.And(expression.Key(AttrSK).BeginsWith(prefix))
	}
	raw, err := queryAll(ctx, t, keyCond)
	if err != nil {
		return nil, err
	}
	var items []T
	if err := attributevalue.UnmarshalListOfMaps(raw, &items); err != nil {
		return nil, fmt.Errorf("decode items of %s: %w", pk, err)
	}
	return items, nil
}

// QueryRange returns the items of partition pk whose sort keys lie between
// from and to (both included), in sort key order, as attribute maps: for a
// range that holds items of several types (a record and its children).
func QueryRange(ctx context.Context, t *Table, pk, from, to string) ([]map[string]types.AttributeValue, error) {
	return queryAll(ctx, t, expression.Key(AttrPK).Equal(expression.Value(pk)).
		And(expression.Key(AttrSK).Between(expression.Value(from), expression.Value(to))))
}

// queryAll runs a strongly consistent Query and returns the items of every
// page.
func queryAll(ctx context.Context, t *Table, keyCond expression.KeyConditionBuilder) ([]map[string]types.AttributeValue, error) {
	expr, err := expression.NewBuilder().WithKeyCondition(keyCond).Build()
	if err != nil {
		return nil, fmt.Errorf("build key condition: %w", err)
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(t.Name),
		KeyConditionExpression:    expr.KeyCondition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ConsistentRead:            aws.Bool(true),
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

// BatchPut writes items in batches of 25, retrying unprocessed items. It is
// for loading data (the demo dataset); requests use conditional writes.
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
		pending := map[string][]types.WriteRequest{t.Name: reqs[start:min(start+maxBatchWrite, len(reqs))]}
		for attempt := 0; len(pending[t.Name]) > 0; attempt++ {
			if err := pauseBeforeRetry(ctx, attempt); err != nil {
				return fmt.Errorf("batch write: %d requests still unprocessed: %w", len(pending[t.Name]), err)
			}
			out, err := t.DB.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
			if err != nil {
				return err
			}
			pending = out.UnprocessedItems
		}
	}
	return nil
}

// BatchGet reads the items at keys with strongly consistent reads, 100 keys
// per call, retrying unprocessed keys, and returns those that exist in no
// particular order. Repeated keys are read once.
func BatchGet[T any](ctx context.Context, t *Table, keys []Key) ([]T, error) {
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
		pending := map[string]types.KeysAndAttributes{t.Name: {Keys: avs[start:min(start+maxBatchGet, len(avs))], ConsistentRead: aws.Bool(true)}}
		for attempt := 0; len(pending[t.Name].Keys) > 0; attempt++ {
			if err := pauseBeforeRetry(ctx, attempt); err != nil {
				return nil, fmt.Errorf("batch get: %d keys still unprocessed: %w", len(pending[t.Name].Keys), err)
			}
			out, err := t.DB.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
			if err != nil {
				return nil, err
			}
			var items []T
			if err := attributevalue.UnmarshalListOfMaps(out.Responses[t.Name], &items); err != nil {
				return nil, fmt.Errorf("decode items: %w", err)
			}
			found = append(found, items...)
			pending = out.UnprocessedKeys
		}
	}
	return found, nil
}

// DynamoDB's limits of requests per BatchWriteItem and keys per
// BatchGetItem.
const (
	maxBatchWrite = 25
	maxBatchGet   = 100
)

// batchAttempts bounds the calls of one batch whose requests DynamoDB keeps
// leaving unprocessed (under throttling).
const batchAttempts = 8

var errStillUnprocessed = errors.New("gave up retrying")

// pauseBeforeRetry waits before attempt n of a batch (none before the
// first; then 20 ms, 40 ms, 80 ms...), and fails after batchAttempts.
func pauseBeforeRetry(ctx context.Context, n int) error {
	if n == 0 {
		return nil
	}
	if n >= batchAttempts {
		return errStillUnprocessed
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(10<<n) * time.Millisecond):
		return nil
	}
}

// Update applies update to the item at key. A non-nil cond must hold; a
// failed condition is reported as ConditionalCheckFailedException.
func (t *Table) Update(ctx context.Context, key Key, update expression.UpdateBuilder, cond *expression.ConditionBuilder) error {
	b := expression.NewBuilder().WithUpdate(update)
	if cond != nil {
		b = b.WithCondition(*cond)
	}
	expr, err := b.Build()
	if err != nil {
		return fmt.Errorf("build update: %w", err)
	}
	_, err = t.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(t.Name),
		Key:                       key.AV(),
		UpdateExpression:          expr.Update(),
		ConditionExpression:       expr.Condition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
	})
	return err
}
