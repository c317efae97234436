// Command bench measures the API for `make bench`: DynamoDB calls per
// operation, cold starts, a mixed load against the local server, and list
// latency against dataset size; `bench report` prints them as one table.
// Each step writes its figures as JSON under -out, so the table can be
// printed again without measuring again. Each step is a package of its own
// here; what they share is in kit.
//
//	go run ./tools/bench calls      # calls and round trips per operation (warm, cold)
//	go run ./tools/bench coldstart  # process start to first answer vs hello world and one GetItem
//	go run ./tools/bench coldtrace  # where a cold start's time goes: init, each DynamoDB call
//	go run ./tools/bench load       # mixed load against the devserver, DynamoDB Local ceiling
//	go run ./tools/bench dataset    # list latency at 1k/10k(/100k) contacts
//	go run ./tools/bench cost       # capacity units per operation; a million requests of the mix priced
//	go run ./tools/bench watchcost  # log bytes per request with metrics; logs, metrics, X-Ray priced
//	go run ./tools/bench deliverer  # the webhook deliverer: a dead receiver's cost to the others, a flood's to memory
//	go run ./tools/bench report     # the table
package main

import (
	"fmt"
	"os"

	"github.com/bizplatform/api/tools/bench/calls"
	"github.com/bizplatform/api/tools/bench/coldstart"
	"github.com/bizplatform/api/tools/bench/cost"
	"github.com/bizplatform/api/tools/bench/dataset"
	"github.com/bizplatform/api/tools/bench/deliverer"
	"github.com/bizplatform/api/tools/bench/load"
	"github.com/bizplatform/api/tools/bench/report"
	"github.com/bizplatform/api/tools/bench/watchcost"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bench calls|coldstart|coldtrace|load|dataset|cost|watchcost|deliverer|report [flags]")
		os.Exit(2)
	}
	steps := map[string]func(args []string) error{
		"calls":     calls.Run,
		"coldstart": coldstart.Run,
		"coldtrace": coldstart.Trace,
		"load":      load.Run,
		"dataset":   dataset.Run,
		"deliverer": deliverer.Run,
		"cost":      cost.Run,
		"report":    report.Run,
		"watchcost": watchcost.Run,
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
