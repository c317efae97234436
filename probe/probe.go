// Package probe is the synthetic probe (functions/probe, ProbeFunction):
// every minute it calls the deployed API through its public URL as a
// client would (a request without a token, a read with the canary token,
// the OpenAPI document) and writes one line whose ProbeFailures metric
// counts the checks that failed. Its alarm reads that metric and takes
// silence for failure, so an API that fails, or that nothing reaches,
// pages within minutes at any traffic (docs/operations.md).
package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/shared/apicheck"
	"github.com/bizplatform/api/shared/canary"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/metrics"
)

// requestTimeout bounds each check; a run makes three, one after another,
// well within the function's timeout.
const requestTimeout = 8 * time.Second

// maxBody bounds what a check reads of an answer (the OpenAPI document is
// about 400 KB as JSON).
const maxBody = 4 << 20

// Probe checks the deployed API from outside.
type Probe struct {
	// URL is the API's base URL, without a trailing slash.
	URL    string
	Client *http.Client
	// Canary is the canary token, a read-only token of Account.
	Canary  *canary.Token
	Account string
	Lines   *metrics.ProbeLines
	Logger  *slog.Logger
	Clock   clock.Clock
}

// Result is how one check of a run ended.
type Result struct {
	Name   string
	Status int
	Took   time.Duration
	Err    error
}

// check is one request and what its answer must be.
type check struct {
	name  string
	path  string
	token bool
	judge func(apicheck.Answer) error
}

// checks are the run's requests: the canary read of contacts
// (canary.Reads), without its token and with it, and the OpenAPI document.
func (p *Probe) checks() []check {
	read := canary.Reads["contacts"]
	path := read.Op.Path + "?" + fmt.Sprintf(read.Query, p.Account)
	return []check{
		{"a request without a token", path, false, func(a apicheck.Answer) error { return a.WantsError(http.StatusUnauthorized) }},
		{"a read with the canary token", path, true, func(a apicheck.Answer) error { return a.Wants(http.StatusOK, "application/json") }},
		{"the OpenAPI document", api.JSONPath, false, func(a apicheck.Answer) error {
			if err := a.Wants(http.StatusOK, "application/json"); err != nil {
				return err
			}
			var doc struct {
				OpenAPI string `json:"openapi"`
			}
			if json.Unmarshal(a.Body, &doc) != nil || doc.OpenAPI == "" {
				return fmt.Errorf("not an OpenAPI document: %.200s", a.Body)
			}
			return nil
		}},
	}
}

// Run makes the checks, one after another, and writes the run's line.
func (p *Probe) Run(ctx context.Context) []Result {
	var results []Result
	for _, c := range p.checks() {
		results = append(results, p.do(ctx, c))
	}
	p.report(ctx, results)
	return results
}

func (p *Probe) do(ctx context.Context, c check) Result {
	start := p.Clock.Now()
	res := Result{Name: c.name}
	res.Status, res.Err = p.request(ctx, c)
	res.Took = p.Clock.Now().Sub(start)
	return res
}

func (p *Probe) request(ctx context.Context, c check) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+c.path, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Version", "2021-07-28")
	req.Header.Set("User-Agent", "bizplatform-probe/1")
	if c.token {
		token, err := p.Canary.Value(ctx)
		if err != nil {
			return 0, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("read the answer: %w", err)
	}
	return resp.StatusCode, c.judge(apicheck.Answer{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: body})
}

// report writes the run's one line: each check's status, time and error,
// and the metric of those that failed; a run with a failure is a warning.
func (p *Probe) report(ctx context.Context, results []Result) {
	failed := 0
	checks := make([]any, 0, len(results))
	for _, r := range results {
		c := map[string]any{"check": r.Name, "status": r.Status, "ms": float64(r.Took.Microseconds()) / 1000}
		if r.Err != nil {
			failed++
			c["error"] = r.Err.Error()
		}
		checks = append(checks, c)
	}
	level := slog.LevelInfo
	if failed > 0 {
		level = slog.LevelWarn
	}
	p.Logger.LogAttrs(ctx, level, "probe", append(p.Lines.Attrs(p.Clock.Now(), failed), slog.Any("checks", checks))...)
}
