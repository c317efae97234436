// Command custom-fields is the custom-fields area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/customfields"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(customfields.Area) }
