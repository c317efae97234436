// Command associations is the associations area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/associations"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(associations.Area) }
