package main

import (
	"strings"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/gen"
	"github.com/bizplatform/api/shared/metrics"
)

// The dashboard reads what the alarms read, one row per concern, from
// AWS's own metrics (free), the few the functions declare, and, for the
// counters no alarm reads, Logs Insights over the request lines.
const (
	namespace = "BizPlatform/${AWS::StackName}"
	region    = "${AWS::Region}"
	api       = "${HttpApi}"
	table     = "${DataTable}"
)

// number is a parameter a widget shows as a number: CloudFormation fills
// it in, unquoted.
func number(param string) string { return "\x00" + param + "\x00" }

type row struct {
	title   string
	widgets []widget
}

type widget struct {
	title  string
	stat   string
	lines  []any // a graph's metrics
	marks  []gen.Obj
	query  string // a Logs Insights widget's query, instead of lines
	groups []string
}

// metric is a graph line of one metric: namespace, name, dimension names
// and values, then its options.
func metric(ns, name string, rest ...any) []any { return append([]any{ns, name}, rest...) }

// search is a graph line of every series a SEARCH finds.
func search(id, expr, stat string) []any {
	return []any{gen.Obj{{"expression", "SEARCH('" + expr + "', '" + stat + "', 60)"}, {"id", id}, {"label", ""}}}
}

func label(l string) gen.Obj { return gen.Obj{{"label", l}} }

func mark(l, value string) gen.Obj { return gen.Obj{{"label", l}, {"value", number(value)}} }

// logGroup is a function's log group, as its resource names it.
func logGroup(dir string) string { return "/aws/lambda/${AWS::StackName}-" + dir }

