// Package watchcost is `bench watchcost`: what watching the stack costs a
// month. It serves each function's sample events (events/<function>/*.json,
// the requests the functions are tested with), a request without a token
// and one to a path no operation serves, in process on a DynamoDB Local
// table holding the demo data, and measures the log bytes each request
// writes, and those of the probe's and the deliverer's lines; it counts
// the custom metrics the lines can make (shared/metrics), and the alarm
// metrics and dashboards template.yaml defines; then it prices a month of
// them, the probe's own runs (bench cost) and X-Ray, at 1, 10 and 100
// million requests, and prints `watching at 1M requests a month: $N`.
package watchcost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
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
	"github.com/bizplatform/api/internal/deploytest"
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
	"github.com/bizplatform/api/tools/bench/cost"
	"github.com/bizplatform/api/tools/bench/kit"
)

// Prices, us-east-1, as AWS publishes them on the CloudWatch and X-Ray
// pricing pages (the AWS free tier, which an account shares among its
// stacks, is not taken off); flags override the ones a reader may want to
// change.
const (
	priceLogsIngestPerGB   = 0.50 // CloudWatch Logs, standard class, ingestion
	priceLogsStorePerGBMon = 0.03 // CloudWatch Logs storage
	// priceMetricPerMonth is a custom metric (each metric name with each
	// combination of dimension values), first 10,000: billed by the hour
	// it receives data, $0.30 for a month of hours.
	priceMetricPerMonth = 0.30
	// priceAlarmMetric is a standard-resolution alarm (a period of a
	// minute or more), per metric it reads: a metric-math alarm pays for
	// each metric of its expression.
	priceAlarmMetric = 0.10
	// priceHighResAlarmMetric is the same at a period under a minute.
	priceHighResAlarmMetric = 0.30
	priceDashboard          = 3.00 // a dashboard a month
	priceTracesPerMillion   = 5.00 // X-Ray traces recorded
	freeTracesPerMonth      = 100_000
	// baselinePerMillion is a million requests of the load's mix without
	// watching (docs/performance.md, `bench cost`).
	baselinePerMillion = 2.56
	secondsPerMonth    = 30 * 24 * 3600
	hoursPerMonth      = 730
	// runsPerMonth are the probe's runs, and the deliverer's scheduled
	// sweeps, each writing a line.
	runsPerMonth = cost.ProbeRunsPerMonth
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
	// ProbeLineBytes and SweepLineBytes are a probe run's line and a
	// scheduled sweep's (no attempt, the age), each written every minute.
	ProbeLineBytes int    `json:"probeLineBytes"`
	SweepLineBytes int    `json:"sweepLineBytes"`
	Namespace      string `json:"namespace"`
	Series         Series `json:"series"`
	Alarms         Alarms `json:"alarms"`
	Dashboards     int    `json:"dashboards"`
	// FailureHours is how many hours a month each failure-only series is
	// priced at (-failure-hours).
	FailureHours float64        `json:"failureHours"`
	Probe        cost.ProbeCost `json:"probe"`
}

// Series are the custom metrics the lines can make.
type Series struct {
	// Always are written every hour (the probe's, the deliverer's age,
	// attempts and failures).
	Always int `json:"always"`
	// OnFailure are written only by a failure (a 5xx of a function's
	// version, a throttle, a recovered event, a disabled endpoint).
	OnFailure int `json:"onFailure"`
	// ByOperation are what OperationMetrics=On adds.
	ByOperation int `json:"byOperation"`
}

// Alarms are the template's alarms and the metrics they read.
type Alarms struct {
	Alarms         int `json:"alarms"`
	Metrics        int `json:"metrics"`
	HighResMetrics int `json:"highResMetrics"`
}

