// Command getitem is the smallest Lambda function that talks to DynamoDB:
// on each event it makes one GetItem on TABLE_NAME with the client the
// functions build (dynamo.NewClient: region and credentials from the
// environment, DYNAMODB_ENDPOINT for a local engine) and answers. It is the
// yardstick of `bench coldstart` for a function's first authenticated
// answer, built with the same flags as the functions.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

func main() {
	db, err := dynamo.NewClient(context.Background(), os.Getenv("DYNAMODB_ENDPOINT"), os.Getenv("AWS_REGION"), nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "getitem:", err)
		os.Exit(1)
	}
	table := os.Getenv("TABLE_NAME")
	key := storage.Key{PK: "GETITEM", SK: "GETITEM"}.AV()
	lambda.Start(func(ctx context.Context, _ events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key})
		if err != nil {
			return events.APIGatewayV2HTTPResponse{}, err
		}
		return events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{"Content-Type": "application/json"},
			Body: fmt.Sprintf(`{"found":%t}`, out.Item != nil)}, nil
	})
}
