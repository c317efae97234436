package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Read is one item of ReadTogether: its key, and where to decode it.
type Read struct {
	Key Key
	// Into is a pointer the item is decoded into (untouched when there is
	// no item).
	Into any
	// Found, when not nil, is set to whether the item exists.
	Found *bool
}

// ErrTooManyReads: more than MaxTxItems items in one ReadTogether.
var ErrTooManyReads = fmt.Errorf("storage: one read together holds at most %d items", MaxTxItems)

// ReadTogether reads items as of one instant (TransactGetItems): where
// several items together state one fact (a token and its rotation, a
// default pointer and the board it names), no transaction's writes are seen
// half applied. It costs twice the read units of the same items read one by
// one; items that need not agree are read with Get or BatchGet.
func (t *Table) ReadTogether(ctx context.Context, reads ...Read) error {
	switch {
	case len(reads) == 0:
		return nil
	case len(reads) > MaxTxItems:
		return ErrTooManyReads
	}
	gets := make([]types.TransactGetItem, len(reads))
	for i, r := range reads {
		gets[i] = types.TransactGetItem{Get: &types.Get{TableName: aws.String(t.Name), Key: r.Key.AV()}}
	}
	out, err := t.DB.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: gets})
	if err != nil {
		return err
	}
	if len(out.Responses) != len(reads) {
		return errors.New("storage: a read together answered with another number of items")
	}
	for i, r := range reads {
		item := out.Responses[i].Item
		if r.Found != nil {
			*r.Found = len(item) > 0
		}
		if len(item) == 0 || r.Into == nil {
			continue
		}
		if err := attributevalue.UnmarshalMap(item, r.Into); err != nil {
			return fmt.Errorf("decode item %s/%s: %w", r.Key.PK, r.Key.SK, err)
		}
	}
	return nil
}
