// Command campaigns is the campaigns area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/campaigns"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(campaigns.Area) }
