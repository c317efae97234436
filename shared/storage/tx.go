package storage

import (
	"context"
	cryptorand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/apierror"
)

// A Tx is a set of writes to the table that DynamoDB applies all together or
// not at all (TransactWriteItems): the way to keep a fact that spans several
// items, such as "an address belongs to at most one user" (a claim item and
// the user item) or "a rotated token and its successor" (both token items and
// their listings). Each write may carry a condition that must hold for the
// whole transaction to apply; Else names the answer a failed condition
// gives, so that a caller turns DynamoDB's cancellation reasons into 409,
// 404 or 422 in one place:
//
//	err := table.Tx().
//		Put(claim, storage.ItemAbsent()).Else(apierror.Conflict("address taken")).
//		Put(user, storage.ItemAbsent()).
//		Commit(ctx)
//
// A transaction costs twice the write units of the same writes made one by
// one (docs/design.md says which invariants pay for one).
type Tx struct {
	table *Table
	items []types.TransactWriteItem
	// orElse[i] is the answer when item i's condition fails (nil: a
	// *TxConditionFailed).
	orElse []error
	err    error
}

// MaxTxItems is DynamoDB's limit of writes in one transaction.
const MaxTxItems = 100

// Tx starts a transaction on the table.
func (t *Table) Tx() *Tx { return &Tx{table: t} }

// Put adds a put of item (a struct with PK and SK attributes, or a Keyed
// record), on condition cond when it is not nil.
func (tx *Tx) Put(item any, cond *expression.ConditionBuilder) *Tx {
	if tx.err != nil {
		return tx
	}
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return tx.fail(fmt.Errorf("encode item: %w", err))
	}
	return tx.putAV(av, cond)
}

// putAV adds a put of the attributes av.
func (tx *Tx) putAV(av map[string]types.AttributeValue, cond *expression.ConditionBuilder) *Tx {
	if tx.err != nil {
		return tx
	}
	expr, err := conditionOf(cond)
	if err != nil {
		return tx.fail(err)
	}
	return tx.add(types.TransactWriteItem{Put: &types.Put{
		TableName: aws.String(tx.table.Name), Item: av,
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: returnOld(cond),
	}})
}

// Update adds update of the item at key, on condition cond when it is not
// nil. An update of a missing item creates it unless cond requires it.
func (tx *Tx) Update(key Key, update expression.UpdateBuilder, cond *expression.ConditionBuilder) *Tx {
	if tx.err != nil {
		return tx
	}
	b := expression.NewBuilder().WithUpdate(update)
	if cond != nil {
		b = b.WithCondition(*cond)
	}
	expr, err := b.Build()
	if err != nil {
		return tx.fail(fmt.Errorf("build update: %w", err))
	}
	return tx.add(types.TransactWriteItem{Update: &types.Update{
		TableName: aws.String(tx.table.Name), Key: key.AV(), UpdateExpression: expr.Update(),
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: returnOld(cond),
	}})
}

// Delete adds a delete of the item at key, on condition cond when it is not
// nil.
func (tx *Tx) Delete(key Key, cond *expression.ConditionBuilder) *Tx {
	if tx.err != nil {
		return tx
	}
	expr, err := conditionOf(cond)
	if err != nil {
		return tx.fail(err)
	}
	return tx.add(types.TransactWriteItem{Delete: &types.Delete{
		TableName: aws.String(tx.table.Name), Key: key.AV(),
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: returnOld(cond),
	}})
}

// Check adds a condition on the item at key that the transaction needs
// without writing that item (it must still hold when the writes apply).
func (tx *Tx) Check(key Key, cond expression.ConditionBuilder) *Tx {
	if tx.err != nil {
		return tx
	}
	expr, err := conditionOf(&cond)
	if err != nil {
		return tx.fail(err)
	}
	return tx.add(types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
		TableName: aws.String(tx.table.Name), Key: key.AV(),
		ConditionExpression: expr.Condition(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}})
}

// Else sets the answer Commit returns when the condition of the write added
// last fails (an *apierror.Error such as a 409 or a 404, or a sentinel the
// caller matches with errors.Is).
func (tx *Tx) Else(err error) *Tx {
	if tx.err == nil && len(tx.orElse) > 0 {
		tx.orElse[len(tx.orElse)-1] = err
	}
	return tx
}

