// Package load is `bench load`: the mixed load of Mix driven against the
// local server on DynamoDB Local, beside the engine's own ceiling (one
// GetItem at a time, as many at once).
package load

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/dynamodblocal"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/scopes"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
	"github.com/bizplatform/api/tools/bench/calls"
	"github.com/bizplatform/api/tools/bench/kit"
	"github.com/bizplatform/api/tools/perf"
)

// Mix is the load's operations and their weights (per 100 requests): reads
// dominate (69), as they do for a CRM's API clients; every write is one
// that succeeds again and again (updates to the same values, creations under
// fresh names, deletions of records made for the run).
var Mix = map[string]int{
	"GET /contacts/":                              20,
	"GET /conversations/messages/{id}":            15,
	"GET /medias/files":                           8,
	"GET /surveys/":                               6,
	"GET /campaigns/":                             6,
	"POST /users/search/filter-by-email":          6,
	"GET /ad-publishing/searchads/reporting/list": 4,
	"PUT /store/shipping-zone/{shippingZoneId}/shipping-rate/{shippingRateId}": 3,
	"PUT /custom-fields/{id}":                         3,
	"PUT /voice-ai/actions/{actionId}":                3,
	"POST /emails/builder":                            3,
	"POST /products/inventory":                        3,
	"DELETE /contacts/{contactId}/tasks/{taskId}":     3,
	"POST /medias/{id}":                               2,
	"PUT /store/shipping-zone/{shippingZoneId}":       2,
	"DELETE /payments/coupon":                         2,
	"POST /associations/relations":                    2,
	"POST /payments/integrations/provider/whitelabel": 2,
	"POST /associations/":                             1,
	"POST /brand-boards/":                             1,
	"DELETE /ad-publishing/socialads/integration":     1,
}

// Result is what `bench load` saves.
type Result struct {
	Requests    int       `json:"requests"`
	Concurrency int       `json:"concurrency"`
	RPS         float64   `json:"rps"`
	LoadRPS     []float64 `json:"rpsByRound"`
	// ServerCPUPerRequestUs is the devserver's CPU time (user+system) per
	// request of the load, from /proc (0 where there is none).
	ServerCPUPerRequestUs float64        `json:"serverCpuPerRequestUs"`
	P50Ms                 float64        `json:"p50Ms"`
	P99Ms                 float64        `json:"p99Ms"`
	Statuses              map[string]int `json:"statuses"`
	Errors                int            `json:"errors"` // answers other than 2xx and 429, and transport errors
	CeilingRPS            []float64      `json:"ceilingRpsByRound"`
	Ceiling               float64        `json:"ceilingRps"`
	CallsPerReq           float64        `json:"callsPerRequest"`
	RatioToLimit          float64        `json:"ratioToCeiling"`
	CeilingP50Ms          float64        `json:"ceilingP50Ms"`
	// The engine's CPU time per GetItem of the ceiling rounds and per
	// request of the load rounds: what a request of the mix costs DynamoDB Local
	// in GetItems, and the ceiling that follows from it.
	EngineCPUPerGetItemUs float64        `json:"engineCpuPerGetItemUs"`
	EngineCPUPerRequestUs float64        `json:"engineCpuPerRequestUs"`
	CostCeiling           float64        `json:"costWeightedCeilingRps"`
	RatioToCostCeiling    float64        `json:"ratioToCostWeightedCeiling"`
	Weights               map[string]int `json:"weights"`
}

