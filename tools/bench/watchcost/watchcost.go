// Package watchcost is `bench watchcost`: what watching the API costs. It
// serves each function's sample events (events/<function>/*.json, the
// requests the functions are tested with), a request without a token and
// one to a path no operation serves, in process on a DynamoDB Local table
// holding the demo data, and measures the log bytes each request writes
// with its metrics; then it prices CloudWatch Logs, the EMF custom
// metrics and X-Ray for 1, 10 and 100 million requests a month.
package watchcost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/oauth"
	"github.com/bizplatform/api/portal"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
	"github.com/bizplatform/api/tools/bench/kit"
)

// Prices, us-east-1, as AWS publishes them; flags override the ones a
// reader may want to change.
const (
	priceLogsIngestPerGB   = 0.50 // CloudWatch Logs, standard class
	priceLogsStorePerGBMon = 0.03 // CloudWatch Logs storage
	priceMetricPerMonth    = 0.30 // custom metric, first 10,000
	priceTracesPerMillion  = 5.00 // X-Ray traces recorded
	freeTracesPerMonth     = 100_000
	// baselinePerMillion is a million requests of the load's mix without
	// watching (docs/performance.md, `bench cost`).
	baselinePerMillion = 2.56
	secondsPerMonth    = 30 * 24 * 3600
)

// Line is one request's measured log.
type Line struct {
	Function    string `json:"function"`
	Request     string `json:"request"`
	Status      int    `json:"status"`
	Bytes       int    `json:"bytes"`       // every line the request logged, newlines included
	MetricBytes int    `json:"metricBytes"` // of which the EMF members
	Lines       int    `json:"lines"`       // log lines the request wrote
}

// Result is what `bench watchcost` saves.
type Result struct {
	Lines           []Line  `json:"lines"`
	MeanBytes       float64 `json:"meanBytes"`
	MeanMetricBytes float64 `json:"meanMetricBytes"`
	MaxBytes        int     `json:"maxBytes"`
	MetricSeries    int     `json:"metricSeries"`
	MetricsPerMonth float64 `json:"metricsPerMonth"`
	Namespace       string  `json:"namespace"`
}

// Run measures and prints.
func Run(args []string) error {
	cmd := kit.NewCommand("watchcost")
	endpoint := cmd.String("endpoint", firstSet(os.Getenv("DYNAMODB_ENDPOINT"), os.Getenv("TEST_DYNAMODB_ENDPOINT")), "DynamoDB Local's endpoint (empty: start one from .local)")
	stack := cmd.String("stack", "bizplatform-prod", "the stack name in the namespace (BizPlatform/<stack>), as deployed")
	if err := cmd.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	if *endpoint == "" {
		eng, err := kit.StartEngine(ctx, cmd.Root)
		if err != nil {
			return err
		}
		defer eng.Stop()
		*endpoint = eng.Srv.Endpoint
	}
	res, err := measure(ctx, cmd.Root, *endpoint, "BizPlatform/"+*stack)
	if err != nil {
		return err
	}
	if err := cmd.Save("watchcost.json", res); err != nil {
		return err
	}
	print(os.Stdout, res)
	return nil
}

func firstSet(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// lineLog records what the servers log, line by line.
type lineLog struct {
	mu    sync.Mutex
	lines [][]byte
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range bytes.SplitAfter(p, []byte("\n")) {
		if len(line) > 0 {
			l.lines = append(l.lines, append([]byte(nil), line...))
		}
	}
	return len(p), nil
}

// take returns the lines since the last take.
func (l *lineLog) take() [][]byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.lines
	l.lines = nil
	return out
}

