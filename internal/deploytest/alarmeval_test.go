package deploytest

// A small evaluator of the template's CloudWatch alarms, as the CloudWatch
// User Guide documents them ("Using Amazon CloudWatch alarms": evaluating
// an alarm, M out of N, how missing data is treated; "Using metric math":
// arithmetic, comparison, IF and FILL), run over per-minute metric data of
// scenarios (alarmscenarios_test.go). Tests only.

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

// metricKey names one series: namespace, metric and dimensions.
type metricKey string

func keyOf(namespace, name string, dims map[string]string) metricKey {
	var parts []string
	for k, v := range dims {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return metricKey(namespace + "|" + name + "|" + strings.Join(parts, ","))
}

// sample is what one minute of a series holds.
type sample struct {
	sum, max float64
	n        int
}

// world is the metric data of a scenario, minute by minute.
type world struct {
	data map[metricKey]map[int]*sample
}

func newWorld() *world { return &world{data: map[metricKey]map[int]*sample{}} }

// put adds a value to a series at minute m.
func (w *world) put(m int, namespace, name string, dims map[string]string, value float64) {
	k := keyOf(namespace, name, dims)
	if w.data[k] == nil {
		w.data[k] = map[int]*sample{}
	}
	s := w.data[k][m]
	if s == nil {
		s = &sample{max: value}
		w.data[k][m] = s
	}
	s.sum += value
	s.max = math.Max(s.max, value)
	s.n++
}

// stat is a statistic of a series over [from, from+period) minutes; false
// when the series has no data then. A percentile is taken as the maximum:
// the scenarios' periods hold few samples, where CloudWatch's p99 is the
// largest.
func (w *world) stat(k metricKey, stat string, from, period int) (float64, bool) {
	var sum, mx float64
	n, seen := 0, false
	for m := from; m < from+period; m++ {
		s := w.data[k][m]
		if s == nil {
			continue
		}
		if !seen || s.max > mx {
			mx = s.max
		}
		seen = true
		sum += s.sum
		n += s.n
	}
	if !seen {
		return 0, false
	}
	switch {
	case stat == "Sum":
		return sum, true
	case stat == "Maximum" || strings.HasPrefix(stat, "p"):
		return mx, true
	case stat == "SampleCount":
		return float64(n), true
	case stat == "Average":
		return sum / float64(n), true
	}
	panic("no statistic " + stat)
}

// metricStat is one metric an alarm reads.
type metricStat struct {
	key    metricKey
	stat   string
	period int // minutes
}

// query is one of an alarm's metric-math queries.
type query struct {
	id     string
	expr   string
	metric *metricStat
	ret    bool
}

// evalAlarm is an alarm as the evaluator reads it from the template.
type evalAlarm struct {
	name        string
	queries     []query // one metric query (id "m") for a single-metric alarm
	period      int     // minutes
	n, m        int
	threshold   float64
	comparison  string
	missing     string
	readsAWSDDB bool
}

// readAlarms reads every alarm of the template as stack s resolves it.
func readAlarms(t *testing.T, tpl map[string]any, s Stack) []evalAlarm {
	t.Helper()
	res := tpl["Resources"].(map[string]any)
	var out []evalAlarm
	for _, name := range resourcesOfType(res, "AWS::CloudWatch::Alarm") {
		props, err := s.Resolve(tpl, Path(res[name], "Properties"))
		require.NoError(t, err, name)
		a := evalAlarm{name: name, comparison: fmt.Sprint(Path(props, "ComparisonOperator")), missing: fmt.Sprint(Path(props, "TreatMissingData"))}
		a.threshold = number(t, Path(props, "Threshold"))
		a.n = int(number(t, Path(props, "EvaluationPeriods")))
		a.m = a.n
		if v := Path(props, "DatapointsToAlarm"); v != nil {
			a.m = int(number(t, v))
		}
		metricOf := func(m any, stat any, period any) *metricStat {
			dims := map[string]string{}
			for _, d := range asList(Path(m, "Dimensions")) {
				dims[fmt.Sprint(Path(d, "Name"))] = fmt.Sprint(Path(d, "Value"))
			}
			ns := fmt.Sprint(Path(m, "Namespace"))
			a.readsAWSDDB = a.readsAWSDDB || ns == "AWS/DynamoDB"
			p := int(number(t, period))
			require.Zero(t, p%60, "%s: a period of whole minutes", name)
			return &metricStat{key: keyOf(ns, fmt.Sprint(Path(m, "MetricName")), dims), stat: fmt.Sprint(stat), period: p / 60}
		}
		if Path(props, "MetricName") != nil {
			stat := Path(props, "Statistic")
			if stat == nil {
				stat = Path(props, "ExtendedStatistic")
			}
			q := query{id: "m", ret: true, metric: metricOf(props, stat, Path(props, "Period"))}
			a.queries, a.period = []query{q}, q.metric.period
		} else {
			for _, q := range asList(Path(props, "Metrics")) {
				eq := query{id: fmt.Sprint(Path(q, "Id")), ret: Path(q, "ReturnData") != false}
				if e := Path(q, "Expression"); e != nil {
					eq.expr = fmt.Sprint(e)
				} else {
					eq.metric = metricOf(Path(q, "MetricStat", "Metric"), Path(q, "MetricStat", "Stat"), Path(q, "MetricStat", "Period"))
					require.True(t, a.period == 0 || a.period == eq.metric.period, "%s: every metric of a math alarm has the same period", name)
					a.period = eq.metric.period
				}
				a.queries = append(a.queries, eq)
			}
		}
		require.Positive(t, a.period, name)
		out = append(out, a)
	}
	return out
}

func number(t *testing.T, v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	case string:
		f, err := strconv.ParseFloat(x, 64)
		require.NoError(t, err)
		return f
	}
	t.Fatalf("%v is not a number", v)
	return 0
}

