// Command portal is the portal's Lambda function: the account admins' web
// pages for API tokens, behind the same HTTP API as the areas.
package main

import (
	"github.com/bizplatform/api/portal"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.RunSite("portal", portal.LambdaHandler) }
