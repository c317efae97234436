// Command bench measures the API for `make bench`: DynamoDB calls per
// operation, cold starts, a mixed load against the local server, and list
// latency against dataset size; `bench report` prints them as one table.
// Each step writes its figures as JSON under -out, so the table can be
// printed again without measuring again.
//
//	go run ./tools/bench calls      # calls and round trips per operation (warm, cold)
//	go run ./tools/bench coldstart  # process start to first answer vs hello world and one GetItem
//	go run ./tools/bench coldtrace  # where a cold start's time goes: init, each DynamoDB call
//	go run ./tools/bench load       # mixed load against the devserver, DynamoDB Local ceiling
//	go run ./tools/bench dataset    # list latency at 1k/10k(/100k) contacts
//	go run ./tools/bench cost       # capacity units per operation; a million requests of the mix priced
//	go run ./tools/bench report     # the table
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bizplatform/api/internal/dynamodblocal"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bench calls|coldstart|coldtrace|load|dataset|cost|report [flags]")
		os.Exit(2)
	}
	steps := map[string]func(args []string) error{
		"calls":     runCalls,
		"coldstart": runColdStart,
		"coldtrace": runColdTrace,
		"load":      runLoad,
		"dataset":   runDataset,
		"cost":      runCost,
		"report":    runReport,
	}
	step, ok := steps[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "bench: unknown step %q\n", os.Args[1])
		os.Exit(2)
	}
	if err := step(os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "bench %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

// common flags of every step
type common struct {
	out  string
	root string
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.out, "out", "bin/bench", "directory of the JSON results")
}

func (c *common) init() error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if c.root, err = dynamodblocal.FindRoot(wd); err != nil {
		return err
	}
	if !filepath.IsAbs(c.out) {
		c.out = filepath.Join(c.root, c.out)
	}
	return os.MkdirAll(c.out, 0o755)
}

func (c *common) save(name string, v any) error {
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(c.out, name), raw, 0o644)
}

func (c *common) load(name string, v any) error {
	raw, err := os.ReadFile(filepath.Join(c.out, name))
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}
