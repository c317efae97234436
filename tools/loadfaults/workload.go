package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bizplatform/api/internal/demo"
)

const (
	alpha   = "demoLocAlpha00000001"
	charlie = "demoLocCharlie000003"
)

// result is one request as the client saw it.
type result struct {
	op         string
	account    string
	sent, recv time.Time
	status     int // 0: no answer (connection error)
	remaining  int // X-RateLimit-Remaining, -1 when absent
}

// call is one request to make; done (optional) sees its answer.
type call struct {
	op, method, path, body, token, account string
	done                                   func(status int, body []byte)
}

// op is a kind of request of the mix; next returns the next call, or false
// when the op has nothing left to do (or its record is busy).
type op struct {
	weight int
	next   func(r *rand.Rand) (call, bool)
}

// create is a write that makes a record holding a unique value.
type create struct {
	op, prefix, attr, value string
	acked                   bool
}

// keyed is a write whose effect is one item's presence or absence.
type keyed struct {
	op, sk  string
	present bool // what an acknowledged write leaves
	acked   bool
}

// overwrite is a record rewritten with numbered versions, one write at a
// time, so the last acknowledged version is well defined.
type overwrite struct {
	name    string
	busy    sync.Mutex
	version int
	request func(v int) (method, path, body string)
	// read returns the stored state's fingerprint from the partition.
	read func(items map[string]map[string]any) string
	want func(v int) string

	mu        sync.Mutex
	lastAcked int
	failed    []int // versions attempted after lastAcked without an acknowledgement
}

type workload struct {
	base   string
	o      options
	client *http.Client
	run_   string // letters unique to this run
	ops    []op

	mu         sync.Mutex
	results    []result
	creates    []*create
	keyed      []*keyed
	overwrites []*overwrite
	seq        int
	tasks      [][2]string
	coupons    []string
	relations  [][2]string
	cursor     string
}

func newWorkload(base string, o options) (*workload, error) {
	w := &workload{
		base: base, o: o,
		client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: o.workers + 4}},
		run_:   letters(int(time.Now().Unix() % 308915776)),
	}
	ds, err := demo.Default()
	if err != nil {
		return nil, err
	}
	var contacts struct {
		Contacts []struct {
			ID         string `json:"id"`
			LocationID string `json:"locationId"`
			Tasks      []struct {
				ID string `json:"id"`
			} `json:"tasks"`
		} `json:"contacts"`
	}
	if err := json.Unmarshal(ds["contacts"], &contacts); err != nil {
		return nil, err
	}
	for _, c := range contacts.Contacts {
		for _, t := range c.Tasks {
			if c.LocationID == alpha {
				w.tasks = append(w.tasks, [2]string{c.ID, t.ID})
			}
		}
	}
	for i := 1; i <= 12; i++ {
		w.coupons = append(w.coupons, fmt.Sprintf("demoCpnAlpha%08d", i))
	}
	for c := 11; c <= 300; c++ {
		for p := 1; p <= 6; p++ {
			w.relations = append(w.relations, [2]string{fmt.Sprintf("demoPetAlpha%08d", p), fmt.Sprintf("demoCtcAlpha%08d", c)})
		}
	}
	w.overwrites = overwrites()
	w.ops = w.mix()
	return w, nil
}

// letters spells n in lowercase letters (ids and names of some records
// allow only letters).
func letters(n int) string {
	s := ""
	for {
		s = string(rune('a'+n%26)) + s
		n /= 26
		if n == 0 {
			return s
		}
	}
}

func (w *workload) unique() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seq++
	return w.run_ + "-" + letters(w.seq)
}

var (
	tokenAll         = demo.Tokens[0].Value()
	tokenMarketplace = demo.Tokens[1].Value()
	tokenCharlie     = demo.Tokens[3].Value()
)

