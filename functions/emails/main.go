// Command emails is the emails area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/emails"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(emails.Area) }
