package deploytest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/metrics"
)

// The stack the scenarios run on: prod's name, its live versions.
const (
	scenarioStack = "bizplatform-prod"
	scenarioAPI   = "a1b2c3d4e5"
	liveVersion7  = "7"
)

// sim writes the metrics a deployed stack would, minute by minute: AWS's
// own (Lambda's, API Gateway's) and what the functions' lines declare.
type sim struct {
	w       *world
	ns      string
	byDir   map[string]catalog.Function
	rng     *rand.Rand
	version map[string]string // logical id -> the version the alarms read
}

func newSim(seed uint64) *sim {
	s := &sim{w: newWorld(), ns: metrics.DefaultNamespace + "/" + scenarioStack, byDir: map[string]catalog.Function{},
		rng: rand.New(rand.NewPCG(seed, 7)), version: map[string]string{}}
	for _, f := range catalog.Functions() {
		s.byDir[f.Dir] = f
		s.version[f.LogicalID] = liveVersion7
	}
	return s
}

// stack is the scenario's stack, its alarms reading the versions of
// s.version.
func (s *sim) stack() Stack {
	return Stack{Name: scenarioStack, Region: "us-east-1",
		Ref: func(logical string) string {
			if logical == "HttpApi" {
				return scenarioAPI
			}
			return scenarioStack + "-" + logical
		},
		GetAtt: func(logical, attr string) string {
			if attr == "Version.Version" {
				return s.version[logical]
			}
			return logical + "." + attr
		}}
}

func (s *sim) fnName(f catalog.Function) string { return scenarioStack + "-" + f.LogicalID }

// invoke is one invocation of f's version through its alias live: Lambda's
// Invocations (and Errors when it failed) by function, by alias and by
// executed version, and the account's.
func (s *sim) invoke(m int, f catalog.Function, version string, failed bool) {
	name := s.fnName(f)
	for _, dims := range []map[string]string{
		nil, {"FunctionName": name}, {"FunctionName": name, "Resource": name + ":live"},
		{"FunctionName": name, "Resource": name + ":live", "ExecutedVersion": version},
	} {
		s.w.put(m, "AWS/Lambda", "Invocations", dims, 1)
		if failed {
			s.w.put(m, "AWS/Lambda", "Errors", dims, 1)
		}
	}
}

// request is one request through API Gateway to f's version: its answer's
// status, its latency and the DynamoDB throttles it met.
func (s *sim) request(m int, dir, version string, status int, latencyMs float64, throttles int) {
	f := s.byDir[dir]
	s.invoke(m, f, version, false)
	api := map[string]string{"ApiId": scenarioAPI}
	s.w.put(m, "AWS/ApiGateway", "Count", api, 1)
	s.w.put(m, "AWS/ApiGateway", "Latency", api, latencyMs)
	if status >= 500 {
		s.w.put(m, "AWS/ApiGateway", "5xx", api, 1)
		s.w.put(m, s.ns, metrics.Status5xx, map[string]string{metrics.DimFunction: f.Dir, metrics.DimVersion: version}, 1)
	} else if status >= 400 {
		s.w.put(m, "AWS/ApiGateway", "4xx", api, 1)
	}
	if throttles > 0 {
		s.w.put(m, s.ns, metrics.DynamoDBThrottles, nil, float64(throttles))
	}
}

// probe is the probe's run at minute m: its three requests (when the API
// is reached) and its line, unless it is silenced.
func (s *sim) probe(m int, reached bool, status func(dir string) int) {
	failed := 3
	if reached {
		failed = 0
		for i, r := range []struct {
			dir  string
			want int
		}{{"contacts", 401}, {"contacts", 200}, {"portal", 200}} {
			got := status(r.dir)
			if got == 200 && i == 0 {
				got = 401 // a working contacts refuses the request without a token
			}
			s.request(m, r.dir, liveVersion7, got, 40, 0)
			if got != r.want {
				failed++
			}
		}
	}
	s.w.put(m, s.ns, metrics.ProbeFailures, map[string]string{metrics.DimFunction: metrics.ProbeFunction}, float64(failed))
	s.invokeDirect(m, s.byDir[catalog.Probe])
}

// invokeDirect is an invocation of a function without an alias (the
// probe): Lambda's Invocations by function and the account's.
func (s *sim) invokeDirect(m int, f catalog.Function) {
	s.w.put(m, "AWS/Lambda", "Invocations", nil, 1)
	s.w.put(m, "AWS/Lambda", "Invocations", map[string]string{"FunctionName": s.fnName(f)}, 1)
}