// Run starts DynamoDB Local and the devserver on it (limits raised), makes
// the records the mix's deletions and creations need, and drives the mix
// with its own driver; DynamoDB Local's own ceiling (single-item GetItem, same
// concurrency) is measured before and after.
func Run(args []string) error {
	c := kit.NewCommand("load")
	n := c.Int("n", 4000, "requests of the mixed load")
	conc := c.Int("c", 16, "concurrent clients")
	if err := c.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	var perOp calls.Result
	if err := c.Load("calls.json", &perOp); err != nil {
		return fmt.Errorf("run `bench calls` first (calls per request): %w", err)
	}
	eng, err := kit.StartEngine(ctx, c.Root)
	if err != nil {
		return err
	}
	defer eng.Stop()

	bin := filepath.Join(c.Dir, "devserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/devserver").CombinedOutput(); err != nil {
		return fmt.Errorf("build devserver: %v: %s", err, out)
	}
	port, err := dynamodblocal.FreePort()
	if err != nil {
		return err
	}
	tableName := "load-" + kit.RandomHex(4)
	srv := exec.Command(bin)
	srv.Dir = c.Root
	srv.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "DYNAMODB_ENDPOINT="+eng.Srv.Endpoint, "TABLE_NAME="+tableName,
		"RATE_LIMIT_BURST=100000000", "RATE_LIMIT_DAILY=1000000000", "AWS_REGION=us-east-1")
	stdout, err := srv.StdoutPipe()
	if err != nil {
		return err
	}
	srv.Stderr = io.Discard // the request log: written, not kept
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { _ = srv.Process.Signal(os.Interrupt); _ = srv.Wait() }()
	if err := waitFor(stdout, "Serving ", 60*time.Second); err != nil {
		return fmt.Errorf("devserver: %w", err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)

	table := &storage.Table{DB: eng.Direct, Name: tableName}
	ops, err := loadOps(ctx, c.Root, table, eng.Srv.Endpoint, *n, base)
	if err != nil {
		return err
	}

	if err := ops.preflight(); err != nil {
		return err
	}
	res := Result{Requests: *n, Concurrency: *conc, Weights: Mix, Statuses: map[string]int{}}
	// Warm up both (connections, caches). Then alternate rounds of the
	// ceiling and of the load, so that both see the same machine: this one
	// is shared, and its speed changes by the minute.
	if _, err := drive(func() *http.Request { return getItem(eng.Srv.Endpoint, tableName) }, 500, *conc, eng.Srv.Endpoint); err != nil {
		return err
	}
	if _, err := drive(ops.warmUp(), 300, *conc, base); err != nil {
		return err
	}
	cpuBefore := cpuSeconds(srv.Process.Pid)
	const rounds = 4
	var all []record
	var loadRates []float64
	var engineCeilingCPU, engineLoadCPU float64
	var ceilingCalls int
	for r := 0; r < rounds; r++ {
		before := cpuSeconds(eng.Srv.Pid())
		recs, err := drive(func() *http.Request { return getItem(eng.Srv.Endpoint, tableName) }, *n/rounds, *conc, eng.Srv.Endpoint)
		if err != nil {
			return err
		}
		engineCeilingCPU += cpuSeconds(eng.Srv.Pid()) - before
		ceilingCalls += len(recs)
		var cr Result
		cr.Statuses = map[string]int{}
		summarise(&cr, recs)
		if cr.Errors > 0 {
			return fmt.Errorf("DynamoDB Local answered %v", cr.Statuses)
		}
		res.CeilingRPS = append(res.CeilingRPS, cr.RPS)
		before = cpuSeconds(eng.Srv.Pid())
		recs, err = drive(ops.next, *n/rounds, *conc, base)
		if err != nil {
			return err
		}
		engineLoadCPU += cpuSeconds(eng.Srv.Pid()) - before
		var lr Result
		lr.Statuses = map[string]int{}
		summarise(&lr, recs)
		loadRates = append(loadRates, lr.RPS)
		all = append(all, recs...)
	}
	res.ServerCPUPerRequestUs = (cpuSeconds(srv.Process.Pid) - cpuBefore) / float64(len(all)) * 1e6
	res.EngineCPUPerGetItemUs = engineCeilingCPU / float64(ceilingCalls) * 1e6
	res.EngineCPUPerRequestUs = engineLoadCPU / float64(len(all)) * 1e6
	// Medians of the rounds: one round in four may fall in a minute when
	// the shared machine is busier.
	summarise(&res, all)
	res.LoadRPS = loadRates
	res.RPS = kit.Median(loadRates)
	ceilingRPS := kit.Median(res.CeilingRPS)

	weighted, total := 0.0, 0
	for _, o := range perOp.Operations {
		weighted += float64(Mix[o.Route] * o.Warm.Calls)
		total += Mix[o.Route]
	}
	res.CallsPerReq = weighted / float64(total)
	res.Ceiling = ceilingRPS
	res.RatioToLimit = res.RPS / (ceilingRPS / res.CallsPerReq)
	if res.EngineCPUPerRequestUs > 0 {
		res.CostCeiling = ceilingRPS * res.EngineCPUPerGetItemUs / res.EngineCPUPerRequestUs
		res.RatioToCostCeiling = res.RPS / res.CostCeiling
	}
	fmt.Printf("mixed load: %d requests, %d clients: %.0f req/s, p50 %.1f ms, p99 %.1f ms, statuses %v, errors %d; devserver CPU %.0f µs per request\n",
		len(all), res.Concurrency, res.RPS, res.P50Ms, res.P99Ms, res.Statuses, res.Errors, res.ServerCPUPerRequestUs)
	fmt.Printf("DynamoDB Local ceiling: %.0f GetItem/s (rounds %.0f; load rounds %.0f req/s); %.2f calls per request: limit %.0f req/s; ratio %.2f\n",
		ceilingRPS, res.CeilingRPS, loadRates, res.CallsPerReq, ceilingRPS/res.CallsPerReq, res.RatioToLimit)
	fmt.Printf("DynamoDB Local CPU: %.0f µs per GetItem, %.0f µs per request of the mix (%.1f GetItems); cost-weighted ceiling %.0f req/s; ratio %.2f\n",
		res.EngineCPUPerGetItemUs, res.EngineCPUPerRequestUs, res.EngineCPUPerRequestUs/res.EngineCPUPerGetItemUs, res.CostCeiling, res.RatioToCostCeiling)
	return c.Save("load.json", res)
}