func rows(fns []catalog.Function) []row {
	var errorsByFunction, invocations []any
	var apiLogGroups []string
	for _, f := range fns {
		if f.Role == catalog.RoleHook {
			continue
		}
		name := "${" + f.LogicalID + "}"
		errorsByFunction = append(errorsByFunction, metric("AWS/Lambda", "Errors", "FunctionName", name, label(f.Dir)))
		if f.AnswersRequests() {
			invocations = append(invocations, metric("AWS/Lambda", "Invocations", "FunctionName", name, label(f.Dir)))
		}
		if f.Role == catalog.RoleArea {
			apiLogGroups = append(apiLogGroups, logGroup(f.Dir))
		}
	}
	return []row{
		{"API and probe: traffic, errors and latency as API Gateway sees them, and the probe from outside", []widget{
			{title: "Requests", stat: "Sum", lines: []any{metric("AWS/ApiGateway", "Count", "ApiId", api, label("API Gateway"))}},
			{title: "4xx and 5xx answers", stat: "Sum", lines: []any{
				metric("AWS/ApiGateway", "5xx", "ApiId", api, label("5xx")),
				metric("AWS/ApiGateway", "4xx", "ApiId", api, label("4xx")),
			}},
			{title: "Latency (ms)", stat: "p99", lines: []any{
				metric("AWS/ApiGateway", "Latency", "ApiId", api, gen.Obj{{"stat", "p99"}, {"label", "p99"}}),
				metric("AWS/ApiGateway", "Latency", "ApiId", api, gen.Obj{{"stat", "p50"}, {"label", "p50"}}),
			}, marks: []gen.Obj{mark("ApiLatencyP99Ms", "ApiLatencyP99Ms")}},
			{title: "Probe: failed checks a minute (of 3)", stat: "Maximum", lines: []any{
				metric(namespace, metrics.ProbeFailures, metrics.DimFunction, metrics.ProbeFunction, label("failed checks")),
			}},
		}},
		{"Functions: invocations, failed invocations, 5xx by version, throttles and concurrency", []widget{
			{title: "Invocations", stat: "Sum", lines: invocations},
			{title: "Failed invocations (Lambda Errors)", stat: "Sum", lines: errorsByFunction},
			{title: "5xx answers by function and version", stat: "Sum", lines: []any{
				search("s_status5xx", "{"+namespace+",Function,Version} MetricName=\""+metrics.Status5xx+"\"", "Sum"),
			}},
			{title: "The account's throttles and concurrency", stat: "Sum", lines: []any{
				metric("AWS/Lambda", "Throttles", label("throttled invocations")),
				metric("AWS/Lambda", "ConcurrentExecutions", gen.Obj{{"stat", "Maximum"}, {"label", "concurrent executions"}}),
			}},
		}},
		{"DynamoDB: throttles, system errors, capacity", []widget{
			{title: "Throttles", stat: "Sum", lines: []any{
				metric(namespace, metrics.DynamoDBThrottles, label("met by the functions")),
				metric("AWS/DynamoDB", "ReadThrottleEvents", "TableName", table, label("read events (table)")),
				metric("AWS/DynamoDB", "WriteThrottleEvents", "TableName", table, label("write events (table)")),
			}},
			{title: "System errors (500) by operation", stat: "Sum", lines: []any{
				search("s_systemerrors", "{AWS/DynamoDB,Operation,TableName} MetricName=\"SystemErrors\" TableName=\""+table+"\"", "Sum"),
			}},
			{title: "Consumed capacity units", stat: "Sum", lines: []any{
				metric("AWS/DynamoDB", "ConsumedReadCapacityUnits", "TableName", table, label("read")),
				metric("AWS/DynamoDB", "ConsumedWriteCapacityUnits", "TableName", table, label("write")),
			}},
		}},
		{"Webhooks: attempts, backlog, the stream", []widget{
			{title: "Attempts and failures", stat: "Sum", lines: []any{
				metric(namespace, metrics.WebhookAttempts, metrics.DimFunction, metrics.WebhookFunction, label("attempts")),
				metric(namespace, metrics.WebhookFailures, metrics.DimFunction, metrics.WebhookFunction, label("failures")),
			}},
			{title: "Oldest pending event (s)", stat: "Maximum", lines: []any{
				metric(namespace, metrics.WebhookOldestPendingAgeSeconds, metrics.DimFunction, metrics.WebhookFunction, label("age")),
			}, marks: []gen.Obj{mark("WebhookOldestPendingSeconds", "WebhookOldestPendingSeconds")}},
			{title: "The stream's iterator age (ms)", stat: "Maximum", lines: []any{
				metric("AWS/Lambda", "IteratorAge", "FunctionName", "${"+catalog.WebhookFunction+"}", label("iterator age")),
			}, marks: []gen.Obj{mark("StreamIteratorAgeMs", "StreamIteratorAgeMs")}},
			{title: "Events the sweep recovered; endpoints disabled", stat: "Sum", lines: []any{
				metric(namespace, metrics.WebhookRecovered, metrics.DimFunction, metrics.WebhookFunction, label("recovered from the stream")),
				metric(namespace, metrics.WebhookEndpointsDisabled, metrics.DimFunction, metrics.WebhookFunction, label("endpoints disabled")),
			}},
		}},
		{"Security and counters: Logs Insights over the request lines", []widget{
			{title: "OAuth: code exchanges, refreshes, refresh-token reuse", groups: []string{logGroup(catalog.OAuth)},
				query: "stats sum(" + metrics.OAuthCodeExchanges.Name() + ") as code_exchanges, sum(" + metrics.OAuthRefreshes.Name() + ") as refreshes, sum(" + metrics.OAuthRefreshReuse.Name() + ") as refresh_reuse by bin(5m)"},
			{title: "Portal: failed sign-ins, lockouts", groups: []string{logGroup(catalog.Portal)},
				query: "stats sum(" + metrics.PortalSignInFailures.Name() + ") as failed_sign_ins, sum(" + metrics.PortalLockouts.Name() + ") as lockouts by bin(5m)"},
			{title: "429 answers by function", groups: apiLogGroups,
				query: "filter status = 429 | stats count(*) as refused by " + metrics.DimFunction + ", bin(5m)"},
			{title: "Idempotent replays by function", groups: apiLogGroups,
				query: "filter " + metrics.IdempotentReplays + " = 1 | stats count(*) as replays by " + metrics.DimFunction + ", bin(5m)"},
		}},
	}
}

