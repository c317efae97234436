// Command events is the events area (GET /events) as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/events"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(events.Area) }
