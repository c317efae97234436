// Command iamactions prints, as JSON, the AWS actions each given main
// package can call (see package iamcheck). The template consistency test runs
// it as a separate process, so the analysis is not slowed down by the race
// detector the tests run under.
//
//	go run ./tools/iamcheck/iamactions ./functions/contacts ./functions/users
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/bizplatform/api/tools/iamcheck"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: iamactions <main package>...")
		os.Exit(2)
	}
	actions, err := iamcheck.Actions(".", os.Args[1:]...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "iamactions:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(actions); err != nil {
		fmt.Fprintln(os.Stderr, "iamactions:", err)
		os.Exit(1)
	}
}
