// Command probe is the synthetic probe (ProbeFunction): every minute it
// calls the deployed API through its public URL as a client would and
// writes a metric of the checks that failed (package probe). It uses no
// table: it links no Lambda adapter and no DynamoDB client's work.
package main

import (
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/bizplatform/api/probe"
)

func main() {
	p, err := probe.FromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "probe: %v\n", err)
		os.Exit(1)
	}
	lambda.Start(p.Handle)
}