// evaluationRange is how many periods back CloudWatch retrieves when it
// evaluates: more than EvaluationPeriods, as the guide says; its examples
// retrieve 5 for 3, which this takes as N+2.
func evaluationRange(n int) int { return n + 2 }

// datapoints are the alarm's datapoints of the evaluation range ending at
// minute end (exclusive), oldest first; NaN where one is missing.
func (a evalAlarm) datapoints(w *world, end int) []float64 {
	r := evaluationRange(a.n)
	last := end / a.period * a.period // the last complete period ends here
	var starts []int
	for i := r; i >= 1; i-- {
		starts = append(starts, last-i*a.period)
	}
	series := map[string]ts{}
	var ret string
	for _, q := range a.queries {
		if q.metric != nil {
			s := ts{}
			for i, from := range starts {
				if v, ok := w.stat(q.metric.key, q.metric.stat, from, a.period); ok {
					s[i] = v
				}
			}
			series[q.id] = s
		}
		if q.ret {
			ret = q.id
		}
	}
	out := make([]float64, len(starts))
	var result ts
	if q := a.find(ret); q.metric != nil {
		result = series[ret]
	} else {
		v := evalExpr(q.expr, series, len(starts))
		result = v.ts
		if v.scalar {
			result = ts{}
			for i := range starts {
				result[i] = v.s
			}
		}
	}
	for i := range out {
		if v, ok := result[i]; ok {
			out[i] = v
		} else {
			out[i] = math.NaN()
		}
	}
	return out
}

func (a evalAlarm) find(id string) query {
	for _, q := range a.queries {
		if q.id == id {
			return q
		}
	}
	panic("no query " + id)
}

func (a evalAlarm) breaches(v float64) bool {
	switch a.comparison {
	case "GreaterThanOrEqualToThreshold":
		return v >= a.threshold
	case "GreaterThanThreshold":
		return v > a.threshold
	case "LessThanThreshold":
		return v < a.threshold
	case "LessThanOrEqualToThreshold":
		return v <= a.threshold
	}
	panic("no comparison " + a.comparison)
}

