// Package storage is the single DynamoDB table every area shares: its key
// schema, item helpers, queries, transactions, versioned updates, the
// admission gate on its writes, and its creation for local use. Package
// dynamo builds its client and turns the client's failures into API errors.
package storage

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Attribute and index names of the table.
const (
	AttrPK     = "PK"
	AttrSK     = "SK"
	AttrGSI1PK = "GSI1PK"
	AttrGSI1SK = "GSI1SK"
	// AttrExpiresAt is the table's TTL attribute (epoch seconds).
	AttrExpiresAt = "expiresAt"
	// IndexGSI1 serves listings in an order other than the item's sort key
	// (contacts by date added).
	IndexGSI1 = "GSI1"
)

// API is the part of the DynamoDB client the code calls. It is narrow so
// that a benchmark can answer instantly in place of the engine.
type API interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
	TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
	TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error)
}

var _ API = (*dynamodb.Client)(nil)

// Table is the table name and the client, built once per process.
type Table struct {
	DB   API
	Name string
}

// Key is a primary key of the table.
type Key struct {
	PK string `dynamodbav:"PK"`
	SK string `dynamodbav:"SK"`
}

// AV returns the key as DynamoDB attribute values.
func (k Key) AV() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		AttrPK: &types.AttributeValueMemberS{Value: k.PK},
		AttrSK: &types.AttributeValueMemberS{Value: k.SK},
	}
}

// AccountPK is the partition of everything an account owns.
func AccountPK(accountID string) string { return "ACCOUNT#" + accountID }

// CompanyPK is the partition of everything a company owns (its users).
func CompanyPK(companyID string) string { return "COMPANY#" + companyID }

// IsConditionFailed reports whether err is a failed condition expression:
// of a single write, or of a transaction's write (TxConditionFailed).
func IsConditionFailed(err error) bool {
	var cf *types.ConditionalCheckFailedException
	var txf *TxConditionFailed
	return errors.As(err, &cf) || errors.As(err, &txf)
}
