// Command oauth is the OAuth 2.0 server of marketplace apps (OAuthFunction):
// the token endpoint and the company-token operations under /oauth. It is the
// only function that links the OAuth library (a test checks it).
package main

import (
	"github.com/bizplatform/api/oauth"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.RunSite("oauth", oauth.LambdaHandler) }
