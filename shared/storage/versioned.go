package storage

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/apierror"
)

// AttrVersion is the attribute UpdateVersioned counts an item's writes in.
const AttrVersion = "version"

// MaxUpdateAttempts bounds the read-change-write cycles of one
// UpdateVersioned. Each lost cycle means another writer's update of the same
// item was stored, so ten absorb any realistic burst of writers on one item
// (n writers need at most n cycles each); past them the client retries.
const MaxUpdateAttempts = 10

// updatePauseStep is the growth of the pause between cycles: before cycle
// n+1 the update waits a random time below n × updatePauseStep, so writers
// that lost the same race spread out instead of colliding again.
const updatePauseStep = 5 * time.Millisecond

// ErrContention is the cause of the 503 an update answers when it lost
// MaxUpdateAttempts cycles in a row to other writers.
var ErrContention = errors.New("storage: concurrent updates of the item kept conflicting")

// ErrNoChange is what a change function returns when the item needs no
// write: UpdateVersioned then ends without writing and returns the item as
// read.
var ErrNoChange = errors.New("storage: nothing to change")

// UpdateOption changes how UpdateVersioned reads the item.
type UpdateOption func(*updateOptions)

type updateOptions struct {
	read func(ctx context.Context) (map[string]types.AttributeValue, error)
	// along adds writes to the put of the changed item (given as a *T).
	along func(tx *Tx, changed any)
}

// Alongside makes each write of UpdateVersioned a transaction: the put of
// the changed item and the writes add adds for it (the change's event), so
// that they exist exactly when the change does. add may run once per cycle,
// with that cycle's item; it is not called when nothing changed.
func Alongside[T any](add func(tx *Tx, changed *T)) UpdateOption {
	return func(o *updateOptions) {
		o.along = func(tx *Tx, changed any) { add(tx, changed.(*T)) }
	}
}

// ReadWith replaces UpdateVersioned's read of the item (a consistent
// GetItem) by read, which returns the item's attributes, or nil when there is
// no item. It lets a caller read the item together with others in one call
// (a record and its children in one Query), keeping what else it read in its
// closure.
func ReadWith(read func(ctx context.Context) (map[string]types.AttributeValue, error)) UpdateOption {
	return func(o *updateOptions) { o.read = read }
}

// UpdateVersioned changes the item at key by optimistic locking, so that
// concurrent updates of one item are applied one after the other and none is
// lost:
//
//  1. read the item and its version (the AttrVersion attribute);
//  2. call change on it; an error from change ends the update and is
//     returned as it is (a rule the stored item breaks, say), and ErrNoChange
//     ends it without a write;
//  3. put the changed item with version+1, on condition that the stored
//     version is still the one read. An item without the attribute (written
//     by hand, or before versions existed) counts as version 0: the
//     condition is then that it still has none, and the write gives it 1;
//  4. if another write came in between, the condition fails and the cycle
//     runs again on the newer item, after a short random pause (below
//     n × 5 ms before cycle n+1) that ends early, with the context's error
//     classified as a 503, when ctx is done.
//
// change may therefore run several times: it must derive everything from the
// item it is given (state meant to last across cycles lives in the caller's
// closure). After MaxUpdateAttempts lost cycles UpdateVersioned gives up with
// apierror.Unavailable (503, Retry-After: 1 s; its cause is ErrContention).
// It returns the item as written (its version field, if T declares one,
// updated too), or nil, nil when there is no item at key.
func UpdateVersioned[T any](ctx context.Context, t *Table, key Key, change func(*T) error, opts ...UpdateOption) (*T, error) {
	o := updateOptions{read: func(ctx context.Context) (map[string]types.AttributeValue, error) { return t.getItem(ctx, key, true) }}
	for _, opt := range opts {
		opt(&o)
	}
	for cycle := 1; ; cycle++ {
		raw, err := o.read(ctx)
		if err != nil || raw == nil {
			return nil, err
		}
		item, done, err := changeOnce(ctx, t, key, raw, change, o.along)
		if err != nil || done {
			return item, err
		}
		if cycle == MaxUpdateAttempts {
			return nil, apierror.Unavailable(fmt.Errorf("%w: %d attempts at %s/%s", ErrContention, cycle, key.PK, key.SK), time.Second)
		}
		if err := Pause(ctx, rand.N(time.Duration(cycle)*updatePauseStep)); err != nil {
			return nil, err
		}
	}
}

// changeOnce runs one cycle on the item read as raw. It reports done false,
// without error, when another write came first.
func changeOnce[T any](ctx context.Context, t *Table, key Key, raw map[string]types.AttributeValue, change func(*T) error, along func(*Tx, any)) (*T, bool, error) {
	read, versioned, err := versionOf(raw)
	if err != nil {
		return nil, false, fmt.Errorf("item %s/%s: %w", key.PK, key.SK, err)
	}
	var item T
	if err := attributevalue.UnmarshalMap(raw, &item); err != nil {
		return nil, false, fmt.Errorf("decode item %s/%s: %w", key.PK, key.SK, err)
	}
	switch err := change(&item); {
	case errors.Is(err, ErrNoChange):
		var unchanged T // as read, whatever change did to item
		if err := attributevalue.UnmarshalMap(raw, &unchanged); err != nil {
			return nil, false, fmt.Errorf("decode item %s/%s: %w", key.PK, key.SK, err)
		}
		return &unchanged, true, nil
	case err != nil:
		return nil, false, err
	}
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		return nil, false, fmt.Errorf("encode item %s/%s: %w", key.PK, key.SK, err)
	}
	next := map[string]types.AttributeValue{AttrVersion: &types.AttributeValueMemberN{Value: strconv.FormatInt(read+1, 10)}}
	for name, v := range key.AV() {
		next[name] = v
	}
	for name, v := range next {
		av[name] = v
	}
	cond := sameVersion(read, versioned)
	if along == nil {
		err = t.putItem(ctx, av, &cond)
	}
	// The item as written: its own version field, if it has one, follows.
	if err := attributevalue.UnmarshalMap(next, &item); err != nil {
		return nil, false, fmt.Errorf("decode version of %s/%s: %w", key.PK, key.SK, err)
	}
	if along != nil {
		tx := t.Tx().putAV(av, &cond)
		along(tx, &item)
		err = tx.Commit(ctx)
	}
	if IsConditionFailed(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return &item, true, nil
}

// sameVersion is the condition that the item is still at the version read
// (or, when it had none, still exists without one).
func sameVersion(read int64, versioned bool) expression.ConditionBuilder {
	if !versioned {
		return expression.AttributeExists(expression.Name(AttrPK)).And(expression.AttributeNotExists(expression.Name(AttrVersion)))
	}
	return expression.Name(AttrVersion).Equal(expression.Value(read))
}

// versionOf returns the item's version and whether it has one.
func versionOf(raw map[string]types.AttributeValue) (int64, bool, error) {
	attr, ok := raw[AttrVersion]
	if !ok {
		return 0, false, nil
	}
	var v int64
	if err := attributevalue.Unmarshal(attr, &v); err != nil {
		return 0, false, fmt.Errorf("attribute %s is not a whole number: %w", AttrVersion, err)
	}
	return v, true, nil
}

// Pause waits d before a retry. When ctx is done first (the request's
// deadline, or the client gone) it answers 503 with Retry-After, as the
// client's own bounds do (dynamo.Classify).
func Pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return apierror.Unavailable(ctx.Err(), time.Second)
	case <-t.C:
		return nil
	}
}