// sweep is the deliverer's schedule invocation at minute m and its line.
func (s *sim) sweep(m int, oldestPendingSeconds float64, attempts, failures int) {
	s.invoke(m, s.byDir[catalog.Webhooks], liveVersion7, false)
	fn := map[string]string{metrics.DimFunction: metrics.WebhookFunction}
	s.w.put(m, s.ns, metrics.WebhookOldestPendingAgeSeconds, fn, oldestPendingSeconds)
	if attempts > 0 {
		s.w.put(m, s.ns, metrics.WebhookAttempts, fn, float64(attempts))
		s.w.put(m, s.ns, metrics.WebhookFailures, fn, float64(failures))
	}
}

// streamBatch is a stream invocation of the deliverer whose oldest record
// had waited ageMs, and that attempted the events it named.
func (s *sim) streamBatch(m int, ageMs float64, attempts, failures int) {
	s.invoke(m, s.byDir[catalog.Webhooks], liveVersion7, false)
	s.w.put(m, "AWS/Lambda", "IteratorAge", map[string]string{"FunctionName": s.fnName(s.byDir[catalog.Webhooks])}, ageMs)
	if attempts > 0 {
		fn := map[string]string{metrics.DimFunction: metrics.WebhookFunction}
		s.w.put(m, s.ns, metrics.WebhookAttempts, fn, float64(attempts))
		s.w.put(m, s.ns, metrics.WebhookFailures, fn, float64(failures))
	}
}

// concurrency is the account's concurrent executions at minute m.
func (s *sim) concurrency(m int, n float64) {
	s.w.put(m, "AWS/Lambda", "ConcurrentExecutions", nil, n)
}

// poisson draws a count of mean lambda.
func (s *sim) poisson(lambda float64) int {
	l, k, p := math.Exp(-lambda), 0, 1.0
	for {
		p *= s.rng.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

// share is each request-serving function's share of the traffic: the load
// mix's weights (docs/performance.md), the portal's and OAuth's beside.
var share = map[string]float64{
	"contacts": 20, "conversations": 15, "medias": 8, "surveys": 6, "campaigns": 6, "users": 6, "ad-publishing": 4,
	"store": 5, "custom-fields": 3, "voice-ai": 3, "emails": 3, "products": 3, "associations": 3, "payments": 2,
	"brand-boards": 1, "events": 2, "portal": 5, "oauth": 3,
}

// dayRate is the requests a minute of a quiet million-a-month day at minute
// m of the day (0 to 1439): none from 22:00 to 07:00, a sine between whose
// mean over the 900 minutes is 37 a minute: 33,300 a day, 1 million in 30.
func dayRate(m int) float64 {
	if m < 7*60 || m >= 22*60 {
		return 0
	}
	return 37 * math.Pi / 2 * math.Sin(math.Pi*float64(m-7*60)/900)
}

// traffic is a minute of ordinary requests at rate: mostly fast answers, a
// few cold starts, and the rare failure of a healthy stack (1 in 20,000 a
// 503, 1 in 5,000 retried past a throttle).
func (s *sim) traffic(m int, rate float64) int {
	total := 0
	for dir, w := range share {
		n := s.poisson(rate * w / 100)
		total += n
		for range n {
			status, latency, throttles := 200, 20+100*s.rng.Float64(), 0
			if s.rng.Float64() < 0.02 {
				latency = 300 + 300*s.rng.Float64() // a cold start
			}
			if s.rng.Float64() < 1.0/5000 {
				throttles = 1
			}
			if s.rng.Float64() < 1.0/20000 {
				status = 503
			}
			s.request(m, dir, liveVersion7, status, latency, throttles)
		}
	}
	return total
}

// quietMinute is a minute of a healthy stack at rate: its traffic, the
// probe, a webhook event now and then (delivered by the stream at once,
// 2% of them failing once and delivered by the next sweep), the sweep.
func (s *sim) quietMinute(m int, rate float64) {
	n := s.traffic(m, rate)
	s.probe(m, true, func(string) int { return 200 })
	s.concurrency(m, math.Max(1, math.Ceil(float64(n)*0.08/60)))
	retries := 0
	for range s.poisson(rate / 4) { // about 8,000 events a day
		if s.rng.Float64() < 0.02 {
			s.streamBatch(m, 200+800*s.rng.Float64(), 1, 1)
			retries++
		} else {
			s.streamBatch(m, 200+800*s.rng.Float64(), 1, 0)
		}
	}
	s.sweep(m, 60*float64(retries), retries, 0)
}

// promised reads the minutes docs/operations.md promises an alarm pages
// within: its row of the alarm table (a function's alarm's row names it
// <Function>...), the "Pages within" cell.
func promised(t *testing.T, alarm string) int {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "operations.md"))
	require.NoError(t, err)
	name := alarm
	for _, f := range catalog.Functions() {
		if rest, ok := strings.CutPrefix(alarm, f.LogicalID); ok && f.Deployed() {
			name = "<Function>" + rest
		}
	}
	row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(name) + "`.*$").FindString(string(raw))
	require.NotEmpty(t, row, "docs/operations.md's alarm table has a row of %s", name)
	cells := strings.Split(row, "|")
	require.Greater(t, len(cells), 3)
	m := regexp.MustCompile(`^\s*(\d+) min`).FindStringSubmatch(cells[3])
	require.NotNil(t, m, "the row of %s says in its third column within how many minutes it pages: %q", name, cells[3])
	n, _ := strconv.Atoi(m[1])
	return n
}

