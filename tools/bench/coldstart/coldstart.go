// Package coldstart is `bench coldstart` and `bench coldtrace`: each
// function started as Lambda starts it (a fresh process under a Runtime
// API) beside two yardsticks, hello world and one GetItem, timed from
// process start to first answer, and where that time goes.
package coldstart

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/tools/bench/kit"
)

// Figures are one function's start-up figures (milliseconds, medians over
// the rounds).
type Figures struct {
	Area      string  `json:"area"`
	Function  string  `json:"function"`
	Arch      string  `json:"arch"`      // what ran: native or arm64 (emulated unless the machine is arm64)
	SizeBytes int64   `json:"sizeBytes"` // linux/arm64 bootstrap
	HelloMs   float64 `json:"helloMs"`
	GetItemMs float64 `json:"getItemMs"`
	// NoTokenMs is the first answer to an event without a token: a 401 and
	// no DynamoDB call (the portal: its sign-in page, no DynamoDB call).
	NoTokenMs float64 `json:"noTokenMs"`
	// FirstAuthMs is the first authenticated answer (the portal: a signed-in
	// admin's accounts page).
	FirstAuthMs float64 `json:"firstAuthMs"`
	// Ratio is NoTokenMs / HelloMs: start-up without DynamoDB.
	Ratio float64 `json:"ratio"`
	// AuthRatio is FirstAuthMs / GetItemMs, the figure of issue 14 §8.
	AuthRatio float64 `json:"authRatio"`
	// FirstAuthStatuses are the first authenticated answers' statuses, in
	// the order first seen ("201 422": the first round created, the
	// others found it created).
	FirstAuthStatuses string `json:"firstAuthStatuses"`
	// Time to the end of initialisation (the first poll of the Runtime
	// API), the rest being the first answer itself.
	HelloInitMs    float64 `json:"helloInitMs"`
	GetItemInitMs  float64 `json:"getItemInitMs"`
	FunctionInitMs float64 `json:"functionInitMs"`
	// CPU time of the runs (see coldRun.CPU).
	GetItemCPUMs   float64 `json:"getItemCpuMs"`
	FirstAuthCPUMs float64 `json:"firstAuthCpuMs"`
	// Baseline is the -baseline revision, whose function's first
	// authenticated answer was timed in the same rounds.
	Baseline            string  `json:"baseline,omitempty"`
	BaselineFirstAuthMs float64 `json:"baselineFirstAuthMs,omitempty"`
	BaselineAuthRatio   float64 `json:"baselineAuthRatio,omitempty"`
	BaselineCPUMs       float64 `json:"baselineFirstAuthCpuMs,omitempty"`
	// BaselineDiffMs is the median over the rounds of each round's first
	// authenticated answer minus the baseline's.
	BaselineDiffMs float64 `json:"baselineDiffMs,omitempty"`
	TLS            bool    `json:"tls,omitempty"`
	// TryEnv is the -try-env setting, with which getitem and the function
	// were also started in the same rounds: their medians and the median
	// over the rounds of each round's difference (with it minus without).
	TryEnv             string  `json:"tryEnv,omitempty"`
	TryGetItemMs       float64 `json:"tryGetItemMs,omitempty"`
	TryFirstAuthMs     float64 `json:"tryFirstAuthMs,omitempty"`
	TryGetItemDiffMs   float64 `json:"tryGetItemDiffMs,omitempty"`
	TryFirstAuthDiffMs float64 `json:"tryFirstAuthDiffMs,omitempty"`
}