// Abort makes Commit return err and write nothing: for a caller that could
// not build one of the transaction's items.
func (tx *Tx) Abort(err error) *Tx {
	if tx.err == nil {
		tx.err = err
	}
	return tx
}

// Len is the number of writes and checks added so far.
func (tx *Tx) Len() int { return len(tx.items) }

func (tx *Tx) add(item types.TransactWriteItem) *Tx {
	tx.items = append(tx.items, item)
	tx.orElse = append(tx.orElse, nil)
	return tx
}

func (tx *Tx) fail(err error) *Tx {
	tx.err = err
	return tx
}

func returnOld(cond *expression.ConditionBuilder) types.ReturnValuesOnConditionCheckFailure {
	if cond == nil {
		return ""
	}
	return types.ReturnValuesOnConditionCheckFailureAllOld
}

// TxConditionFailed is Commit's error when the condition of write Index
// failed and no Else answer was set. Item is what was stored at that key
// (nil when there was nothing). IsConditionFailed and FailedConditionItem
// see it as a failed condition.
type TxConditionFailed struct {
	Index int
	Item  map[string]types.AttributeValue
	cause error
}

func (e *TxConditionFailed) Error() string {
	return fmt.Sprintf("storage: transaction canceled: condition of write %d failed", e.Index)
}

func (e *TxConditionFailed) Unwrap() error { return e.cause }

// Errors of Commit.
var (
	// ErrTxTooLarge: more than MaxTxItems writes.
	ErrTxTooLarge = fmt.Errorf("storage: a transaction holds at most %d writes", MaxTxItems)
	// ErrTxConflict is the cause of the 503 a transaction answers when other
	// transactions on its items kept conflicting with it.
	ErrTxConflict = errors.New("storage: concurrent transactions on the items kept conflicting")
)

// txAttempts bounds the attempts of one Commit that other transactions on
// the same items cancel (DynamoDB's TransactionConflict).
const txAttempts = 6

// Commit applies the writes all together, or none of them:
//
//   - nil: every write applied;
//   - a failed condition: the Else answer of the first write whose
//     condition failed, or a *TxConditionFailed;
//   - another transaction on one of the items at the same moment
//     (TransactionConflict): the transaction is tried again after a short
//     random pause, up to txAttempts times, then answers 503 (ErrTxConflict);
//   - anything else: the error as the client classified it.
//
// Every attempt of one Commit carries the same ClientRequestToken, so an
// attempt whose answer was lost but which DynamoDB applied is not applied
// twice: its retry succeeds without writing again.
func (tx *Tx) Commit(ctx context.Context) error {
	switch {
	case tx.err != nil:
		return tx.err
	case len(tx.items) == 0:
		return nil
	case len(tx.items) > MaxTxItems:
		return ErrTxTooLarge
	}
	in := &dynamodb.TransactWriteItemsInput{TransactItems: tx.items, ClientRequestToken: aws.String(newRequestToken())}
	for attempt := 1; ; attempt++ {
		_, err := tx.table.DB.TransactWriteItems(ctx, in)
		if err == nil {
			return nil
		}
		var canceled *types.TransactionCanceledException
		if !errors.As(err, &canceled) {
			return err
		}
		failed, conflict := -1, false
		for i, r := range canceled.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "ConditionalCheckFailed":
				if failed < 0 {
					failed = i
				}
			case "TransactionConflict":
				conflict = true
			}
		}
		if failed >= 0 {
			if answer := tx.orElse[failed]; answer != nil {
				return answer
			}
			return &TxConditionFailed{Index: failed, Item: canceled.CancellationReasons[failed].Item, cause: err}
		}
		if !conflict {
			return err
		}
		if attempt == txAttempts {
			return apierror.Unavailable(fmt.Errorf("%w: %d attempts", ErrTxConflict, attempt), time.Second)
		}
		// A new token: the canceled attempt applied nothing.
		in.ClientRequestToken = aws.String(newRequestToken())
		if err := Pause(ctx, rand.N(time.Duration(attempt)*updatePauseStep)); err != nil {
			return err
		}
	}
}

// newRequestToken is a transaction's idempotency token (at most 36
// characters).
func newRequestToken() string {
	var b [16]byte
	_, _ = cryptorand.Read(b[:])
	return hex.EncodeToString(b[:])
}