// firstAlarm evaluates every alarm at the end of each minute from from to
// end as CloudWatch does and returns, per alarm, the first minute it was in
// ALARM (absent: never).
func firstAlarm(t *testing.T, alarms []evalAlarm, w *world, from, end int) map[string]int {
	out := map[string]int{}
	for _, a := range alarms {
		require.False(t, a.readsAWSDDB, "%s reads AWS/DynamoDB, whose alarms CloudWatch evaluates ignoring TreatMissingData", a.name)
		for m := from; m <= end; m++ {
			if a.state(w, m) == "ALARM" {
				out[a.name] = m
				break
			}
		}
	}
	return out
}

// A quiet day of a million-request month (no traffic 22:00-07:00, 33,300
// requests in between, the failures a healthy stack has now and then)
// pages no one.
func TestAQuietDayFiresNothing(t *testing.T) {
	_, tpl, _ := readTemplate(t)
	s := newSim(1)
	requests := 0
	for m := range 24 * 60 {
		s.quietMinute(m, dayRate(m))
	}
	for k, series := range s.w.data {
		if k == keyOf("AWS/ApiGateway", "Count", map[string]string{"ApiId": scenarioAPI}) {
			for _, v := range series {
				requests += int(v.sum)
			}
		}
	}
	assert.InDelta(t, 33_300+3*1440, requests, 2_000, "a million a month, and the probe's 3 a minute")
	alarms := readAlarms(t, tpl, s.stack())
	require.NotEmpty(t, alarms)
	fired := firstAlarm(t, alarms, s.w, 10, 24*60) // once each alarm has its range of data
	assert.Empty(t, fired, "a quiet day fires nothing")
}

// scenario is a failure from minute onset (of the minutes from start, a
// minute of the day), which alarms must page and within how long of it.
type scenario struct {
	name   string
	start  int
	onset  int
	length int
	// versions are the versions the alarms read (a deploy moves them).
	versions map[string]string
	minute   func(s *sim, m int)
	pages    []string
}

