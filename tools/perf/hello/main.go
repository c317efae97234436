// Command hello is the smallest aws-lambda-go function answering an API
// Gateway HTTP API event: the yardstick of `bench coldstart`, built with the
// same flags as the functions.
package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
)

func main() {
	lambda.Start(func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		return events.APIGatewayV2HTTPResponse{StatusCode: 200, Headers: map[string]string{"Content-Type": "application/json"}, Body: `{"hello":"world"}`}, nil
	})
}