type record struct {
	seconds float64
	status  int
	offset  float64
}

// drive sends n requests made by next from conc workers at once, each
// request after the worker's previous answer, and records each one's
// latency, status and start (seconds since the run began).
func drive(next func() *http.Request, n, conc int, _ string) ([]record, error) {
	client := &http.Client{
		Timeout: 30 * time.Second,
		// Without compression, as the AWS SDK asks of DynamoDB: DynamoDB
		// Local gzips answers for clients that accept it, at a tenth of the
		// rate.
		Transport: &http.Transport{MaxIdleConnsPerHost: conc, DisableCompression: true},
	}
	defer client.CloseIdleConnections()
	recs := make([]record, n)
	var taken atomic.Int64
	var wg sync.WaitGroup
	begin := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(taken.Add(1)) - 1
				if i >= n {
					return
				}
				req := next()
				start := time.Now()
				status := 0
				if resp, err := client.Do(req); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					status = resp.StatusCode
				}
				recs[i] = record{seconds: time.Since(start).Seconds(), status: status, offset: start.Sub(begin).Seconds()}
			}
		}()
	}
	wg.Wait()
	return recs, nil
}

func summarise(res *Result, recs []record) {
	lat := make([]float64, 0, len(recs))
	start, end := math.Inf(1), 0.0
	for _, r := range recs {
		lat = append(lat, r.seconds*1000)
		start = min(start, r.offset)
		end = max(end, r.offset+r.seconds)
		res.Statuses[strconv.Itoa(r.status)]++
		if r.status != 429 && (r.status < 200 || r.status > 299) {
			res.Errors++
		}
	}
	sort.Float64s(lat)
	res.RPS = float64(len(recs)) / (end - start)
	res.P50Ms = percentile(lat, 0.50)
	res.P99Ms = percentile(lat, 0.99)
}

func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}

// getItem is the ceiling's request: a single-item strongly consistent
// GetItem, the cheapest call a request makes, straight to dynamodblocal.
func getItem(endpoint, tableName string) *http.Request {
	body := fmt.Sprintf(`{"TableName":%q,"Key":{"PK":{"S":"ACCOUNT#%s"},"SK":{"S":"COUPON#demoCpnAlpha00000001"}},"ConsistentRead":true}`, tableName, demo.AccountAlpha)
	r, _ := http.NewRequest("POST", endpoint+"/", strings.NewReader(body))
	r.Header.Set("X-Amz-Target", "DynamoDB_20120810.GetItem")
	r.Header.Set("Content-Type", "application/x-amz-json-1.0")
	// DynamoDB Local checks that requests are signed, not the signature.
	r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	r.Header.Set("X-Amz-Date", "20260101T000000Z")
	return r
}

// loadOps builds, for every operation of the mix, a maker of requests that
// succeed every time.
type opSet struct {
	seq     []func() *http.Request
	byRoute map[string]func() *http.Request
	count   atomic.Int64
}

func (o *opSet) next() *http.Request {
	i := o.count.Add(1) - 1
	return o.seq[int(i)%len(o.seq)]()
}

// preflight sends each operation twice, one after the other, and fails
// unless both succeed: a write that cannot repeat would show up in the load
// as errors.
func (o *opSet) preflight() error {
	for route, mk := range o.byRoute {
		for i := 0; i < 2; i++ {
			resp, err := http.DefaultClient.Do(mk())
			if err != nil {
				return err
			}
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode < 200 || resp.StatusCode > 299 {
				return fmt.Errorf("preflight: %s answered %d: %s", route, resp.StatusCode, body)
			}
		}
	}
	return nil
}

func (o *opSet) warmUp() func() *http.Request {
	reads := []func() *http.Request{}
	for _, f := range o.seq[:min(len(o.seq), 100)] {
		reads = append(reads, f)
	}
	var i atomic.Int64
	return func() *http.Request { return reads[int(i.Add(1)-1)%len(reads)]() }
}