func measure(ctx context.Context, root, endpoint, namespace string) (Result, error) {
	db, err := dynamo.NewClient(ctx, endpoint, "us-east-1", nil)
	if err != nil {
		return Result{}, err
	}
	table := &storage.Table{DB: db, Name: "watchcost-" + kit.RandomHex(6)}
	if _, err := storage.CreateTable(ctx, db, table.Name); err != nil {
		return Result{}, err
	}
	keeper, err := secrets.NewEphemeralKeeper()
	if err != nil {
		return Result{}, err
	}
	log := &lineLog{}
	deps := wiring.Deps{Table: table, Clock: clock.System{}, Secrets: keeper, Logger: wiring.NewLogger(log, nil)}
	ds, err := demo.Default()
	if err != nil {
		return Result{}, err
	}
	if _, err := demo.Load(ctx, deps, ds, catalog.Areas); err != nil {
		return Result{}, fmt.Errorf("load the demo dataset: %w", err)
	}
	cfg := kit.Config(table.Name)
	cfg.MetricsNamespace = namespace
	var res Result
	res.Namespace = namespace
	for i, area := range catalog.Areas {
		srv, err := apiserver.New(cfg, deps, area)
		if err != nil {
			return Result{}, err
		}
		if i == 0 {
			if _, err := demo.CreateTokens(ctx, srv.Tokens, endpoint); err != nil {
				return Result{}, err
			}
		}
		reqs, err := sampleRequests(root, area.Name)
		if err != nil {
			return Result{}, err
		}
		// Once, unmeasured: a warm instance has the token's facts cached.
		serve(srv.Handler, reqs[0].r())
		log.take()
		for _, s := range reqs {
			res.Lines = append(res.Lines, measureOne(srv.Handler, log, area.Name, s))
		}
	}
	core := apiserver.NewCore(cfg, deps)
	p, err := portal.New(core, portal.Options{})
	if err != nil {
		return Result{}, err
	}
	for _, s := range []sample{
		{"GET /portal/sign-in", func() *http.Request { return httptest.NewRequest("GET", "/portal/sign-in", nil) }},
		{"GET /portal/accounts (signed out)", func() *http.Request { return httptest.NewRequest("GET", "/portal/accounts", nil) }},
	} {
		res.Lines = append(res.Lines, measureOne(p, log, portal.Function, s))
	}
	o := oauth.New(core, time.Hour, 0)
	form := func() *http.Request {
		r := httptest.NewRequest("POST", "/oauth/token", strings.NewReader("grant_type=refresh_token&refresh_token=unknown&client_id=x&client_secret=y"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return r
	}
	res.Lines = append(res.Lines, measureOne(o, log, oauth.Function, sample{"POST /oauth/token (unknown refresh token)", form}))

	total, metricTotal := 0, 0
	for _, l := range res.Lines {
		total += l.Bytes
		metricTotal += l.MetricBytes
		res.MaxBytes = max(res.MaxBytes, l.Bytes)
	}
	res.MeanBytes = float64(total) / float64(len(res.Lines))
	res.MeanMetricBytes = float64(metricTotal) / float64(len(res.Lines))
	res.MetricSeries = metricSeries()
	res.MetricsPerMonth = float64(res.MetricSeries) * priceMetricPerMonth
	return res, nil
}

type sample struct {
	name string
	r    func() *http.Request // a new request each time: a body is read once
}

func serve(h http.Handler, r *http.Request) int {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code
}

func measureOne(h http.Handler, log *lineLog, function string, s sample) Line {
	status := serve(h, s.r())
	l := Line{Function: function, Request: s.name, Status: status}
	for _, line := range log.take() {
		l.Lines++
		l.Bytes += len(line)
		l.MetricBytes += metricBytes(line)
	}
	return l
}

// metricBytes is how many of a line's bytes its EMF members take: the line
// less the line written again without them.
func metricBytes(line []byte) int {
	if !bytes.Contains(line, []byte(`"_aws"`)) {
		return 0
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return 0
	}
	for _, k := range append([]string{"_aws", metrics.DimFunction, metrics.DimOperation}, metricNames()...) {
		delete(m, k)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(m) != nil {
		return 0
	}
	return len(line) - buf.Len()
}

func metricNames() []string {
	var names []string
	for _, m := range metrics.RequestMetrics {
		names = append(names, m.Name)
	}
	for _, events := range metrics.ServerEvents {
		for _, e := range events {
			names = append(names, e.Name())
		}
	}
	return names
}

// sampleRequests are a function's sample events as requests, then the
// first without its token (401) and a path no operation serves (404).
func sampleRequests(root, function string) ([]sample, error) {
	files, err := filepath.Glob(filepath.Join(root, "events", function, "*.json"))
	if err != nil || len(files) == 0 {
		return nil, errors.Join(err, fmt.Errorf("no sample events for %s", function))
	}
	sort.Strings(files)
	var out []sample
	var first gatewayEvent
	for i, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var ev gatewayEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if i == 0 {
			first = ev
		}
		out = append(out, sample{ev.RouteKey + " (" + strings.TrimSuffix(filepath.Base(f), ".json") + ")", ev.request})
	}
	unauth := first
	unauth.Headers = map[string]string{}
	for k, v := range first.Headers {
		if !strings.EqualFold(k, "authorization") {
			unauth.Headers[k] = v
		}
	}
	out = append(out, sample{first.RouteKey + " without a token", unauth.request})
	nowhere := first
	nowhere.RawPath, nowhere.RawQueryString, nowhere.Body, nowhere.Method = "/nowhere", "", "", "GET"
	out = append(out, sample{"GET /nowhere", nowhere.request})
	return out, nil
}

// gatewayEvent is the part of an API Gateway (payload 2.0) event a request
// is made of.
type gatewayEvent struct {
	RouteKey       string            `json:"routeKey"`
	RawPath        string            `json:"rawPath"`
	RawQueryString string            `json:"rawQueryString"`
	Headers        map[string]string `json:"headers"`
	Body           string            `json:"body"`
	Method         string            `json:"-"`
	RequestContext struct {
		HTTP struct {
			Method string `json:"method"`
		} `json:"http"`
	} `json:"requestContext"`
}

func (e gatewayEvent) request() *http.Request {
	method := e.Method
	if method == "" {
		method = e.RequestContext.HTTP.Method
	}
	target := e.RawPath
	if e.RawQueryString != "" {
		target += "?" + e.RawQueryString
	}
	var body io.Reader
	if e.Body != "" {
		body = strings.NewReader(e.Body)
	}
	r := httptest.NewRequest(method, target, body)
	for k, v := range e.Headers {
		r.Header.Set(k, v)
	}
	return r
}

// metricSeries counts the custom metrics the lines can create: each metric
// name with each dimension-value combination. The API's: per function, the
// operation metrics under each of its operations, its "unmatched" and the
// function alone, and the rest under the function alone; the portal's and
// OAuth server's request metrics and events under their Function alone;
// the deliverer's five.
func metricSeries() int {
	perFunction := map[string]int{}
	for _, op := range operations.All {
		perFunction[op.Area]++
	}
	total := 0
	for _, ops := range perFunction {
		total += len(metrics.OperationMetrics)*(ops+2) + len(metrics.FunctionRequestMetrics)
	}
	for _, events := range metrics.ServerEvents {
		total += len(metrics.RequestMetrics) + len(events)
	}
	return total + len(metrics.WebhookMetrics)
}

// monthly is what watching costs at requests a month.
type monthly struct {
	requests                           float64
	traces, xray                       float64
	logsGB, logsIngest, logsStore      float64
	metrics, baseline, watching, total float64
}

func price(res Result, requests float64) monthly {
	m := monthly{requests: requests, metrics: res.MetricsPerMonth}
	m.logsGB = requests * res.MeanBytes / 1e9
	m.logsIngest = m.logsGB * priceLogsIngestPerGB
	m.logsStore = m.logsGB * priceLogsStorePerGBMon // a month kept (30 days, the default retention), uncompressed: an upper bound
	m.traces = tracesRecorded(requests)
	m.xray = max(0, m.traces-freeTracesPerMonth) / 1e6 * priceTracesPerMillion
	m.baseline = requests / 1e6 * baselinePerMillion
	m.watching = m.logsIngest + m.logsStore + m.metrics
	m.total = m.baseline + m.watching + m.xray
	return m
}

// tracesRecorded is the traces Lambda's fixed sampling records in a month
// of requests spread evenly: the first request each second (the reservoir
// of 1 a second, shared by the account's functions) and 5% of the rest.
// Bursty traffic records fewer (a quiet second leaves its reservoir
// unused).
func tracesRecorded(requests float64) float64 {
	rate := requests / secondsPerMonth
	return min(rate, 1)*secondsPerMonth + 0.05*max(rate-1, 0)*secondsPerMonth
}

func print(w io.Writer, res Result) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "function\trequest\tstatus\tlines\tbytes\tof which metrics")
	for _, l := range res.Lines {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\n", l.Function, l.Request, l.Status, l.Lines, l.Bytes, l.MetricBytes)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\nlog per request: mean %.0f bytes (metrics %.0f), max %d; namespace %s\n", res.MeanBytes, res.MeanMetricBytes, res.MaxBytes, res.Namespace)
	fmt.Fprintf(w, "custom metrics (metric x dimension values): %d, $%.2f a month\n\n", res.MetricSeries, res.MetricsPerMonth)
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "requests/month\tserving ($2.56/M)\tlogs GB\tlogs ingest\tlogs stored\tmetrics\tX-Ray traces\tX-Ray Active\ttotal (Active)\ttotal (no X-Ray)\t")
	for _, n := range []float64{1e6, 10e6, 100e6} {
		m := price(res, n)
		fmt.Fprintf(tw, "%.0fM\t$%.2f\t%.2f\t$%.2f\t$%.2f\t$%.2f\t%.2fM\t$%.2f\t$%.2f\t$%.2f\t\n",
			n/1e6, m.baseline, m.logsGB, m.logsIngest, m.logsStore, m.metrics, m.traces/1e6, m.xray, m.total, m.total-m.xray)
	}
	_ = tw.Flush()
}
