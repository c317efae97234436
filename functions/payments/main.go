// Command payments is the payments area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/payments"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(payments.Area) }