func loadOps(ctx context.Context, root string, table *storage.Table, endpoint string, n int, base string) (*opSet, error) {
	events, err := perf.ReadEvents(root)
	if err != nil {
		return nil, err
	}
	byRoute := map[string]perf.Event{}
	for _, ev := range events {
		byRoute[ev.RouteKey] = ev
	}
	// How many of each write the run makes at most (with the warm-up).
	most := func(route string) int { return (n+300)*Mix[route]/100 + 50 }

	makers := map[string]func(i int) *http.Request{}
	static := func(ev perf.Event) func(int) *http.Request {
		body, _ := ev.BodyBytes()
		return func(int) *http.Request { return withBody(ev, base, ev.RawPath, body) }
	}
	for route := range Mix {
		ev, ok := byRoute[route]
		if !ok {
			return nil, fmt.Errorf("no sample event for %s", route)
		}
		makers[route] = static(ev)
	}
	// Creations under fresh names.
	rename := func(route string, edit func(m map[string]any, i int)) {
		ev := byRoute[route]
		body, _ := ev.BodyBytes()
		makers[route] = func(i int) *http.Request {
			var m map[string]any
			_ = json.Unmarshal(body, &m)
			edit(m, i)
			b, _ := json.Marshal(m)
			return withBody(ev, base, ev.RawPath, b)
		}
	}
	rename("POST /payments/integrations/provider/whitelabel", func(m map[string]any, i int) { m["uniqueName"] = "load-pay-" + letters(i) })
	rename("POST /associations/", func(m map[string]any, i int) { m["key"] = fmt.Sprintf("load_key_%d", i) })
	rename("POST /associations/relations", func(m map[string]any, i int) {
		// pet_owner: pets 1-6 with contacts from 101 on, pairs the demo data does not hold.
		m["firstRecordId"] = fmt.Sprintf("demoPetAlpha%08d", 1+i%6)
		m["secondRecordId"] = fmt.Sprintf("demoCtcAlpha%08d", 101+i/6)
	})
	if most("POST /associations/relations") > 6*200 {
		return nil, fmt.Errorf("too many relations for the demo's pets and contacts: lower -n")
	}

	// Deletions of records cloned for the run.
	alpha := storage.AccountPK(demo.AccountAlpha)
	taskIDs, err := cloneItems(ctx, table, storage.Key{PK: alpha, SK: "TASK#demoCtcAlpha00000001#demoTskAlpha00000001"}, "demoTskAlpha00000001", "loadTsk", most("DELETE /contacts/{contactId}/tasks/{taskId}"))
	if err != nil {
		return nil, err
	}
	ev := byRoute["DELETE /contacts/{contactId}/tasks/{taskId}"]
	makers["DELETE /contacts/{contactId}/tasks/{taskId}"] = func(i int) *http.Request {
		return withBody(ev, base, "/contacts/demoCtcAlpha00000001/tasks/"+taskIDs[i], nil)
	}
	couponIDs, err := cloneItems(ctx, table, storage.Key{PK: alpha, SK: "COUPON#demoCpnAlpha00000003"}, "demoCpnAlpha00000003", "loadCpn", most("DELETE /payments/coupon"))
	if err != nil {
		return nil, err
	}
	rename("DELETE /payments/coupon", func(m map[string]any, i int) { m["id"] = couponIDs[i] })

	// The social-ads integration is one per account: one account (with a
	// token) per deletion.
	accts, tokens, err := integrationAccounts(ctx, table, endpoint, most("DELETE /ad-publishing/socialads/integration"))
	if err != nil {
		return nil, err
	}
	evSocial := byRoute["DELETE /ad-publishing/socialads/integration"]
	makers["DELETE /ad-publishing/socialads/integration"] = func(i int) *http.Request {
		r := withBody(evSocial, base, evSocial.RawPath, []byte(fmt.Sprintf(`{"locationId":%q}`, accts[i])))
		r.Header.Set("Authorization", "Bearer "+tokens[i])
		return r
	}

	// A fixed shuffled sequence of 100 slots by weight; each slot's maker
	// gets its own running number.
	set := &opSet{}
	var slots []string
	for route, w := range Mix {
		for j := 0; j < w; j++ {
			slots = append(slots, route)
		}
	}
	sort.Strings(slots)
	rand.New(rand.NewSource(7)).Shuffle(len(slots), func(a, b int) { slots[a], slots[b] = slots[b], slots[a] })
	counters := map[string]*atomic.Int64{}
	for route := range Mix {
		counters[route] = &atomic.Int64{}
	}
	set.byRoute = map[string]func() *http.Request{}
	for route := range Mix {
		mk, ctr := makers[route], counters[route]
		set.byRoute[route] = func() *http.Request { return mk(int(ctr.Add(1) - 1)) }
	}
	for _, route := range slots {
		set.seq = append(set.seq, set.byRoute[route])
	}
	return set, nil
}

