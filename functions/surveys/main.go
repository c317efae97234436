// Command surveys is the surveys area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/surveys"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(surveys.Area) }
