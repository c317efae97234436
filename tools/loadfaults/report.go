package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/storage"
)

// partition reads every item of a partition, by sort key.
func partition(ctx context.Context, table *storage.Table, pk string) (map[string]map[string]any, error) {
	items := map[string]map[string]any{}
	var start map[string]types.AttributeValue
	for {
		out, err := table.DB.Query(ctx, &dynamodb.QueryInput{
			TableName:              aws.String(table.Name),
			KeyConditionExpression: aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":pk": &types.AttributeValueMemberS{Value: pk},
			},
			ConsistentRead:    aws.Bool(true),
			ExclusiveStartKey: start,
		})
		if err != nil {
			return nil, err
		}
		for _, av := range out.Items {
			var m map[string]any
			if err := attributevalue.UnmarshalMap(av, &m); err != nil {
				return nil, err
			}
			sk, _ := m["SK"].(string)
			items[sk] = m
		}
		if len(out.LastEvaluatedKey) == 0 {
			return items, nil
		}
		start = out.LastEvaluatedKey
	}
}

// report prints the figures and reports whether every check passed.
func report(out io.Writer, o options, w *workload, down outage, items map[string]map[string]any) bool {
	ok := true
	check := func(pass bool, format string, args ...any) {
		mark := "ok  "
		if !pass {
			mark, ok = "FAIL", false
		}
		fmt.Fprintf(out, "  %s %s\n", mark, fmt.Sprintf(format, args...))
	}
	res := w.results
	fmt.Fprintf(out, "\nRequests: %d in %s; engine down %s (killed at +%s)\n", len(res), o.duration,
		down.restartedAt.Sub(down.killedAt).Round(time.Millisecond), down.killedAt.Sub(res[0].sent).Round(time.Second))

	byStatus := map[int]int{}
	byOp := map[string]map[int]int{}
	serverErrorsOutside, serverErrorsDuring, droppedOutside := 0, 0, 0
	for _, r := range res {
		byStatus[r.status]++
		if byOp[r.op] == nil {
			byOp[r.op] = map[int]int{}
		}
		byOp[r.op][r.status]++
		if r.status >= 500 || r.status == 0 {
			if down.covers(r.sent, r.recv) {
				serverErrorsDuring++
			} else if r.status == 0 {
				droppedOutside++
			} else {
				serverErrorsOutside++
			}
		}
	}
	fmt.Fprintf(out, "By status: %s\n", statusLine(byStatus))
	var names []string
	for n := range byOp {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(out, "  %-32s %s\n", n, statusLine(byOp[n]))
	}

	fmt.Fprintln(out, "\nChecks:")
	check(serverErrorsOutside == 0, "5xx outside the outage window (+%s grace after restart): %d (during it: %d)", restartGrace, serverErrorsOutside, serverErrorsDuring)
	check(droppedOutside == 0, "requests without an answer outside the outage window: %d", droppedOutside)

	// Creates: each acknowledged one found exactly once; none twice.
	acked, found, lost, dup, unackedApplied := 0, 0, 0, 0, 0
	for _, c := range w.creates {
		n := 0
		for sk, it := range items {
			if strings.HasPrefix(sk, c.prefix) && it[c.attr] == c.value {
				n++
			}
		}
		if n > 1 {
			dup++
		}
		if c.acked {
			acked++
			if n >= 1 {
				found++
			} else {
				lost++
			}
		} else if n == 1 {
			unackedApplied++
		}
	}
	check(lost == 0 && dup == 0, "creates: %d acknowledged, %d found afterwards, %d lost, %d duplicated (%d of %d unacknowledged ones had been applied)",
		acked, found, lost, dup, unackedApplied, len(w.creates)-acked)

	// Relations and deletes: an acknowledged one left its item present/absent.
	kAcked, kWrong := 0, 0
	byKind := map[string]int{}
	for _, k := range w.keyed {
		if !k.acked {
			continue
		}
		kAcked++
		byKind[k.op]++
		if _, present := items[k.sk]; present != k.present {
			kWrong++
			fmt.Fprintf(out, "       %s acknowledged but %s is %s\n", k.op, k.sk, map[bool]string{true: "present", false: "absent"}[present])
		}
	}
	check(kWrong == 0, "relations created and records deleted: %d acknowledged (%s), %d not as acknowledged", kAcked, kindLine(byKind), kWrong)

	// Overwrites: the last acknowledged version or a later attempted one.
	for _, ow := range w.overwrites {
		got := ow.read(items)
		allowed := []int{ow.lastAcked}
		allowed = append(allowed, ow.failed...)
		match := -1
		for _, v := range allowed {
			if ow.lastAcked > 0 && got == ow.want(v) {
				match = v
			}
		}
		check(match >= 0, "%s: %d versions written, last acknowledged v%d, stored v%d %s", ow.name, ow.version, ow.lastAcked, match, map[bool]string{true: "(whole)", false: "= " + got}[match >= 0])
	}

	for _, account := range []string{alpha, charlie} {
		rateChecks(out, check, o, account, res, down)
	}
	return ok
}

