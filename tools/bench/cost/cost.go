// Package cost is `bench cost`: a million requests of the load's mix
// priced from their capacity units (bench calls) and duration (bench load).
package cost

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"text/tabwriter"

	"github.com/bizplatform/api/tools/bench/calls"
	"github.com/bizplatform/api/tools/bench/kit"
	"github.com/bizplatform/api/tools/bench/load"
)

// Prices, us-east-1, on demand, as AWS publishes them (DynamoDB's since its
// November 2024 cut); flags override them.
const (
	priceReadUnitsPerMillion  = 0.125        // DynamoDB read request units
	priceWriteUnitsPerMillion = 0.625        // DynamoDB write request units
	priceLambdaGBSecond       = 0.0000133334 // Lambda, arm64
	priceLambdaPerMillion     = 0.20         // Lambda requests
	priceHTTPAPIPerMillion    = 1.00         // API Gateway HTTP API, first 300 million a month
)

// Result is what `bench cost` saves: per operation its capacity units,
// what a million requests of the load's mix cost, and what the synthetic
// probe costs a month whatever the traffic.
type Result struct {
	Operations []OperationCost `json:"operations"`
	Mix        MixCost         `json:"mix"`
	Probe      ProbeCost       `json:"probe"`
}

// The synthetic probe (functions/probe): a run a minute, each a request
// without a token (answered before any DynamoDB call), the canary read
// (warm: the admission's write and a page of an empty list) and the
// OpenAPI document (the portal's function, no DynamoDB call).
const (
	ProbeRunsPerMonth   = 60 * 24 * 30
	probeRequestsPerRun = 3
	ProbeMemoryMB       = 128 // the template's ProbeFunction (a test checks it)
	// probeSeconds is a run's billed duration: three HTTPS requests to
	// the API, one after another, about 100 ms each warm.
	probeSeconds = 0.4
	// probeAnswerMs is each of the three requests' duration in the
	// function that answers it (256 MB), warm.
	probeAnswerMs  = 30
	probeWCUPerRun = 1   // the canary read's admission
	probeRCUPerRun = 0.5 // its list page, eventually consistent
)

// ProbeCost is the probe's month, in dollars.
type ProbeCost struct {
	Runs          int     `json:"runs"`
	LambdaProbe   float64 `json:"lambdaProbe"`   // its own requests and duration
	LambdaAnswers float64 `json:"lambdaAnswers"` // the functions answering it
	HTTPAPI       float64 `json:"httpApi"`
	DynamoDB      float64 `json:"dynamodb"`
	Total         float64 `json:"total"`
}

// Probe prices a month of the probe at the template's function memory.
func Probe(memoryMB int, p prices) ProbeCost {
	runs := float64(ProbeRunsPerMonth)
	c := ProbeCost{Runs: ProbeRunsPerMonth}
	c.LambdaProbe = runs*priceLambdaPerMillion/1e6 + runs*probeSeconds*ProbeMemoryMB/1024*p.gbSecond
	answers := runs * probeRequestsPerRun
	c.LambdaAnswers = answers*priceLambdaPerMillion/1e6 + answers*probeAnswerMs/1000*float64(memoryMB)/1024*p.gbSecond
	c.HTTPAPI = answers * priceHTTPAPIPerMillion / 1e6
	c.DynamoDB = runs * (probeWCUPerRun*p.write + probeRCUPerRun*p.read) / 1e6
	c.Total = c.LambdaProbe + c.LambdaAnswers + c.HTTPAPI + c.DynamoDB
	return c
}

// DefaultPrices are the prices above, for the tools that price with them.
func DefaultPrices() prices {
	return prices{read: priceReadUnitsPerMillion, write: priceWriteUnitsPerMillion, gbSecond: priceLambdaGBSecond}
}

// OperationCost is one operation's warm capacity units.
type OperationCost struct {
	Route  string  `json:"route"`
	RCU    float64 `json:"rcu"`
	WCU    float64 `json:"wcu"`
	Weight int     `json:"weight"` // in the load's mix, per 100 requests
}

// MixCost is a million requests of the load's mix, in dollars.
type MixCost struct {
	RCUPerRequest  float64 `json:"rcuPerRequest"`
	WCUPerRequest  float64 `json:"wcuPerRequest"`
	DurationMs     float64 `json:"durationMs"`
	MemoryMB       int     `json:"memoryMB"`
	DynamoDB       float64 `json:"dynamodb"`
	LambdaCompute  float64 `json:"lambdaCompute"`
	LambdaRequests float64 `json:"lambdaRequests"`
	HTTPAPI        float64 `json:"httpApi"`
	Total          float64 `json:"total"`
}