// Run builds every function and the two yardsticks (hello world,
// and one GetItem), and for several rounds starts, one after the other,
// hello, getitem, the function answering an event without a token, and the
// function answering its first sample event, timing process start to first
// answer under the Lambda Runtime API of the packaging test. With -arch
// arm64 the binaries are the Lambda's (linux/arm64), run under qemu on
// another machine. It also records the linux/arm64 binaries' sizes.
func Run(args []string) error {
	c := kit.NewCommand("coldstart")
	rounds := c.Int("rounds", 13, "starts of each binary per function")
	only := c.String("area", "", "measure this function only (an area, or portal)")
	arch := c.String("arch", "native", "native: binaries for this machine; arm64: the Lambda's linux/arm64 binaries (under qemu-aarch64-static unless this machine runs them)")
	useTLS := c.Bool("tls", false, "reach the engine over HTTPS, as Lambda reaches DynamoDB (each connection costs a TLS handshake)")
	baseline := c.String("baseline", "", "a git revision (main, a commit) whose functions' first authenticated answers are timed in the same rounds: before/after figures")
	tryEnv := c.String("try-env", "", "NAME=VALUE: also start getitem and the function with this variable in their environment, in the same rounds, to judge a deployment setting (which the yardstick would be deployed with too) by paired differences")
	if err := c.Parse(args); err != nil {
		return err
	}
	if *tryEnv != "" && !strings.Contains(*tryEnv, "=") {
		return fmt.Errorf("-try-env %q: want NAME=VALUE", *tryEnv)
	}
	ctx := context.Background()
	lab, err := newColdLab(ctx, c.Root, c.Dir, *arch)
	if err != nil {
		return err
	}
	defer lab.close()
	if *useTLS {
		if err := lab.serveTLS(); err != nil {
			return err
		}
	}
	baseDir := ""
	if *baseline != "" {
		if baseDir, err = lab.buildRevision(c.Root, *baseline, *arch); err != nil {
			return err
		}
	}

	var out []Figures
	for _, fn := range lab.functions(*only) {
		var hello, getItem, noToken, firstAuth, baseAuth, tryGetItem, tryAuth []coldRun
		type step struct {
			runs    *[]coldRun
			bin     string
			payload []byte
			env     []string
		}
		// One start of each, in turn, so that the machine's load falls on
		// all alike.
		steps := []step{
			{&hello, "hello", fn.authed, nil},
			{&getItem, "getitem", fn.authed, nil},
			{&noToken, fn.dir, fn.anon, nil},
			{&firstAuth, fn.dir, fn.authed, nil},
		}
		if baseDir != "" {
			steps = append(steps, step{&baseAuth, filepath.Join(baseDir, fn.dir), fn.authed, nil})
		}
		if *tryEnv != "" {
			steps = append(steps, step{&tryGetItem, "getitem", fn.authed, []string{*tryEnv}}, step{&tryAuth, fn.dir, fn.authed, []string{*tryEnv}})
		}
		for i := 0; i < *rounds; i++ {
			for _, step := range steps {
				run, err := lab.start(ctx, step.bin, step.payload, step.env...)
				if err != nil {
					return fmt.Errorf("%s: %w", step.bin, err)
				}
				*step.runs = append(*step.runs, run)
			}
			if got := noToken[i].Status; got != fn.anonStatus {
				return fmt.Errorf("%s answered %d to its first event without credentials, want %d", fn.dir, got, fn.anonStatus)
			}
		}
		st, err := os.Stat(filepath.Join(lab.armDir, fn.dir))
		if err != nil {
			return err
		}
		cs := Figures{
			Area: fn.dir, Function: catalog.FunctionName(fn.dir), Arch: *arch, SizeBytes: st.Size(),
			HelloMs: medianOf(hello, answerMs), GetItemMs: medianOf(getItem, answerMs),
			NoTokenMs: medianOf(noToken, answerMs), FirstAuthMs: medianOf(firstAuth, answerMs), FirstAuthStatuses: statuses(firstAuth),
			HelloInitMs: medianOf(hello, initMs), GetItemInitMs: medianOf(getItem, initMs), FunctionInitMs: medianOf(firstAuth, initMs),
			GetItemCPUMs: medianOf(getItem, cpuMs), FirstAuthCPUMs: medianOf(firstAuth, cpuMs), TLS: *useTLS,
		}
		cs.Ratio = cs.NoTokenMs / cs.HelloMs
		cs.AuthRatio = cs.FirstAuthMs / cs.GetItemMs
		if baseDir != "" {
			cs.Baseline, cs.BaselineFirstAuthMs = *baseline, medianOf(baseAuth, answerMs)
			cs.BaselineAuthRatio = cs.BaselineFirstAuthMs / cs.GetItemMs
			cs.BaselineCPUMs = medianOf(baseAuth, cpuMs)
			cs.BaselineDiffMs = pairedDiff(firstAuth, baseAuth)
		}
		if *tryEnv != "" {
			cs.TryEnv, cs.TryGetItemMs, cs.TryFirstAuthMs = *tryEnv, medianOf(tryGetItem, answerMs), medianOf(tryAuth, answerMs)
			cs.TryGetItemDiffMs, cs.TryFirstAuthDiffMs = pairedDiff(tryGetItem, getItem), pairedDiff(tryAuth, firstAuth)
		}
		out = append(out, cs)
		fmt.Printf("%-22s hello %6.1f  getitem %6.1f  no token %6.1f (x%.2f hello)  first auth %6.1f (x%.2f getitem, %s)  init: hello %.1f getitem %.1f function %.1f  CPU: getitem %.1f first auth %.1f ms  %5.2f MB\n",
			cs.Function, cs.HelloMs, cs.GetItemMs, cs.NoTokenMs, cs.Ratio, cs.FirstAuthMs, cs.AuthRatio, cs.FirstAuthStatuses,
			cs.HelloInitMs, cs.GetItemInitMs, cs.FunctionInitMs, cs.GetItemCPUMs, cs.FirstAuthCPUMs, float64(cs.SizeBytes)/1e6)
		if baseDir != "" {
			fmt.Printf("%-22s %s: first auth %6.1f (x%.2f getitem, %s)  CPU %.1f ms; this tree's minus %s's, per round: median %+.1f ms\n",
				"", *baseline, cs.BaselineFirstAuthMs, cs.BaselineAuthRatio, statuses(baseAuth), cs.BaselineCPUMs, *baseline, cs.BaselineDiffMs)
		}
		if *tryEnv != "" {
			fmt.Printf("%-22s with %s: getitem %6.1f  first auth %6.1f (x%.2f getitem); with minus without, per round: median getitem %+.1f ms, first auth %+.1f ms\n",
				"", cs.TryEnv, cs.TryGetItemMs, cs.TryFirstAuthMs, cs.TryFirstAuthMs/cs.TryGetItemMs, cs.TryGetItemDiffMs, cs.TryFirstAuthDiffMs)
		}
	}
	PrintSummary(out)
	return c.Save(File(*arch), out)
}