func TestEveryFailurePagesWithinWhatTheRunbookPromises(t *testing.T) {
	_, tpl, _ := readTemplate(t)
	const night, day = 120, 9 * 60 // minutes of the day: 02:00, 09:00
	receiverDown := func(from, to int) func(s *sim, m int) {
		type event struct{ created, next, attempt int }
		var pending []*event
		return func(s *sim, m int) {
			s.quietMinute(day+m, dayRate(day+m))
			if m >= from && (m-from)%10 == 0 && m < to+60 {
				pending = append(pending, &event{created: m, next: m})
			}
			attempts, failures := 0, 0
			var still []*event
			oldest := 0.0
			for _, e := range pending {
				if e.next == m {
					attempts++
					e.attempt++
					if m >= from && m < to {
						failures++
						e.next = m + int(deliveries.NextRetry(e.attempt).Minutes())
					} else {
						continue // delivered
					}
				}
				still = append(still, e)
				oldest = math.Max(oldest, float64(m-e.created)*60)
			}
			pending = still
			s.sweep(day+m, oldest, attempts, failures)
		}
	}
	scenarios := []scenario{
		{name: "a total outage at 1 request a minute: every answer a 500", start: night, onset: 30, length: 60,
			minute: func(s *sim, m int) {
				status := 200
				if m >= 30 {
					status = 500
				}
				s.request(night+m, "contacts", liveVersion7, status, 30, 0)
				s.probe(night+m, true, func(string) int { return status })
				s.sweep(night+m, 0, 0, 0)
			},
			pages: []string{"ProbeAlarm", "ApiErrorRateAlarm", "ContactsFunctionErrorRateAlarm"}},
		{name: "nothing reachable: no request reaches the API", start: night, onset: 30, length: 60,
			minute: func(s *sim, m int) {
				if m < 30 {
					s.quietMinute(night+m, 1)
					return
				}
				s.probe(night+m, false, nil)
				s.sweep(night+m, 0, 0, 0)
			},
			pages: []string{"ProbeAlarm"}},
		{name: "the probe itself stopped (its function throttled, or gone)", start: night, onset: 30, length: 60,
			minute: func(s *sim, m int) {
				if m < 30 {
					s.quietMinute(night+m, 1)
					return
				}
				s.sweep(night+m, 0, 0, 0)
			},
			pages: []string{"ProbeAlarm"}},
		{name: "a canary version failing every request, at 1 request in 2 minutes", start: day, onset: 30, length: 60,
			versions: map[string]string{"ContactsFunction": "8"},
			minute: func(s *sim, m int) {
				s.quietMinute(day+m, 1)
				for i := range 5 { // contacts at 5 a minute, 10 % of them on the canary from minute 30
					if m >= 30 && i == 0 && (m-30)%2 == 0 {
						s.request(day+m, "contacts", "8", 500, 30, 0)
						continue
					}
					s.request(day+m, "contacts", liveVersion7, 200, 30, 0)
				}
			},
			pages: []string{"ContactsFunctionErrorRateAlarm"}},
		{name: "a throttled table", start: day, onset: 32, length: 60,
			minute: func(s *sim, m int) {
				s.quietMinute(day+m, 0) // the probe, the deliverer
				for range 40 {
					status, throttles := 200, 0
					if m >= 32 && s.rng.Float64() < 0.3 {
						throttles = 2
						if s.rng.Float64() < 0.15 {
							status = 503
						}
					}
					s.request(day+m, "conversations", liveVersion7, status, 80, throttles)
				}
			},
			pages: []string{"TableThrottlesAlarm"}},
		{name: "a receiver down for an hour", onset: 20, length: 150, minute: receiverDown(20, 80), start: day,
			pages: []string{"WebhookBacklogAlarm"}},
		{name: "a stuck stream: its batches reach the deliverer later and later", start: day, onset: 30, length: 60,
			minute: func(s *sim, m int) {
				s.quietMinute(day+m, 5)
				if m >= 30 {
					s.streamBatch(day+m, float64(m-30+1)*60_000, 0, 0)
				}
			},
			pages: []string{"WebhookStreamAlarm"}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			s := newSim(2)
			for logical, v := range sc.versions {
				s.version[logical] = v
			}
			base := sc.start
			for m := range sc.length {
				sc.minute(s, m)
			}
			alarms := readAlarms(t, tpl, s.stack())
			// From the 10th minute: the alarms read up to 7 minutes back.
			fired := firstAlarm(t, alarms, s.w, base+10, base+sc.length)
			for name, at := range fired {
				assert.GreaterOrEqual(t, at, base+sc.onset, "%s fired at minute %d, before the failure began", name, at-base)
			}
			for _, want := range sc.pages {
				at, ok := fired[want]
				require.True(t, ok, "%s pages; fired: %v", want, relative(fired, base))
				within := promised(t, want)
				assert.LessOrEqual(t, at-(base+sc.onset), within, "%s pages within the %d minutes the runbook promises", want, within)
				t.Logf("%s: %d minutes after the failure began (the runbook: within %d)", want, at-(base+sc.onset), within)
			}
		})
	}
}

// relative names the minutes of fired from base, sorted, for a message.
func relative(fired map[string]int, base int) string {
	var out []string
	for name, at := range fired {
		out = append(out, fmt.Sprintf("%s at %d", name, at-base))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// What must not roll a deploy back: a canary that works, and one whose
// only failure in its five minutes is one 5xx.
func TestAHealthyCanaryIsNotRolledBack(t *testing.T) {
	_, tpl, _ := readTemplate(t)
	for _, failures := range []int{0, 1} {
		t.Run(fmt.Sprintf("%d failures", failures), func(t *testing.T) {
			s := newSim(3)
			s.version["ContactsFunction"] = "8"
			const day = 9 * 60
			for m := range 40 {
				s.quietMinute(day+m, 1)
				for i := range 5 {
					version, status := liveVersion7, 200
					if m >= 30 && i == 0 && (m-30)%2 == 0 {
						version = "8"
						if failures > 0 && m == 32 {
							status = 500
						}
					}
					s.request(day+m, "contacts", version, status, 30, 0)
				}
			}
			fired := firstAlarm(t, readAlarms(t, tpl, s.stack()), s.w, day+10, day+40)
			assert.NotContains(t, fired, "ContactsFunctionErrorRateAlarm")
			assert.NotContains(t, fired, "ContactsFunctionErrorsAlarm")
		})
	}
}
