// Package report is `bench report`: the figures the other commands saved,
// and the pipeline benchmarks' output, as one table.
package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/bizplatform/api/tools/bench/calls"
	"github.com/bizplatform/api/tools/bench/coldstart"
	"github.com/bizplatform/api/tools/bench/dataset"
	"github.com/bizplatform/api/tools/bench/kit"
	"github.com/bizplatform/api/tools/bench/load"
)

// Run prints the figures of the other steps as one table.
func Run(args []string) error {
	c := kit.NewCommand("report")
	if err := c.Parse(args); err != nil {
		return err
	}
	var perOp calls.Result
	if err := c.Load("calls.json", &perOp); err != nil {
		return err
	}
	var cold []coldstart.Figures
	if err := c.Load("coldstart.json", &cold); err != nil {
		return err
	}
	bench, err := readBenchmarks(filepath.Join(c.Dir, "pipeline.txt"))
	if err != nil {
		return err
	}
	coldByArea := map[string]coldstart.Figures{}
	for _, cs := range cold {
		coldByArea[cs.Area] = cs
	}

	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "operation\tcalls warm\trounds warm\tcalls cold\trounds cold\tpipeline µs/op\tallocs/op\tfunction\tsize MB\tcold start ratio\tfirst auth ms\tfirst auth / getitem\t")
	for _, o := range perOp.Operations {
		area := strings.Split(strings.TrimPrefix(o.Event, "events/"), "/")[0]
		name := "Operations/" + strings.TrimSuffix(strings.TrimPrefix(o.Event, "events/"), ".json")
		b := bench[name]
		cs := coldByArea[area]
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%.1f\t%.0f\t%s\t%.2f\t%.2f\t%.1f\t%.2f\t\n", o.Route, o.Warm.Calls, o.Warm.RoundTrips, o.Cold.Calls, o.Cold.RoundTrips,
			b.nsPerOp/1000, b.allocs, cs.Function, float64(cs.SizeBytes)/1e6, cs.Ratio, cs.FirstAuthMs, cs.AuthRatio)
	}
	_ = w.Flush()

	fmt.Println()
	fmt.Println("contacts list by page size (pipeline + handler, DynamoDB stubbed):")
	var pages []string
	for name := range bench {
		if strings.HasPrefix(name, "ListContactsPage/") {
			pages = append(pages, name)
		}
	}
	sort.Slice(pages, func(i, j int) bool { return pageSize(pages[i]) < pageSize(pages[j]) })
	for _, p := range pages {
		fmt.Printf("  %-10s %8.1f µs/op %6.0f allocs/op\n", strings.TrimPrefix(p, "ListContactsPage/"), bench[p].nsPerOp/1000, bench[p].allocs)
	}
	if len(cold) > 0 {
		var hello []float64
		for _, cs := range cold {
			hello = append(hello, cs.HelloMs)
		}
		fmt.Printf("\ncold start (this machine's binaries): hello-world median of medians %.1f ms; ratio = first answer without a token / hello-world, same rounds; first auth / getitem = first authenticated answer / one GetItem's function\n", kit.Median(hello))
		coldstart.PrintSummary(cold)
	}
	var arm []coldstart.Figures
	if err := c.Load(coldstart.File("arm64"), &arm); err == nil && len(arm) > 0 {
		fmt.Println("cold start, linux/arm64 binaries (bench coldstart -arch arm64):")
		coldstart.PrintSummary(arm)
	}

	var ds []dataset.Figure
	if err := c.Load("dataset.json", &ds); err == nil {
		fmt.Println("\ncontacts list and search, page of 20, by dataset:")
		for _, f := range ds {
			dataset.Print(f)
		}
	}
	var mixed load.Result
	if err := c.Load("load.json", &mixed); err != nil {
		return err
	}
	fmt.Printf("\nmixed load (%d requests, %d clients, devserver on DynamoDB Local): %.0f req/s, p50 %.1f ms, p99 %.1f ms, statuses %v, errors %d; devserver CPU %.0f µs/request\n",
		mixed.Requests, mixed.Concurrency, mixed.RPS, mixed.P50Ms, mixed.P99Ms, mixed.Statuses, mixed.Errors, mixed.ServerCPUPerRequestUs)
	fmt.Printf("DynamoDB Local ceiling %.0f GetItem/s / %.2f calls per request = %.0f req/s; ratio %.2f (target >= 0.70)\n",
		mixed.Ceiling, mixed.CallsPerReq, mixed.Ceiling/mixed.CallsPerReq, mixed.RatioToLimit)
	if mixed.EngineCPUPerRequestUs > 0 {
		fmt.Printf("DynamoDB Local CPU %.0f µs per GetItem, %.0f µs per request of the mix (%.1f GetItems): cost-weighted ceiling %.0f req/s; ratio %.2f\n",
			mixed.EngineCPUPerGetItemUs, mixed.EngineCPUPerRequestUs, mixed.EngineCPUPerRequestUs/mixed.EngineCPUPerGetItemUs, mixed.CostCeiling, mixed.RatioToCostCeiling)
	}
	return nil
}

func pageSize(name string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(name, "ListContactsPage/limit="))
	return n
}

type benchFigure struct{ nsPerOp, allocs float64 }

// readBenchmarks reads `go test -bench -benchmem` output: per benchmark (name
// without "Benchmark" and the -GOMAXPROCS suffix), the medians of its runs.
func readBenchmarks(path string) (map[string]benchFigure, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseBenchmarks(f)
}

func parseBenchmarks(r io.Reader) (map[string]benchFigure, error) {
	ns, allocs := map[string][]float64{}, map[string][]float64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(fields[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			switch fields[i+1] {
			case "ns/op":
				ns[name] = append(ns[name], v)
			case "allocs/op":
				allocs[name] = append(allocs[name], v)
			}
		}
	}
	out := map[string]benchFigure{}
	for name, v := range ns {
		out[name] = benchFigure{nsPerOp: kit.Median(v), allocs: kit.Median(allocs[name])}
	}
	return out, sc.Err()
}
