// Command products is the products area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/products"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(products.Area) }
