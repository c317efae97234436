// Command pretraffic is CodeDeploy's PreTraffic hook (PreTrafficHookFunction):
// it invokes the new version of a function before its alias moves any
// traffic there, and reports whether it works (shared/deployhook).
package main

import (
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/bizplatform/api/shared/deployhook"
)

func main() {
	h, err := deployhook.FromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pretraffic: %v\n", err)
		os.Exit(1)
	}
	lambda.Start(h.Handle)
}
