// Command platformctl administers accounts, tokens and demo data, against the
// engine DYNAMODB_ENDPOINT names or, without it, the table TABLE_NAME in AWS.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}
