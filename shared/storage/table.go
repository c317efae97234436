package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TableAdmin is the part of the client that makes and removes tables: for
// local engines and tests (on AWS the table comes from template.yaml, and
// no function's policy allows these calls).
type TableAdmin interface {
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, opts ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
	DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, opts ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error)
}

var _ TableAdmin = (*dynamodb.Client)(nil)

// CreateTableInput is the table's definition. template.yaml declares the same
// table for AWS; a test checks that the two agree.
func CreateTableInput(name string) *dynamodb.CreateTableInput {
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	return &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{s(AttrPK), s(AttrSK), s(AttrGSI1PK), s(AttrGSI1SK)},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(AttrPK), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(AttrSK), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String(IndexGSI1),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(AttrGSI1PK), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(AttrGSI1SK), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	}
}

// TimeToLiveInput turns on the table's TTL on AttrExpiresAt, as
// template.yaml does for AWS (a test checks that the two agree).
func TimeToLiveInput(name string) *dynamodb.UpdateTimeToLiveInput {
	return &dynamodb.UpdateTimeToLiveInput{
		TableName: aws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String(AttrExpiresAt),
			Enabled:       aws.Bool(true),
		},
	}
}

// CreateTable creates the table name as deployed (keys, index, TTL) when it
// does not exist, and waits until it is active. It reports whether it
// created the table. It is meant for local engines; on AWS the table comes
// from template.yaml.
func CreateTable(ctx context.Context, db TableAdmin, name string) (bool, error) {
	_, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err == nil {
		return false, waitActive(ctx, db, name)
	}
	var notFound *types.ResourceNotFoundException
	if !errors.As(err, &notFound) {
		return false, fmt.Errorf("describe table %s: %w", name, err)
	}
	if _, err := db.CreateTable(ctx, CreateTableInput(name)); err != nil {
		var inUse *types.ResourceInUseException
		if !errors.As(err, &inUse) {
			return false, fmt.Errorf("create table %s: %w", name, err)
		}
		return false, waitActive(ctx, db, name) // another process created it first
	}
	if err := waitActive(ctx, db, name); err != nil {
		return true, err
	}
	if _, err := db.UpdateTimeToLive(ctx, TimeToLiveInput(name)); err != nil {
		return true, fmt.Errorf("turn on TTL of table %s: %w", name, err)
	}
	return true, nil
}

// DeleteTable removes the table name (a test's table, when the test ends).
func DeleteTable(ctx context.Context, db TableAdmin, name string) error {
	_, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	var notFound *types.ResourceNotFoundException
	if errors.As(err, &notFound) {
		return nil
	}
	return err
}

func waitActive(ctx context.Context, db TableAdmin, name string) error {
	for {
		out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			return fmt.Errorf("describe table %s: %w", name, err)
		}
		if out.Table.TableStatus == types.TableStatusActive {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
