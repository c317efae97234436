// Command contacts is the contacts area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(contacts.Area) }