// Run prices a million requests of the load's mix from `bench calls`
// (capacity units per operation, warm) and `bench load` (the requests'
// median duration), at the template's function memory.
func Run(args []string) error {
	c := kit.NewCommand("cost")
	readPrice := c.Float64("read-units-price", priceReadUnitsPerMillion, "dollars per million read request units")
	writePrice := c.Float64("write-units-price", priceWriteUnitsPerMillion, "dollars per million write request units")
	gbSecond := c.Float64("lambda-gb-second", priceLambdaGBSecond, "dollars per GB-second of Lambda (arm64)")
	durationMs := c.Float64("duration-ms", 0, "billed duration per request (default: the load's median latency)")
	if err := c.Parse(args); err != nil {
		return err
	}
	var perOp calls.Result
	if err := c.Load("calls.json", &perOp); err != nil {
		return fmt.Errorf("run bench calls first: %w", err)
	}
	memory, err := TemplateMemory(filepath.Join(c.Root, "template.yaml"))
	if err != nil {
		return err
	}
	if *durationMs == 0 {
		var mixed load.Result
		if err := c.Load("load.json", &mixed); err != nil {
			return fmt.Errorf("run bench load first, or give -duration-ms: %w", err)
		}
		*durationMs = mixed.P50Ms
	}
	p := prices{read: *readPrice, write: *writePrice, gbSecond: *gbSecond}
	res := priceMix(perOp, load.Mix, memory, *durationMs, p)
	res.Probe = Probe(memory, p)
	if err := c.Save("cost.json", res); err != nil {
		return err
	}
	printCost(res)
	return nil
}

type prices struct{ read, write, gbSecond float64 }

// priceMix weighs each operation's warm units by the mix and prices a
// million requests.
func priceMix(perOp calls.Result, weights map[string]int, memoryMB int, durationMs float64, p prices) Result {
	var res Result
	total := 0
	for _, o := range perOp.Operations {
		w := weights[o.Route]
		res.Operations = append(res.Operations, OperationCost{Route: o.Route, RCU: o.Warm.RCU, WCU: o.Warm.WCU, Weight: w})
		res.Mix.RCUPerRequest += float64(w) * o.Warm.RCU
		res.Mix.WCUPerRequest += float64(w) * o.Warm.WCU
		total += w
	}
	if total > 0 {
		res.Mix.RCUPerRequest /= float64(total)
		res.Mix.WCUPerRequest /= float64(total)
	}
	sort.Slice(res.Operations, func(i, j int) bool { return res.Operations[i].Weight > res.Operations[j].Weight })
	m := &res.Mix
	m.MemoryMB, m.DurationMs = memoryMB, durationMs
	m.DynamoDB = m.RCUPerRequest*p.read + m.WCUPerRequest*p.write
	// Lambda bills each invocation's duration rounded up to the millisecond.
	m.LambdaCompute = math.Ceil(durationMs) / 1000 * float64(memoryMB) / 1024 * p.gbSecond * 1e6
	m.LambdaRequests = priceLambdaPerMillion
	m.HTTPAPI = priceHTTPAPIPerMillion
	m.Total = m.DynamoDB + m.LambdaCompute + m.LambdaRequests + m.HTTPAPI
	return res
}

var memorySize = regexp.MustCompile(`(?m)^\s+MemorySize:\s*(\d+)`)

// TemplateMemory is the functions' memory in template.yaml (Globals).
func TemplateMemory(path string) (int, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	m := memorySize.FindSubmatch(raw)
	if m == nil {
		return 0, fmt.Errorf("%s sets no MemorySize", path)
	}
	return strconv.Atoi(string(m[1]))
}

func printCost(res Result) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "operation\tmix weight\tRCU\tWCU\t$ per million (DynamoDB)")
	for _, o := range res.Operations {
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.3f\n", o.Route, o.Weight, o.RCU, o.WCU, o.RCU*priceReadUnitsPerMillion+o.WCU*priceWriteUnitsPerMillion)
	}
	_ = tw.Flush()
	m := res.Mix
	fmt.Printf("\na million requests of the load's mix: %.2f RCU and %.2f WCU per request; DynamoDB $%.2f, Lambda $%.2f (%.0f ms at %d MB, arm64) + $%.2f requests, HTTP API $%.2f: $%.2f\n",
		m.RCUPerRequest, m.WCUPerRequest, m.DynamoDB, m.LambdaCompute, math.Ceil(m.DurationMs), m.MemoryMB, m.LambdaRequests, m.HTTPAPI, m.Total)
	pc := res.Probe
	fmt.Printf("the probe, whatever the traffic: %d runs a month, %d requests to the API; Lambda $%.2f (the probe) + $%.2f (the functions answering it), HTTP API $%.2f, DynamoDB $%.2f: $%.2f a month\n",
		pc.Runs, pc.Runs*probeRequestsPerRun, pc.LambdaProbe, pc.LambdaAnswers, pc.HTTPAPI, pc.DynamoDB, pc.Total)
}