// mix is the workload: reads dominate (about 70%), writes make unique
// records, delete demo records once each, and rewrite records version after
// version.
func (w *workload) mix() []op {
	get := func(name, path string) op {
		return op{weight: 10, next: func(*rand.Rand) (call, bool) {
			return call{op: name, method: "GET", path: path, token: tokenAll, account: alpha}, true
		}}
	}
	ops := []op{
		{weight: 14, next: func(r *rand.Rand) (call, bool) {
			q := "locationId=" + alpha + "&limit=20"
			w.mu.Lock()
			if w.cursor != "" && r.IntN(2) == 0 {
				q = w.cursor
			}
			w.mu.Unlock()
			return call{op: "list contacts", method: "GET", path: "/contacts/?" + q, token: tokenAll, account: alpha,
				done: func(status int, body []byte) { w.rememberCursor(status, body) }}, true
		}},
		{weight: 10, next: func(r *rand.Rand) (call, bool) {
			return call{op: "get message", method: "GET", path: fmt.Sprintf("/conversations/messages/demoMsgAlpha%08d", r.IntN(20)+1), token: tokenAll, account: alpha}, true
		}},
		get("list files", "/medias/files?altType=account&altId="+alpha+"&type=file&sortBy=createdAt&sortOrder=asc&parentId=demoFldAlpha00000003&limit=20&offset=20"),
		get("list surveys", "/surveys/?locationId="+alpha+"&type=folder&limit=3"),
		get("list campaigns", "/campaigns/?locationId="+alpha+"&status=draft"),
		get("search-ads report", "/ad-publishing/searchads/reporting/list?locationId="+alpha+"&listType=adGroups&type=INTEGRATION&startDate=2026-09-01&endDate=2026-09-30&campaignId=demoSearchCmpAlpha02"),
		{weight: 8, next: func(*rand.Rand) (call, bool) {
			return call{op: "filter users", method: "POST", path: "/users/search/filter-by-email", token: tokenAll, account: alpha,
				body: `{"companyId":"demoCompanyNorthwind","emails":"zoe.garcia@alphadental.example, Casey.Morgan@freelance.example","projection":"name,roles"}`}, true
		}},
		w.creating("create association", "ASSOCIATION#", "key", tokenAll, func(u string) (string, string) {
			key := "lf_" + strings.ReplaceAll(u, "-", "_")
			return key, fmt.Sprintf(`{"locationId":%q,"key":%q,"firstObjectLabel":"Vehicle","firstObjectKey":"custom_objects.vehicle","secondObjectLabel":"Driver","secondObjectKey":"contact"}`, alpha, key)
		}, "/associations/"),
		w.creating("create brand board", "BRANDBOARD#", "name", tokenAll, func(u string) (string, string) {
			name := "Load " + u
			return name, fmt.Sprintf(`{"locationId":%q,"name":%q,"brandBoardId":"bbd0a1000000000000000001","type":"template","default":false}`, alpha, name)
		}, "/brand-boards/"),
		w.creating("create e-mail template", "EMAILTEMPLATE#", "title", tokenAll, func(u string) (string, string) {
			title := "Load template " + u
			return title, fmt.Sprintf(`{"locationId":%q,"type":"html","title":%q,"name":"Load","builderVersion":"2","parentId":"demoFldAlpha00000002","isPlainText":false}`, alpha, title)
		}, "/emails/builder"),
		w.creating("create white-label provider", "WHITELABELPROVIDER#", "uniqueName", tokenMarketplace, func(u string) (string, string) {
			name := "lf-" + u
			return name, fmt.Sprintf(`{"altId":%q,"altType":"account","uniqueName":%q,"title":"Load provider","provider":"nmi","description":"load","imageUrl":"https://assets.example.com/p.png"}`, alpha, name)
		}, "/payments/integrations/provider/whitelabel"),
		{weight: 3, next: func(*rand.Rand) (call, bool) {
			pair, ok := take(w, &w.relations)
			if !ok {
				return call{}, false
			}
			k := &keyed{op: "create relation", sk: "RELATION#demoAscAlpha00000001#" + pair[0] + "#" + pair[1], present: true}
			return w.keyedCall(k, "POST", "/associations/relations", tokenAll,
				fmt.Sprintf(`{"locationId":%q,"associationId":"demoAscAlpha00000001","firstRecordId":%q,"secondRecordId":%q}`, alpha, pair[0], pair[1])), true
		}},
		{weight: 3, next: func(*rand.Rand) (call, bool) {
			t, ok := take(w, &w.tasks)
			if !ok {
				return call{}, false
			}
			k := &keyed{op: "delete task", sk: "TASK#" + t[0] + "#" + t[1]}
			return w.keyedCall(k, "DELETE", "/contacts/"+t[0]+"/tasks/"+t[1], tokenAll, ""), true
		}},
		{weight: 1, next: func(*rand.Rand) (call, bool) {
			id, ok := take(w, &w.coupons)
			if !ok {
				return call{}, false
			}
			k := &keyed{op: "delete coupon", sk: "COUPON#" + id}
			return w.keyedCall(k, "DELETE", "/payments/coupon", tokenAll, fmt.Sprintf(`{"altId":%q,"altType":"account","id":%q}`, alpha, id)), true
		}},
		{weight: 1, next: func(*rand.Rand) (call, bool) {
			return call{op: "delete social-ads integration", method: "DELETE", path: "/ad-publishing/socialads/integration", token: tokenAll, account: alpha,
				body: fmt.Sprintf(`{"locationId":%q}`, alpha)}, true
		}},
	}
	for _, ow := range w.overwrites {
		ops = append(ops, op{weight: 2, next: func(*rand.Rand) (call, bool) { return w.rewrite(ow) }})
	}
	return ops
}

