// Command users is the users area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/users"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(users.Area) }