// state is the alarm's state after an evaluation at minute end, as the
// guide's "How alarm state is evaluated when data is missing" says: with
// at least N datapoints in the range, the most recent N of them; with
// fewer, all of them and as few missing ones, taken as the missing-data
// treatment says, as make N. ALARM when M of those breach.
func (a evalAlarm) state(w *world, end int) string {
	points := a.datapoints(w, end)
	var present []float64
	for _, v := range points {
		if !math.IsNaN(v) {
			present = append(present, v)
		}
	}
	breaching := 0
	if len(present) >= a.n {
		for _, v := range present[len(present)-a.n:] {
			if a.breaches(v) {
				breaching++
			}
		}
	} else {
		for _, v := range present {
			if a.breaches(v) {
				breaching++
			}
		}
		switch a.missing {
		case "breaching":
			breaching += a.n - len(present)
		case "notBreaching":
		default:
			panic(a.name + ": the evaluator models breaching and notBreaching, which is all the template uses")
		}
	}
	if breaching >= a.m {
		return "ALARM"
	}
	return "OK"
}

// ts is a time series: index of a period in the range -> value.
type ts map[int]float64

// value is an expression's value: a scalar or a time series.
type value struct {
	scalar bool
	s      float64
	ts     ts
}

// evalExpr evaluates a metric-math expression over the range's n periods.
func evalExpr(expr string, series map[string]ts, n int) value {
	p := &exprParser{toks: tokenize(expr), series: series, n: n}
	v := p.or()
	if p.i != len(p.toks) {
		panic(fmt.Sprintf("%q: unexpected %q", expr, p.toks[p.i]))
	}
	return v
}

func tokenize(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := rune(s[i])
		switch {
		case unicode.IsSpace(c):
			i++
		case unicode.IsDigit(c) || c == '.':
			j := i
			for j < len(s) && (unicode.IsDigit(rune(s[j])) || s[j] == '.') {
				j++
			}
			out, i = append(out, s[i:j]), j
		case unicode.IsLetter(c) || c == '_':
			j := i
			for j < len(s) && (unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j])) || s[j] == '_') {
				j++
			}
			out, i = append(out, s[i:j]), j
		case strings.HasPrefix(s[i:], ">=") || strings.HasPrefix(s[i:], "<=") || strings.HasPrefix(s[i:], "==") || strings.HasPrefix(s[i:], "!=") ||
			strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||"):
			out, i = append(out, s[i:i+2]), i+2
		default:
			out, i = append(out, string(c)), i+1
		}
	}
	return out
}

type exprParser struct {
	toks   []string
	i      int
	series map[string]ts
	n      int
}

func (p *exprParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *exprParser) next() string { t := p.peek(); p.i++; return t }

func (p *exprParser) expect(t string) {
	if got := p.next(); got != t {
		panic(fmt.Sprintf("want %q, got %q", t, got))
	}
}

func (p *exprParser) or() value {
	v := p.and()
	for p.peek() == "OR" || p.peek() == "||" {
		p.next()
		v = combine(v, p.and(), func(a, b float64) (float64, bool) { return flag(a != 0 || b != 0), true })
	}
	return v
}

func (p *exprParser) and() value {
	v := p.comparison()
	for p.peek() == "AND" || p.peek() == "&&" {
		p.next()
		v = combine(v, p.comparison(), func(a, b float64) (float64, bool) { return flag(a != 0 && b != 0), true })
	}
	return v
}

func (p *exprParser) comparison() value {
	v := p.sum()
	ops := map[string]func(a, b float64) bool{
		">=": func(a, b float64) bool { return a >= b }, "<=": func(a, b float64) bool { return a <= b },
		">": func(a, b float64) bool { return a > b }, "<": func(a, b float64) bool { return a < b },
		"==": func(a, b float64) bool { return a == b }, "!=": func(a, b float64) bool { return a != b },
	}
	for ops[p.peek()] != nil {
		op := ops[p.next()]
		v = combine(v, p.sum(), func(a, b float64) (float64, bool) { return flag(op(a, b)), true })
	}
	return v
}

func (p *exprParser) sum() value {
	v := p.product()
	for p.peek() == "+" || p.peek() == "-" {
		op := p.next()
		v = combine(v, p.product(), func(a, b float64) (float64, bool) {
			if op == "+" {
				return a + b, true
			}
			return a - b, true
		})
	}
	return v
}

