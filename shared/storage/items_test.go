package storage

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readCounter answers GetItem with a fixed item and counts the reads; any
// other call panics (the embedded API is nil).
type readCounter struct {
	API
	item  map[string]types.AttributeValue
	reads int
}

func (r *readCounter) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	r.reads++
	return &dynamodb.GetItemOutput{Item: r.item}, nil
}

func TestFoundByFailedConditionReadsOnlyWhatTheFailureLacks(t *testing.T) {
	type named struct {
		Key
		Name string `dynamodbav:"name"`
	}
	key := Key{PK: "P", SK: "S"}
	item := func(name string) map[string]types.AttributeValue {
		av := key.AV()
		av["name"] = &types.AttributeValueMemberS{Value: name}
		return av
	}
	for _, tc := range []struct {
		name      string
		condErr   error
		stored    map[string]types.AttributeValue
		wantName  string // "" means no item
		wantReads int
	}{
		{name: "the item the failure carries is taken without a read (DynamoDB)",
			condErr: &types.ConditionalCheckFailedException{Item: item("from failure")}, stored: item("stored"),
			wantName: "from failure", wantReads: 0},
		{name: "a failure without the item is followed by a read (dynalite)",
			condErr: &types.ConditionalCheckFailedException{}, stored: item("stored"),
			wantName: "stored", wantReads: 1},
		{name: "an item gone by the time of the read is nil",
			condErr: &types.ConditionalCheckFailedException{}, wantReads: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := &readCounter{item: tc.stored}
			got, err := FoundByFailedCondition[named](context.Background(), &Table{DB: db, Name: "t"}, key, tc.condErr)
			require.NoError(t, err)
			assert.Equal(t, tc.wantReads, db.reads)
			if tc.wantName == "" {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tc.wantName, got.Name)
		})
	}
}
