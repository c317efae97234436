// Command users is the users area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/functions/users/users"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(users.Area) }
