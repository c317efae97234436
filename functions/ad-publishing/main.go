// Command ad-publishing is the ad-publishing area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/adpublishing"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(adpublishing.Area) }
