// Command brand-boards is the brand-boards area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/brandboards"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(brandboards.Area) }
