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

// CreateIfMissing creates the table when it does not exist and waits until it
// is active. It reports whether it created the table. It is meant for local
// engines; on AWS the table comes from template.yaml.
func (t *Table) CreateIfMissing(ctx context.Context) (bool, error) {
	_, err := t.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(t.Name)})
	if err == nil {
		return false, t.waitActive(ctx)
	}
	var notFound *types.ResourceNotFoundException
	if !errors.As(err, &notFound) {
		return false, fmt.Errorf("describe table %s: %w", t.Name, err)
	}
	if _, err := t.DB.CreateTable(ctx, CreateTableInput(t.Name)); err != nil {
		var inUse *types.ResourceInUseException
		if !errors.As(err, &inUse) {
			return false, fmt.Errorf("create table %s: %w", t.Name, err)
		}
	}
	return true, t.waitActive(ctx)
}

func (t *Table) waitActive(ctx context.Context) error {
	for {
		out, err := t.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(t.Name)})
		if err != nil {
			return fmt.Errorf("describe table %s: %w", t.Name, err)
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