// letters spells i in lowercase letters (names that allow no digits).
func letters(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		i /= 26
		if i == 0 {
			return s
		}
	}
}

func withBody(ev perf.Event, base, path string, body []byte) *http.Request {
	r, _ := ev.RequestWith(base, path, body)
	return r
}

// cloneItems copies the item at key count times, replacing id in its strings
// by prefix+number, and returns the new ids.
func cloneItems(ctx context.Context, table *storage.Table, key storage.Key, id, prefix string, count int) ([]string, error) {
	out, err := table.DB.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name), Key: key.AV()})
	if err != nil || out.Item == nil {
		return nil, fmt.Errorf("read %s/%s to clone: %v", key.PK, key.SK, err)
	}
	var ids []string
	var items []any
	for i := 0; i < count; i++ {
		newID := fmt.Sprintf("%s%08d", prefix, i)
		ids = append(ids, newID)
		items = append(items, replaceID(out.Item, id, newID))
	}
	return ids, batchPutRaw(ctx, table, items)
}

func replaceID(item map[string]types.AttributeValue, from, to string) map[string]types.AttributeValue {
	c := make(map[string]types.AttributeValue, len(item))
	for k, v := range item {
		if s, ok := v.(*types.AttributeValueMemberS); ok {
			c[k] = &types.AttributeValueMemberS{Value: strings.ReplaceAll(s.Value, from, to)}
		} else {
			c[k] = v
		}
	}
	return c
}

func batchPutRaw(ctx context.Context, table *storage.Table, items []any) error {
	for start := 0; start < len(items); start += 25 {
		var reqs []types.WriteRequest
		for _, it := range items[start:min(start+25, len(items))] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it.(map[string]types.AttributeValue)}})
		}
		pending := map[string][]types.WriteRequest{table.Name: reqs}
		for len(pending[table.Name]) > 0 {
			out, err := table.DB.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
			if err != nil {
				return err
			}
			pending = out.UnprocessedItems
		}
	}
	return nil
}

// integrationAccounts creates count accounts, each with a token and a copy
// of Alpha's social-ads integration.
func integrationAccounts(ctx context.Context, table *storage.Table, endpoint string, count int) ([]string, []string, error) {
	src, err := table.DB.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name),
		Key: storage.Key{PK: storage.AccountPK(demo.AccountAlpha), SK: "SOCIALADS_INTEGRATION"}.AV()})
	if err != nil || src.Item == nil {
		return nil, nil, fmt.Errorf("read Alpha's social-ads integration: %v", err)
	}
	srv, err := apiserver.New(kit.Config(table.Name), wiring.Deps{Table: table, Clock: clock.System{}})
	if err != nil {
		return nil, nil, err
	}
	accts := accounts.NewRegistry(table, clock.System{})
	var ids, tokens []string
	var items []any
	for i := 0; i < count; i++ {
		id := fmt.Sprintf("loadAcct%08d", i)
		if _, err := accts.Create(ctx, id, "loadCompany", "Load "+id); err != nil {
			return nil, nil, err
		}
		tok, _, err := srv.Tokens.Create(ctx, auth.NewToken{AccountID: id, Kind: auth.KindPrivate, Scopes: scopes.OfOperations(), Name: "load"})
		if err != nil {
			return nil, nil, err
		}
		ids, tokens = append(ids, id), append(tokens, tok)
		items = append(items, replaceID(src.Item, demo.AccountAlpha, id))
	}
	return ids, tokens, batchPutRaw(ctx, table, items)
}

// cpuSeconds is a process's user+system CPU time, from /proc/<pid>/stat.
func cpuSeconds(pid int) float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command (which may hold spaces) start after ")".
	fields := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / 100 // clock ticks (USER_HZ = 100 on Linux)
}

// waitFor reads r until a line starts with prefix, then drains it.
func waitFor(r io.Reader, prefix string, timeout time.Duration) error {
	found := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(r)
		signalled := false
		for sc.Scan() {
			if !signalled && strings.HasPrefix(sc.Text(), prefix) {
				close(found)
				signalled = true
			}
		}
	}()
	select {
	case <-found:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("no %q line within %s", prefix, timeout)
	}
}