// take removes and returns the first element of one of w's lists.
func take[T any](w *workload, list *[]T) (T, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(*list) == 0 {
		var zero T
		return zero, false
	}
	v := (*list)[0]
	*list = (*list)[1:]
	return v, true
}

func (w *workload) rememberCursor(status int, body []byte) {
	if status != http.StatusOK {
		return
	}
	var page struct {
		Meta struct {
			NextPageURL *string `json:"nextPageUrl"`
		} `json:"meta"`
	}
	if json.Unmarshal(body, &page) != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cursor = ""
	if page.Meta.NextPageURL != nil {
		if u, err := url.Parse(*page.Meta.NextPageURL); err == nil {
			w.cursor = u.RawQuery
		}
	}
}

// creating is an op that creates a record holding a unique value.
func (w *workload) creating(name, prefix, attr, token string, build func(u string) (value, body string), path string) op {
	return op{weight: 2, next: func(*rand.Rand) (call, bool) {
		value, body := build(w.unique())
		c := &create{op: name, prefix: prefix, attr: attr, value: value}
		w.mu.Lock()
		w.creates = append(w.creates, c)
		w.mu.Unlock()
		return call{op: name, method: "POST", path: path, body: body, token: token, account: alpha, done: func(status int, _ []byte) {
			if status >= 200 && status < 300 {
				w.mu.Lock()
				c.acked = true
				w.mu.Unlock()
			}
		}}, true
	}}
}

func (w *workload) keyedCall(k *keyed, method, path, token, body string) call {
	w.mu.Lock()
	w.keyed = append(w.keyed, k)
	w.mu.Unlock()
	return call{op: k.op, method: method, path: path, body: body, token: token, account: alpha, done: func(status int, _ []byte) {
		if status >= 200 && status < 300 {
			w.mu.Lock()
			k.acked = true
			w.mu.Unlock()
		}
	}}
}

func (w *workload) rewrite(ow *overwrite) (call, bool) {
	if !ow.busy.TryLock() {
		return call{}, false
	}
	ow.version++
	v := ow.version
	method, path, body := ow.request(v)
	return call{op: "rewrite " + ow.name, method: method, path: path, body: body, token: tokenAll, account: alpha, done: func(status int, _ []byte) {
		ow.mu.Lock()
		if status >= 200 && status < 300 {
			ow.lastAcked, ow.failed = v, nil
		} else {
			ow.failed = append(ow.failed, v)
		}
		ow.mu.Unlock()
		ow.busy.Unlock()
	}}, true
}

// run drives the main workload and the probe until ctx is done.
func (w *workload) run(ctx context.Context) {
	var wg sync.WaitGroup
	ticks := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(ticks)
		t := time.NewTicker(time.Duration(float64(time.Second) / w.o.rate))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				select {
				case ticks <- struct{}{}:
				default: // every worker busy: the load never queues up
				}
			}
		}
	}()
	total := 0
	for _, o := range w.ops {
		total += o.weight
	}
	for i := 0; i < w.o.workers; i++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, 42))
			for range ticks {
				w.send(w.pick(r, total))
			}
		}(uint64(i + 1))
	}
	// The probe: another account above its limit, to check admission.
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(time.Duration(float64(time.Second) * 2 / w.o.probeRate))
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					w.send(call{op: "probe: list campaigns", method: "GET", path: "/campaigns/?locationId=" + charlie, token: tokenCharlie, account: charlie})
				}
			}
		}()
	}
	wg.Wait()
}

func (w *workload) pick(r *rand.Rand, total int) call {
	for {
		n := r.IntN(total)
		for _, o := range w.ops {
			if n < o.weight {
				if c, ok := o.next(r); ok {
					return c
				}
				break
			}
			n -= o.weight
		}
	}
}

func (w *workload) send(c call) {
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, err := http.NewRequest(c.method, w.base+c.path, body)
	if err != nil {
		panic(err) // the workload's own requests are well-formed
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Version", "2021-07-28")
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res := result{op: c.op, account: c.account, sent: time.Now(), remaining: -1}
	var raw []byte
	resp, err := w.client.Do(req)
	if err == nil {
		raw, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		res.status = resp.StatusCode
		if v := resp.Header.Get("X-RateLimit-Remaining"); v != "" {
			res.remaining, _ = strconv.Atoi(v)
		}
	}
	res.recv = time.Now()
	if c.done != nil {
		c.done(res.status, raw)
	}
	w.mu.Lock()
	w.results = append(w.results, res)
	w.mu.Unlock()
}