func (p *exprParser) product() value {
	v := p.unary()
	for p.peek() == "*" || p.peek() == "/" {
		op := p.next()
		v = combine(v, p.unary(), func(a, b float64) (float64, bool) {
			if op == "*" {
				return a * b, true
			}
			if b == 0 {
				return 0, false // "the data point is dropped"
			}
			return a / b, true
		})
	}
	return v
}

func (p *exprParser) unary() value {
	if p.peek() == "-" {
		p.next()
		return combine(value{scalar: true}, p.unary(), func(a, b float64) (float64, bool) { return a - b, true })
	}
	return p.primary()
}

func (p *exprParser) primary() value {
	t := p.next()
	switch {
	case t == "(":
		v := p.or()
		p.expect(")")
		return v
	case t == "IF":
		p.expect("(")
		cond := p.or()
		p.expect(",")
		yes := p.or()
		var no *value
		if p.peek() == "," {
			p.next()
			v := p.or()
			no = &v
		}
		p.expect(")")
		return ifExpr(cond, yes, no, p.n)
	case t == "FILL":
		p.expect("(")
		s := p.or()
		p.expect(",")
		with := p.or()
		p.expect(")")
		if s.scalar || !with.scalar {
			panic("FILL(TS, S) is the form the evaluator knows")
		}
		out := ts{}
		for i := range p.n {
			if v, ok := s.ts[i]; ok {
				out[i] = v
			} else {
				out[i] = with.s
			}
		}
		return value{ts: out}
	case len(t) > 0 && (unicode.IsDigit(rune(t[0])) || t[0] == '.'):
		f, err := strconv.ParseFloat(t, 64)
		if err != nil {
			panic(err)
		}
		return value{scalar: true, s: f}
	}
	s, ok := p.series[t]
	if !ok {
		panic(fmt.Sprintf("no query %q", t))
	}
	return value{ts: s}
}

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// combine applies op to a and b. Two scalars make a scalar; a series and a
// scalar, a series at the series' timestamps; two series, a series at every
// timestamp of either, the missing value taken as 0 (the guide: arithmetic
// and comparison alike). op's false drops the datapoint (division by 0).
func combine(a, b value, op func(a, b float64) (float64, bool)) value {
	if a.scalar && b.scalar {
		v, _ := op(a.s, b.s)
		return value{scalar: true, s: v}
	}
	out := ts{}
	at := func(v value, i int) (float64, bool) {
		if v.scalar {
			return v.s, true
		}
		x, ok := v.ts[i]
		return x, ok
	}
	stamps := map[int]bool{}
	for _, v := range []value{a, b} {
		for i := range v.ts {
			stamps[i] = true
		}
	}
	for i := range stamps {
		x, okA := at(a, i)
		y, okB := at(b, i)
		if !okA && !a.scalar {
			x = 0
		}
		if !okB && !b.scalar {
			y = 0
		}
		if r, keep := op(x, y); keep {
			out[i] = r
		}
	}
	return value{ts: out}
}

// ifExpr is IF(cond, yes, no) as the guide's "Using IF expressions" says:
// for each datapoint of cond, yes's value when it is not 0 (0 when yes has
// none there), else no's (dropped when no has none there, or is omitted).
func ifExpr(cond, yes value, no *value, n int) value {
	if cond.scalar {
		if cond.s != 0 {
			return yes
		}
		if no == nil {
			return value{ts: ts{}}
		}
		return *no
	}
	out := ts{}
	for i, c := range cond.ts {
		if c != 0 {
			switch {
			case yes.scalar:
				out[i] = yes.s
			default:
				out[i] = yes.ts[i] // 0 when missing
			}
			continue
		}
		switch {
		case no == nil:
		case no.scalar:
			out[i] = no.s
		default:
			if v, ok := no.ts[i]; ok {
				out[i] = v
			}
		}
	}
	return value{ts: out}
}

