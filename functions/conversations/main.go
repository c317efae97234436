// Command conversations is the conversations area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/conversations"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(conversations.Area) }
