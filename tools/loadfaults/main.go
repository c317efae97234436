// Command loadfaults is a correctness load with a fault: it runs the local
// server (cmd/devserver) on loopback against a DynamoDB Local of its own, drives
// a mixed workload of the 21 operations for a while, kills the engine once
// in the middle and brings it back (same port, same data), and then checks
// what users depend on:
//
//   - no 5xx (and no dropped connection) outside the outage window;
//   - every acknowledged write is in storage afterwards (creates found
//     exactly once, deletes gone, overwrites holding the last acknowledged
//     version or a later attempted one), and no write is duplicated;
//   - the rate limit is exact: within a window an account's admitted
//     requests never exceed the burst (their X-RateLimit-Remaining values
//     are all different), and a window that refused requests had admitted
//     the whole burst.
//
// It prints requests by status and operation and the checks' figures, and
// exits 1 when a check fails. Run it with `make load-faults`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

type options struct {
	duration   time.Duration
	outage     time.Duration
	rate       float64
	probeRate  float64
	workers    int
	burst      int
	window     time.Duration
	port       int
	enginePort int
	dataDir    string
}

func main() {
	var o options
	flag.DurationVar(&o.duration, "duration", 3*time.Minute, "how long the workload runs")
	flag.DurationVar(&o.outage, "outage", 5*time.Second, "how long the engine stays down, from the middle of the run")
	flag.Float64Var(&o.rate, "rate", 9, "requests per second of the main account's mixed workload (the default stays under the default limit of 100 per 10 s)")
	flag.Float64Var(&o.probeRate, "probe-rate", 20, "requests per second of the second account, above its limit, to check admission is exact")
	flag.IntVar(&o.workers, "workers", 6, "concurrent clients of the main workload")
	flag.IntVar(&o.burst, "burst", 100, "RATE_LIMIT_BURST of the server")
	flag.DurationVar(&o.window, "window", 10*time.Second, "RATE_LIMIT_WINDOW_SECONDS of the server (whole seconds)")
	flag.IntVar(&o.port, "port", 0, "the server's port (0: a free one)")
	flag.IntVar(&o.enginePort, "engine-port", 0, "the engine's port (0: a free one)")
	flag.StringVar(&o.dataDir, "data", "", "the engine's data directory (default: a temporary one, removed afterwards)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ok, err := run(ctx, o, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadfaults:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}