// pairedDiff is the median over the rounds of each round's a minus b.
func pairedDiff(a, b []coldRun) float64 {
	var diffs []float64
	for i := range a {
		diffs = append(diffs, answerMs(a[i])-answerMs(b[i]))
	}
	return kit.Median(diffs)
}

// File is where Run saves the figures of arch.
func File(arch string) string {
	if arch == "native" {
		return "coldstart.json"
	}
	return "coldstart-" + arch + ".json"
}

// PrintSummary prints the ratios over the functions: their median and
// range, and how many functions exceed issue 14's 1.3.
func PrintSummary(out []Figures) {
	if len(out) == 0 {
		return
	}
	summary := func(what string, ratio func(Figures) float64) {
		var xs []float64
		over := 0
		for _, cs := range out {
			xs = append(xs, ratio(cs))
			if ratio(cs) > 1.3 {
				over++
			}
		}
		sort.Float64s(xs)
		fmt.Printf("%s: median %.2f (%.2f-%.2f), %d of %d functions above 1.3\n", what, kit.Median(xs), xs[0], xs[len(xs)-1], over, len(out))
	}
	summary("first authenticated answer / getitem", func(cs Figures) float64 { return cs.AuthRatio })
	summary("  in CPU time", func(cs Figures) float64 { return cs.FirstAuthCPUMs / cs.GetItemCPUMs })
	if out[0].Baseline != "" {
		summary(out[0].Baseline+"'s first authenticated answer / getitem", func(cs Figures) float64 { return cs.BaselineAuthRatio })
		summary("  in CPU time", func(cs Figures) float64 { return cs.BaselineCPUMs / cs.GetItemCPUMs })
		// Each function's paired median swings by tens of ms between
		// identical binaries under emulation; their median over the
		// functions is the steadier before/after figure.
		var diffs []float64
		for _, cs := range out {
			diffs = append(diffs, cs.BaselineDiffMs)
		}
		fmt.Printf("  this tree's first authenticated answer minus %s's, median over the functions of each one's paired median: %+.1f ms\n", out[0].Baseline, kit.Median(diffs))
	}
	if out[0].TryEnv != "" {
		summary("with "+out[0].TryEnv+": first authenticated answer / getitem", func(cs Figures) float64 { return cs.TryFirstAuthMs / cs.TryGetItemMs })
		var gi, fa []float64
		for _, cs := range out {
			gi, fa = append(gi, cs.TryGetItemDiffMs), append(fa, cs.TryFirstAuthDiffMs)
		}
		fmt.Printf("  with minus without, medians over the functions of each one's paired median: getitem %+.1f ms, first auth %+.1f ms\n", kit.Median(gi), kit.Median(fa))
	}
	summary("first answer without a token / hello", func(cs Figures) float64 { return cs.Ratio })
}