// rateChecks checks admission per window for one account. Each admitted
// request carries X-RateLimit-Remaining = burst - (its rank in the window),
// so in one window the values must all differ (never more admitted than
// the burst), and a window that refused a request must have admitted the
// whole burst (remaining values burst-1 .. 0 all seen). A request whose
// send and answer fall in different windows could be in either; it is
// counted in both for the second check and in neither for the first. The
// windows the outage touched are left out of the second check: a request
// admitted just before the engine died may have lost its answer.
func rateChecks(out io.Writer, check func(bool, string, ...any), o options, account string, res []result, down outage) {
	win := func(t time.Time) int64 { return t.UnixMilli() / o.window.Milliseconds() }
	type window struct {
		sure      map[int]int  // remaining value -> how many certain requests carried it
		maybe     map[int]bool // remaining values seen in requests that may be in this window
		refused   int
		admitted  int
		outageHit bool
	}
	windows := map[int64]*window{}
	get := func(k int64) *window {
		if windows[k] == nil {
			windows[k] = &window{sure: map[int]int{}, maybe: map[int]bool{}}
		}
		return windows[k]
	}
	for _, r := range res {
		if r.account != account || r.status == 0 {
			continue
		}
		first, last := win(r.sent), win(r.recv)
		for k := first; k <= last; k++ {
			if down.covers(r.sent, r.recv) {
				get(k).outageHit = true
			}
		}
		if r.remaining < 0 {
			continue // not through admission (e.g. a 503 while the engine was down)
		}
		for k := first; k <= last; k++ {
			w := get(k)
			if r.status == 429 {
				if first == last {
					w.refused++
				}
				continue
			}
			w.maybe[r.remaining] = true
			if first == last {
				w.sure[r.remaining]++
				w.admitted++
			}
		}
	}
	over, exactWindows, full, refusedWindows, maxAdmitted := 0, 0, 0, 0, 0
	for _, w := range windows {
		maxAdmitted = max(maxAdmitted, w.admitted)
		for v, n := range w.sure {
			if n > 1 || v < 0 || v >= o.burst {
				over++
				break
			}
		}
		if w.refused > 0 && !w.outageHit {
			refusedWindows++
			all := true
			for v := 0; v < o.burst; v++ {
				all = all && w.maybe[v]
			}
			if all {
				full++
			}
		}
		exactWindows++
	}
	check(over == 0, "rate limit of %s: %d windows, most admitted in one %d (limit %d); windows admitting a slot twice or beyond the limit: %d",
		account, exactWindows, maxAdmitted, o.burst, over)
	check(full == refusedWindows, "rate limit of %s: windows that refused requests: %d, of which admitted the whole burst first: %d", account, refusedWindows, full)
}

func statusLine(m map[int]int) string {
	var keys []int
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var parts []string
	for _, k := range keys {
		name := fmt.Sprint(k)
		if k == 0 {
			name = "no answer"
		}
		parts = append(parts, fmt.Sprintf("%s: %d", name, m[k]))
	}
	return strings.Join(parts, ", ")
}

func kindLine(m map[string]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