// compactWidth is how long a value may be on one line of the body; longer
// objects and arrays take a line per member.
const compactWidth = 150

// writeJSON writes v as JSON, each value that fits compactWidth on one
// line: a metric's line of a graph reads as one line.
func writeJSON(b *strings.Builder, v any, indent string) {
	compact, err := gen.CompactJSON(v)
	if err != nil {
		panic(err) // strings, numbers and objects of them always encode
	}
	obj, isObj := v.(gen.Obj)
	list, isList := v.([]any)
	if objs, ok := v.([]gen.Obj); ok {
		for _, o := range objs {
			list = append(list, o)
		}
		isList = true
	}
	switch {
	case len(compact)+len(indent) <= compactWidth || !isObj && !isList:
		b.WriteString(compact)
	case isObj:
		b.WriteString("{\n")
		for i, kv := range obj {
			key, _ := gen.CompactJSON(kv[0])
			b.WriteString(indent + " " + key + ": ")
			writeJSON(b, kv[1], indent+" ")
			if i < len(obj)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(indent + "}")
	default:
		b.WriteString("[\n")
		for i, e := range list {
			b.WriteString(indent + " ")
			writeJSON(b, e, indent+" ")
			if i < len(list)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString(indent + "]")
	}
}

// dashboard is the Dashboard resource.
func dashboard(fns []catalog.Function) []string {
	var widgets []gen.Obj
	y := 0
	for _, r := range rows(fns) {
		widgets = append(widgets, gen.Obj{{"type", "text"}, {"x", 0}, {"y", y}, {"width", 24}, {"height", 1},
			{"properties", gen.Obj{{"markdown", "## " + r.title}}}})
		y++
		width := 24 / len(r.widgets)
		for i, w := range r.widgets {
			props := gen.Obj{{"title", w.title}, {"region", region}}
			kind := "metric"
			if w.query != "" {
				kind = "log"
				var sources []string
				for _, g := range w.groups {
					sources = append(sources, "SOURCE '"+g+"'")
				}
				props = append(props, gen.KV{"query", strings.Join(sources, " | ") + " | " + w.query}, gen.KV{"view", "timeSeries"})
			} else {
				props = append(props, gen.KV{"view", "timeSeries"}, gen.KV{"stacked", false}, gen.KV{"period", 60}, gen.KV{"stat", w.stat}, gen.KV{"metrics", w.lines})
				if len(w.marks) > 0 {
					props = append(props, gen.KV{"annotations", gen.Obj{{"horizontal", w.marks}}})
				}
			}
			widgets = append(widgets, gen.Obj{{"type", kind}, {"x", i * width}, {"y", y}, {"width", width}, {"height", 6}, {"properties", props}})
		}
		y += 6
	}
	body := gen.Obj{{"start", "-PT6H"}, {"periodOverride", "inherit"}, {"widgets", widgets}}
	var b strings.Builder
	writeJSON(&b, body, "")
	text := b.String()
	for {
		start := strings.Index(text, "\"\\u0000")
		if start < 0 {
			break
		}
		end := strings.Index(text[start+7:], "\\u0000\"")
		param := text[start+7 : start+7+end]
		text = text[:start] + "${" + param + "}" + text[start+7+end+7:]
	}
	out := []string{
		"  # The same figures as the alarms, one row per concern (docs/operations.md).",
		"  Dashboard:",
		"    Type: AWS::CloudWatch::Dashboard",
		"    Properties:",
		`      DashboardName: !Sub "${AWS::StackName}"`,
		"      DashboardBody: !Sub",
		"        - |",
	}
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		out = append(out, "          "+l)
	}
	return append(out, "        - DataTable: !If [UseExistingTable, !Ref ExistingTableName, !Ref Table]")
}
