package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/tools/lambdart"
	"github.com/bizplatform/api/tools/perf"
)

// lambdaFlags are the Makefile's LAMBDA_FLAGS.
var lambdaFlags = []string{"-tags", "lambda.norpc", "-trimpath", "-ldflags", "-s -w"}

// ColdStart are one function's start-up figures (milliseconds, medians).
type ColdStart struct {
	Area          string  `json:"area"`
	Function      string  `json:"function"`
	SizeBytes     int64   `json:"sizeBytes"` // linux/arm64 bootstrap
	HelloMs       float64 `json:"helloMs"`
	NoTokenMs     float64 `json:"noTokenMs"` // first answer: 401, no DynamoDB call
	FirstAuthMs   float64 `json:"firstAuthMs"`
	Ratio         float64 `json:"ratio"` // NoTokenMs / HelloMs
	AuthRatio     float64 `json:"authRatio"`
	FirstAuthCode int     `json:"firstAuthStatus"`
}

// runColdStart builds every function and the hello-world for this machine
// with the Lambda flags, and for several rounds starts, alternately, hello,
// the function answering an event without a token, and the function
// answering its first sample event, timing process start to first answer
// under the Lambda Runtime API of the packaging test. It also builds the
// linux/arm64 binaries and records their sizes.
func runColdStart(args []string) error {
	var c common
	fs := flag.NewFlagSet("coldstart", flag.ExitOnError)
	c.register(fs)
	rounds := fs.Int("rounds", 7, "starts of each binary")
	only := fs.String("area", "", "measure this area only")
	_ = fs.Parse(args)
	if err := c.init(); err != nil {
		return err
	}
	ctx := context.Background()
	binDir := filepath.Join(c.out, "coldstart")
	armDir := filepath.Join(c.out, "arm64")
	pkgs := []string{"./tools/perf/hello"}
	for _, area := range operations.Areas {
		pkgs = append(pkgs, "./functions/"+area)
	}
	if err := goBuild(c.root, binDir, "", pkgs); err != nil {
		return err
	}
	if err := goBuild(c.root, armDir, "arm64", pkgs[1:]); err != nil {
		return err
	}

	eng, err := startEngine(ctx, c.root)
	if err != nil {
		return err
	}
	defer eng.stop()
	table, err := eng.demoTable(ctx)
	if err != nil {
		return err
	}
	events, err := perf.ReadEvents(c.root)
	if err != nil {
		return err
	}
	env := []string{
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=256", "AWS_LAMBDA_FUNCTION_VERSION=$LATEST", "AWS_REGION=us-east-1",
		"TABLE_NAME=" + table.Name, "DYNAMODB_ENDPOINT=" + eng.srv.Endpoint, "LOG_LEVEL=INFO",
	}
	var out []ColdStart
	for _, area := range operations.Areas {
		if *only != "" && area != *only {
			continue
		}
		var first perf.Event
		for _, ev := range events {
			if ev.Area == area {
				first = ev
				break
			}
		}
		authed, err := eventPayload(c.root, first, true)
		if err != nil {
			return err
		}
		anon, err := eventPayload(c.root, first, false)
		if err != nil {
			return err
		}
		var hello, noToken, firstAuth []float64
		status := 0
		for i := 0; i < *rounds; i++ {
			d, _, err := firstAnswer(ctx, filepath.Join(binDir, "hello"), env, authed)
			if err != nil {
				return fmt.Errorf("hello: %w", err)
			}
			hello = append(hello, d)
			d, code, err := firstAnswer(ctx, filepath.Join(binDir, area), env, anon)
			if err != nil {
				return fmt.Errorf("%s: %w", area, err)
			}
			if code != 401 {
				return fmt.Errorf("%s answered %d to an event without a token", area, code)
			}
			noToken = append(noToken, d)
			d, status, err = firstAnswer(ctx, filepath.Join(binDir, area), env, authed)
			if err != nil {
				return fmt.Errorf("%s: %w", area, err)
			}
			firstAuth = append(firstAuth, d)
		}
		st, err := os.Stat(filepath.Join(armDir, area))
		if err != nil {
			return err
		}
		cs := ColdStart{Area: area, Function: catalog.FunctionName(area), SizeBytes: st.Size(),
			HelloMs: median(hello), NoTokenMs: median(noToken), FirstAuthMs: median(firstAuth), FirstAuthCode: status}
		cs.Ratio = cs.NoTokenMs / cs.HelloMs
		cs.AuthRatio = cs.FirstAuthMs / cs.HelloMs
		out = append(out, cs)
		fmt.Printf("%-22s %6.1f ms hello  %6.1f ms no token (ratio %.2f)  %6.1f ms first authenticated (%d)  %5.2f MB\n",
			cs.Function, cs.HelloMs, cs.NoTokenMs, cs.Ratio, cs.FirstAuthMs, status, float64(cs.SizeBytes)/1e6)
	}
	return c.save("coldstart.json", out)
}

func goBuild(root, dir, goarch string, pkgs []string) error {
	args := append([]string{"build"}, lambdaFlags...)
	args = append(args, "-o", dir+string(filepath.Separator))
	args = append(args, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if goarch != "" {
		cmd.Env = append(cmd.Env, "GOOS=linux", "GOARCH="+goarch)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v: %s", err, out)
	}
	return nil
}

// eventPayload is ev's file, with or without its token.
func eventPayload(root string, ev perf.Event, withToken bool) ([]byte, error) {
	raw, err := os.ReadFile(filepath.Join(root, ev.File))
	if err != nil || withToken {
		return raw, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	delete(m["headers"].(map[string]any), "authorization")
	return json.Marshal(m)
}

// firstAnswer starts bin under a fresh Runtime API and returns the time from
// process start to its answer to payload, in milliseconds.
func firstAnswer(ctx context.Context, bin string, env []string, payload []byte) (float64, int, error) {
	rt, err := lambdart.Start()
	if err != nil {
		return 0, 0, err
	}
	defer rt.Close()
	cmd := exec.Command(bin)
	cmd.Env = append([]string{"AWS_LAMBDA_RUNTIME_API=" + rt.Addr, "AWS_LAMBDA_FUNCTION_NAME=" + filepath.Base(bin)}, env...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	res, err := rt.Invoke(ctx, payload)
	d := time.Since(start)
	if err != nil {
		return 0, 0, err
	}
	gr, err := lambdart.DecodeGatewayResponse(res)
	if err != nil {
		return 0, 0, err
	}
	return float64(d.Microseconds()) / 1000, gr.StatusCode, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
