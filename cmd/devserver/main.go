// Command devserver runs every area of the API in one local process on
// http://127.0.0.1:3000, backed by DynamoDB Local (started here, data kept
// under .local/dynamodb-data) or by the engine DYNAMODB_ENDPOINT names.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "devserver:", err)
		os.Exit(1)
	}
}
