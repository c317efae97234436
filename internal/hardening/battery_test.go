package hardening

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/operations"
)

// TestBadInputBattery sends every operation its bad requests (derived from
// allInputs) and checks each answer: a 4xx with the JSON error body whose
// message names what is wrong, never a 5xx. Afterwards the stored data must
// be exactly as before; then each good request, sent once, must succeed,
// which shows every bad request differed from a working one.
func TestBadInputBattery(t *testing.T) {
	start := time.Now()
	d := newDemoEnv(t)
	covered := map[string]bool{}
	for _, in := range allInputs {
		covered[in.Op.ID()] = true
	}
	for _, op := range operations.All {
		require.True(t, covered[op.ID()], "%s has no inputs described", op.ID())
	}

	before := takeSnapshot(t, d.Table)
	var (
		mu     sync.Mutex
		counts = map[string]int{}
	)
	t.Run("every bad request answers 4xx naming the problem", func(t *testing.T) {
		for _, in := range allInputs {
			name := in.Op.ID()
			if in.variant != "" {
				name += " on " + in.variant
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				token := d.tokenFor(demo.AccountAlpha, in.Op.MarketplaceOnly)
				cases := casesFor(in)
				mu.Lock()
				counts[in.Op.ID()] += len(cases)
				mu.Unlock()
				for _, c := range cases {
					t.Run(c.name, func(t *testing.T) {
						resp := d.Do(t, badRequest(c, token))
						msg := errorBody(t, resp)
						if c.status != 0 {
							assert.Equal(t, c.status, resp.Status, "body: %s", clipBody(resp.Body))
						}
						if c.exact {
							assert.Contains(t, msg, c.names, "the message names the problem as sent")
						} else {
							assert.Contains(t, strings.ToLower(msg), strings.ToLower(c.names), "the message names the problem")
						}
						if c.alsoNames != "" {
							assert.Contains(t, strings.ToLower(msg), strings.ToLower(c.alsoNames), "the message names every problem")
						}
					})
				}
			})
		}
	})
	total := 0
	for _, op := range operations.All {
		t.Logf("%-75s %5d cases", op.ID(), counts[op.ID()])
		total += counts[op.ID()]
	}
	t.Logf("%-75s %5d cases in %v", fmt.Sprintf("all %d operations", len(operations.All)), total, time.Since(start).Round(time.Millisecond))

	t.Run("the stored data is unchanged", func(t *testing.T) {
		requireSame(t, before, takeSnapshot(t, d.Table))
	})
	t.Run("each good request the bad ones were made from succeeds", func(t *testing.T) {
		for _, in := range allInputs {
			resp := d.Do(t, in.request(d.tokenFor(demo.AccountAlpha, in.Op.MarketplaceOnly)))
			assert.Equal(t, in.Status, resp.Status, "%s: %s", in.Op.ID(), clipBody(resp.Body))
		}
	})
}

func badRequest(c badCase, token string) testenv.Request {
	req := testenv.Request{Method: c.method, Path: c.path, Token: token}
	if c.body != nil {
		req.Body = c.body
	}
	return req
}
