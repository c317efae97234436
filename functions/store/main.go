// Command store is the store area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/store"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(store.Area) }