// Run measures and prints.
func Run(args []string) error {
	cmd := kit.NewCommand("watchcost")
	endpoint := cmd.String("endpoint", firstSet(os.Getenv("DYNAMODB_ENDPOINT"), os.Getenv("TEST_DYNAMODB_ENDPOINT")), "DynamoDB Local's endpoint (empty: start one from .local)")
	stack := cmd.String("stack", "bizplatform-prod", "the stack name in the namespace (BizPlatform/<stack>), as deployed")
	failureHours := cmd.Float64("failure-hours", 24, "hours a month each failure-only metric is priced at (a healthy stack: a few)")
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
	res.FailureHours = *failureHours
	if res.Alarms, res.Dashboards, err = templateAlarms(filepath.Join(cmd.Root, "template.yaml")); err != nil {
		return err
	}
	memory, err := cost.TemplateMemory(filepath.Join(cmd.Root, "template.yaml"))
	if err != nil {
		return err
	}
	res.Probe = cost.Probe(memory, cost.DefaultPrices())
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
	res.Series = metricSeries()
	res.ProbeLineBytes, res.SweepLineBytes = otherLines(namespace)
	return res, nil
}

// otherLines are the bytes of a probe run's line (three checks passed)
// and of a scheduled sweep's (nothing attempted, the oldest pending age),
// as the functions' logger writes them.
func otherLines(namespace string) (probe, sweep int) {
	var buf bytes.Buffer
	logger := wiring.NewLogger(&buf, nil)
	meter := metrics.NewMeter(namespace, "")
	checks := []any{
		map[string]any{"check": "a request without a token", "status": 401, "ms": 41.2},
		map[string]any{"check": "a read with the canary token", "status": 200, "ms": 63.7},
		map[string]any{"check": "the OpenAPI document", "status": 200, "ms": 88.1},
	}
	logger.LogAttrs(context.Background(), slog.LevelInfo, "probe", append(meter.ProbeLines().Attrs(time.Now(), 0), slog.Any("checks", checks))...)
	probe = buf.Len()
	buf.Reset()
	age := time.Duration(0)
	logger.LogAttrs(context.Background(), slog.LevelInfo, "webhook deliveries", meter.WebhookLines().Attrs(time.Now(), metrics.Deliveries{OldestPending: &age})...)
	return probe, buf.Len()
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
	for _, m := range append(append([]metrics.Metric{}, metrics.OperationMetrics...), metrics.FailureMetrics...) {
		names = append(names, m.Name)
	}
	names = append(names, metrics.DimVersion)
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

// metricSeries counts the custom metrics the lines can make: each metric
// name with each dimension-value combination. Every hour: the probe's, and
// the deliverer's attempts, failures and oldest pending age. Only when
// something failed: Status5xx of each request-serving function's live
// version (a deploy's new version while it is the canary too, which this
// leaves out), the stack's DynamoDBThrottles, the deliverer's recovered
// events and disabled endpoints. By operation (opt-in): requests, 5xx and
// latency of each API operation and each API function's unmatched.
func metricSeries() Series {
	var s Series
	s.Always = len(metrics.ProbeMetrics) + 3 // attempts, failures, the age
	for _, f := range catalog.Functions() {
		if f.AnswersRequests() {
			s.OnFailure++
		}
	}
	s.OnFailure += 1 + 2 // DynamoDBThrottles; WebhookRecovered, WebhookEndpointsDisabled
	perFunction := map[string]int{}
	for _, op := range operations.All {
		perFunction[op.Area]++
	}
	for _, ops := range perFunction {
		s.ByOperation += len(metrics.OperationMetrics) * (ops + 1)
	}
	return s
}

// templateAlarms counts the template's alarms, the metrics they read
// (standard resolution, or high resolution below a minute), and its
// dashboards.
func templateAlarms(path string) (Alarms, int, error) {
	tpl, err := deploytest.ReadTemplate(path)
	if err != nil {
		return Alarms{}, 0, err
	}
	res, _ := tpl["Resources"].(map[string]any)
	var a Alarms
	dashboards := 0
	for _, r := range res {
		switch deploytest.Path(r, "Type") {
		case "AWS::CloudWatch::Dashboard":
			dashboards++
		case "AWS::CloudWatch::Alarm":
			a.Alarms++
			props := deploytest.Path(r, "Properties")
			count := func(period any) {
				if p, ok := period.(int); ok && p < 60 {
					a.HighResMetrics++
				} else {
					a.Metrics++
				}
			}
			if deploytest.Path(props, "MetricName") != nil {
				count(deploytest.Path(props, "Period"))
				continue
			}
			queries, _ := deploytest.Path(props, "Metrics").([]any)
			for _, q := range queries {
				if ms := deploytest.Path(q, "MetricStat"); ms != nil {
					count(deploytest.Path(ms, "Period"))
				}
			}
		}
	}
	if a.Alarms == 0 {
		return Alarms{}, 0, fmt.Errorf("%s defines no alarm", path)
	}
	return a, dashboards, nil
}

// monthly is what watching costs at requests a month.
type monthly struct {
	requests                      float64
	traces, xray                  float64
	logsGB, logsIngest, logsStore float64
	metrics, alarms, dashboards   float64
	probe, baseline, watching     float64
}

func price(res Result, requests float64) monthly {
	m := monthly{requests: requests}
	fixedBytes := float64(runsPerMonth) * float64(res.ProbeLineBytes+res.SweepLineBytes)
	m.logsGB = (requests*res.MeanBytes + fixedBytes) / 1e9
	m.logsIngest = m.logsGB * priceLogsIngestPerGB
	m.logsStore = m.logsGB * priceLogsStorePerGBMon // a month kept (30 days, the default retention), uncompressed: an upper bound
	m.metrics = (float64(res.Series.Always) + float64(res.Series.OnFailure)*res.FailureHours/hoursPerMonth) * priceMetricPerMonth
	m.alarms = float64(res.Alarms.Metrics)*priceAlarmMetric + float64(res.Alarms.HighResMetrics)*priceHighResAlarmMetric
	m.dashboards = float64(res.Dashboards) * priceDashboard
	m.probe = res.Probe.Total
	m.traces = tracesRecorded(requests)
	m.xray = max(0, m.traces-freeTracesPerMonth) / 1e6 * priceTracesPerMillion
	m.baseline = requests / 1e6 * baselinePerMillion
	m.watching = m.logsIngest + m.logsStore + m.metrics + m.alarms + m.dashboards + m.probe
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
	fmt.Fprintf(w, "\nlog per request: mean %.0f bytes (metrics %.0f), max %d; a probe run's line %d bytes, a sweep's %d, each a minute; namespace %s\n",
		res.MeanBytes, res.MeanMetricBytes, res.MaxBytes, res.ProbeLineBytes, res.SweepLineBytes, res.Namespace)
	fmt.Fprintf(w, "custom metrics: %d every hour, %d only in an hour with a failure (priced at %.0f hours a month), %d more with OperationMetrics=On ($%.2f a month)\n",
		res.Series.Always, res.Series.OnFailure, res.FailureHours, res.Series.ByOperation, float64(res.Series.ByOperation)*priceMetricPerMonth)
	fmt.Fprintf(w, "alarms: %d reading %d metrics (%d at high resolution); dashboards: %d\n", res.Alarms.Alarms, res.Alarms.Metrics+res.Alarms.HighResMetrics, res.Alarms.HighResMetrics, res.Dashboards)
	fmt.Fprintf(w, "prices (us-east-1): logs $%.2f/GB ingested, $%.2f/GB-month stored; custom metric $%.2f a month (by the hour it has data); alarm $%.2f per metric read ($%.2f high resolution); dashboard $%.2f; probe: bench cost\n\n",
		priceLogsIngestPerGB, priceLogsStorePerGBMon, priceMetricPerMonth, priceAlarmMetric, priceHighResAlarmMetric, priceDashboard)
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "requests/month\tserving ($2.56/M)\tlogs GB\tlogs ingest\tlogs stored\tmetrics\talarms\tdashboard\tprobe\twatching\tX-Ray if Active\t")
	for _, n := range []float64{1e6, 10e6, 100e6} {
		m := price(res, n)
		fmt.Fprintf(tw, "%.0fM\t$%.2f\t%.2f\t$%.2f\t$%.2f\t$%.2f\t$%.2f\t$%.2f\t$%.2f\t$%.2f\t$%.2f\t\n",
			n/1e6, m.baseline, m.logsGB, m.logsIngest, m.logsStore, m.metrics, m.alarms, m.dashboards, m.probe, m.watching, m.xray)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\nwatching at 1M requests a month: $%.2f\n", price(res, 1e6).watching)
}