// The evaluator's own check against the guide's examples: its tables of
// M out of N with missing data, and its IF and comparison examples.
func TestTheEvaluatorFollowsTheGuidesExamples(t *testing.T) {
	// "0 - X - X" style rows: 0 is a non-breaching datapoint, X a breaching
	// one, - a missing one; the five most recent datapoints of a 3 of 3
	// and of a 2 of 3 alarm.
	rows := []struct {
		points                 string
		m                      int
		notBreaching, breached string
	}{
		{"0-X-X", 3, "OK", "OK"},
		{"0----", 3, "OK", "OK"},
		{"-----", 3, "OK", "ALARM"},
		{"0XX-X", 3, "ALARM", "ALARM"},
		{"----X", 3, "OK", "ALARM"},
		{"X----", 3, "OK", "ALARM"},
		{"0-X-X", 2, "ALARM", "ALARM"},
		{"00X0X", 2, "ALARM", "ALARM"},
		{"0-X--", 2, "OK", "ALARM"},
		{"----0", 2, "OK", "ALARM"},
		{"----X", 2, "OK", "ALARM"},
	}
	for _, r := range rows {
		for missing, want := range map[string]string{"notBreaching": r.notBreaching, "breaching": r.breached} {
			t.Run(fmt.Sprintf("%s, %d of 3, missing %s", r.points, r.m, missing), func(t *testing.T) {
				w := newWorld()
				k := keyOf("ns", "m", nil)
				for i, c := range r.points {
					switch c {
					case '0':
						w.put(i, "ns", "m", nil, 0)
					case 'X':
						w.put(i, "ns", "m", nil, 5)
					}
				}
				a := evalAlarm{name: "a", queries: []query{{id: "m", ret: true, metric: &metricStat{key: k, stat: "Sum", period: 1}}},
					period: 1, n: 3, m: r.m, threshold: 1, comparison: "GreaterThanOrEqualToThreshold", missing: missing}
				require.Equal(t, want, a.state(w, 5))
			})
		}
	}
	m1 := ts{0: 1, 1: 1, 2: 0, 3: 0}
	m2 := ts{0: 30, 2: 0, 3: 0, 4: 30}
	m3 := ts{0: 0, 1: 0, 2: 20, 4: 20}
	got := evalExpr("IF(metric1, metric2, metric3)", map[string]ts{"metric1": m1, "metric2": m2, "metric3": m3}, 5)
	require.Equal(t, ts{0: 30, 1: 0, 2: 20}, got.ts, "the guide's IF(metric1, metric2, metric3): [30, 0, 20, -, -]")
	got = evalExpr("IF(metric1, 5, metric3)", map[string]ts{"metric1": m1, "metric3": m3}, 5)
	require.Equal(t, ts{0: 5, 1: 5, 2: 20}, got.ts, "IF(metric1, scalar2, metric3): [5, 5, 20, -, -]")
	got = evalExpr("IF(metric1, metric2, 5)", map[string]ts{"metric1": m1, "metric2": m2}, 5)
	require.Equal(t, ts{0: 30, 1: 0, 2: 5, 3: 5}, got.ts, "IF(metric1, metric2, scalar3): [30, 0, 5, 5, -]")
	c1, c2 := ts{0: 30, 1: 20, 2: 0, 3: 0}, ts{0: 20, 2: 20}
	require.Equal(t, ts{0: 0, 1: 0, 2: 1, 3: 0}, evalExpr("metric1 < metric2", map[string]ts{"metric1": c1, "metric2": c2}, 4).ts, "missing counts as 0")
	require.Equal(t, ts{0: 1, 1: 0, 2: 0, 3: 0}, evalExpr("metric1 > 15 AND metric2 > 15", map[string]ts{"metric1": c1, "metric2": c2}, 4).ts)
	require.Equal(t, ts{0: 2, 2: 0}, evalExpr("100 * a / b", map[string]ts{"a": {0: 1, 1: 1, 2: 0}, "b": {0: 50, 2: 7}}, 3).ts, "a division by 0 drops the datapoint")
	require.Equal(t, ts{0: 1, 1: 0, 2: 0}, evalExpr("FILL(a, 0)", map[string]ts{"a": {0: 1}}, 3).ts)
}
