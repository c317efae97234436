package storage

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Update applies update to the item at key. A non-nil cond must hold; a
// failed condition is reported as ConditionalCheckFailedException, carrying
// the item found (FailedConditionItem).
func (t *Table) Update(ctx context.Context, key Key, update expression.UpdateBuilder, cond *expression.ConditionBuilder) error {
	_, err := t.update(ctx, key, update, cond, types.ReturnValueNone)
	return err
}

// UpdateReturning applies update to the item at key, like Update, and
// returns the item as it is after the update (ALL_NEW), decoded into a T:
// a counter's new value, say, without a read.
func UpdateReturning[T any](ctx context.Context, t *Table, key Key, update expression.UpdateBuilder, cond *expression.ConditionBuilder) (*T, error) {
	attrs, err := t.update(ctx, key, update, cond, types.ReturnValueAllNew)
	if err != nil {
		return nil, err
	}
	var v T
	if err := attributevalue.UnmarshalMap(attrs, &v); err != nil {
		return nil, fmt.Errorf("decode item %s/%s: %w", key.PK, key.SK, err)
	}
	return &v, nil
}

// UpdateReturningOld applies update to the item at key, like Update, and
// returns the item as it was before (ALL_OLD): to take a value out of an
// item in one write, so that of two requests only one gets it.
func UpdateReturningOld[T any](ctx context.Context, t *Table, key Key, update expression.UpdateBuilder, cond *expression.ConditionBuilder) (*T, error) {
	attrs, err := t.update(ctx, key, update, cond, types.ReturnValueAllOld)
	if err != nil {
		return nil, err
	}
	var v T
	if err := attributevalue.UnmarshalMap(attrs, &v); err != nil {
		return nil, fmt.Errorf("decode item %s/%s: %w", key.PK, key.SK, err)
	}
	return &v, nil
}

func (t *Table) update(ctx context.Context, key Key, update expression.UpdateBuilder, cond *expression.ConditionBuilder, ret types.ReturnValue) (map[string]types.AttributeValue, error) {
	b := expression.NewBuilder().WithUpdate(update)
	if cond != nil {
		b = b.WithCondition(*cond)
	}
	expr, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("build update: %w", err)
	}
	out, err := t.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           aws.String(t.Name),
		Key:                                 key.AV(),
		UpdateExpression:                    expr.Update(),
		ConditionExpression:                 expr.Condition(),
		ExpressionAttributeNames:            expr.Names(),
		ExpressionAttributeValues:           expr.Values(),
		ReturnValues:                        ret,
		ReturnValuesOnConditionCheckFailure: returnOld(cond),
	})
	if err != nil {
		return nil, err
	}
	return out.Attributes, nil
}

// CompiledUpdate is a conditional update whose expressions are written once
// and reused with new values on every call: for the one write every request
// makes (admission), where building expressions per call cost a third of a
// request's allocations. Only Update and Condition's placeholders appear in
// Names and the values given to Apply (DynamoDB refuses unused ones).
type CompiledUpdate struct {
	Update, Condition string
}

// ApplyCompiled applies u to the item at key (its attribute values, built
// once by the caller) with names and values, and returns the attributes the
// update changed (UPDATED_NEW). A failed condition carries the item found
// (FailedConditionItem).
func (t *Table) ApplyCompiled(ctx context.Context, key map[string]types.AttributeValue, u *CompiledUpdate, names map[string]string, values map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	out, err := t.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           &t.Name,
		Key:                                 key,
		UpdateExpression:                    &u.Update,
		ConditionExpression:                 &u.Condition,
		ExpressionAttributeNames:            names,
		ExpressionAttributeValues:           values,
		ReturnValues:                        types.ReturnValueUpdatedNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	if err != nil {
		return nil, err
	}
	return out.Attributes, nil
}
