// Package webhooks is the webhook deliverer, an application of its own
// (functions/webhooks): it sends webhook events at least once,
// signed with the platform's Ed25519 key (x-ghl-signature), retried with
// backoff (1 minute doubling to 6 hours) for 3 days, then marked failed;
// each attempt's result is recorded on the event. Deployed it runs in
// WebhookFunction (on the table's stream and every minute), locally in the
// local server's loop (Loop).
package webhooks

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/storage"
)

// Backoff of failed attempts, and how long an event is tried.
const (
	FirstRetry = time.Minute
	MaxRetry   = 6 * time.Hour
	GiveUp     = 3 * 24 * time.Hour
)

// Lease is how long an attempt is its deliverer's: another deliverer takes
// the event up only after it (a deliverer that died mid-attempt).
const Lease = time.Minute

// attemptTimeout bounds one POST to an app.
const attemptTimeout = 10 * time.Second

// SignatureHeader carries the signature (the official SDK's name).
const SignatureHeader = "x-ghl-signature"

// batch is how many due events one sweep takes at most (and how many
// waiting events per fan-out shard).
const batch = 100

// Deliverer delivers due events.
type Deliverer struct {
	table  *storage.Table
	clock  clock.Clock
	key    ed25519.PrivateKey
	client *http.Client
	logger *slog.Logger
	lines  *metrics.WebhookLines
	tally  tally
	// endpoints are the accounts' own webhook endpoints.
	endpoints *endpoints.Store
}

// New returns a deliverer signing with key; client nil is a client with the
// attempt timeout that follows no redirect either (the local server's).
// Its metric lines (Report) are meter's.
func New(table *storage.Table, c clock.Clock, key ed25519.PrivateKey, client *http.Client, logger *slog.Logger, meter metrics.Meter) *Deliverer {
	if client == nil {
		client = &http.Client{Timeout: attemptTimeout, CheckRedirect: noRedirect}
	}
	return &Deliverer{
		table: table, clock: c, key: key, client: client, logger: logger, lines: meter.WebhookLines(),
		endpoints: endpoints.New(table, c, false),
	}
}

// NextRetry is the pause after the nth failed attempt (n from 1).
func NextRetry(n int) time.Duration {
	d := FirstRetry
	for i := 1; i < n && d < MaxRetry; i++ {
		d *= 2
	}
	return min(d, MaxRetry)
}

// Sweep attempts every event due now (up to a batch per partition of the
// due index) and returns how many it attempted.
//
// It first hands the waiting events to the apps and endpoints that
// receive them (FanOut), making each one's first attempt at once.
func (d *Deliverer) Sweep(ctx context.Context) (int, error) {
	_, sent, err := d.fanOut(ctx)
	if err != nil {
		return sent, err
	}
	items, err := d.due(ctx)
	if err != nil {
		return sent, err
	}
	n, err := d.attemptAll(ctx, items)
	return sent + n, err
}

// due reads the events due now, up to a batch from each partition of the
// due index (marketplace.DuePKs), the partitions at once.
func (d *Deliverer) due(ctx context.Context) ([]marketplace.EventItem, error) {
	bound := expression.Value(dueBound(d.clock.Now()))
	pks := marketplace.DuePKs()
	pages := make([][]marketplace.EventItem, len(pks))
	_, err := d.each(len(pks), func(i int) error {
		due := expression.Key(storage.AttrGSI1PK).Equal(expression.Value(pks[i])).
			And(expression.Key(storage.AttrGSI1SK).LessThan(bound))
		items, _, err := storage.QueryPage[marketplace.EventItem](ctx, d.table, storage.Query{Index: storage.IndexGSI1, Key: due}, batch, nil)
		pages[i] = items
		return err
	})
	return slices.Concat(pages...), err
}

// FanOut hands each waiting event (up to a batch per shard of the fan-out
// index) to the apps that receive it (marketplace.FanOut: those installed
// in its account, or for a company's event in its company) and to an
// account's own endpoints that take it (endpoints.Store.FanOut), takes
// it out of the index, then makes each new delivery's first attempt; it
// returns how many events it handed on.
func (d *Deliverer) FanOut(ctx context.Context) (int, error) {
	handed, _, err := d.fanOut(ctx)
	return handed, err
}

// fanOut is FanOut, returning also how many first attempts it made. The
// shards are read at once, an account's receivers and endpoints once a
// run, and the events handed on up to parallel at once. Each delivery is
// written already claimed for its first attempt (marketplace.Pending's
// lease), which saves a write per delivery: the attempts follow, up to
// parallel at once, so that a slow receiver holds one of them only.
func (d *Deliverer) fanOut(ctx context.Context) (handed, sent int, err error) {
	pages := make([][]events.Recorded, events.FanOutShards)
	if _, err := d.each(events.FanOutShards, func(n int) error {
		page, err := events.WaitingFanOut(ctx, d.table, n, batch)
		pages[n] = page
		return err
	}); err != nil {
		return 0, 0, err
	}
	return d.handOn(ctx, slices.Concat(pages...))
}

// handOn hands the waiting events to their receivers (see fanOut), then
// makes each new delivery's first attempt.
func (d *Deliverer) handOn(ctx context.Context, waiting []events.Recorded) (handed, sent int, err error) {
	var owners []events.Owner
	for _, ev := range waiting {
		if !slices.Contains(owners, ev.Owner) {
			owners = append(owners, ev.Owner)
		}
	}
	receivers := make([][]marketplace.Receiver, len(owners))
	own := make([][]endpoints.Endpoint, len(owners))
	if _, err := d.each(len(owners), func(i int) error {
		var err error
		if owners[i].LocationID == "" { // a company's event: its company installs'
			receivers[i], err = marketplace.ReceiversOfCompany(ctx, d.table, owners[i].CompanyID)
			return err
		}
		if receivers[i], err = marketplace.ReceiversOf(ctx, d.table, owners[i].LocationID); err != nil {
			return err
		}
		own[i], err = d.endpoints.List(ctx, owners[i].LocationID)
		return err
	}); err != nil {
		return 0, 0, err
	}
	targets := map[string]*target{}
	for _, eps := range own {
		for _, e := range eps {
			targets[e.ID] = &target{ep: &e}
		}
	}
	var (
		mu    sync.Mutex
		added []marketplace.EventItem
	)
	handed, err = d.each(len(waiting), func(i int) error {
		ev := waiting[i]
		a := slices.Index(owners, ev.Owner)
		now := d.clock.Now()
		apps, toApps, err := marketplace.FanOut(ctx, d.table, receivers[a], ev, now, now.Add(Lease))
		if err != nil {
			return err
		}
		eps, toEndpoints, err := d.endpoints.FanOut(ctx, own[a], ev, now, now.Add(Lease))
		mu.Lock()
		added = append(added, apps...)
		added = append(added, eps...)
		mu.Unlock()
		if err != nil {
			return err
		}
		// An event gone meanwhile (its TTL) has nothing left to hand on.
		if err := events.FannedOut(ctx, d.table, ev.Key(), toApps+toEndpoints); err != nil && !storage.IsConditionFailed(err) {
			return err
		}
		return nil
	})
	sent, serr := d.run(ctx, added, targets, true)
	return handed, sent, errors.Join(err, serr)
}

// DeliverNamed attempts the events under keys that are due now, read from
// their own items (strongly consistent: a stream record names an event
// before the eventually consistent due index may show it), and returns how
// many it attempted. A key that names no event, or one not due, is passed
// over. A key of an account's (or company's) event still waiting is handed
// on at once (handOn), its deliveries' first attempts made: an event
// reaches its receivers about a second after its change, not at the next
// minute's sweep.
func (d *Deliverer) DeliverNamed(ctx context.Context, keys []storage.Key) (int, error) {
	var made, deliveries []storage.Key
	for _, k := range keys {
		if events.IsEventKey(k) {
			made = append(made, k)
		} else {
			deliveries = append(deliveries, k)
		}
	}
	sent := 0
	if len(made) > 0 {
		waiting, err := events.StillWaiting(ctx, d.table, made)
		if err != nil {
			return 0, err
		}
		if _, sent, err = d.handOn(ctx, waiting); err != nil {
			return sent, err
		}
	}
	bound := dueBound(d.clock.Now())
	var due []marketplace.EventItem
	for _, k := range deliveries {
		it, err := storage.Get[marketplace.EventItem](ctx, d.table, k)
		if err != nil {
			return 0, err
		}
		if it != nil && it.Status == marketplace.DeliveryPending && it.GSI1SK != "" && it.GSI1SK < bound {
			due = append(due, *it)
		}
	}
	n, err := d.attemptAll(ctx, due)
	return sent + n, err
}

// dueBound is the due index's bound at now: every event due by then sorts
// below it (its index key is its next attempt's stamp, '#', its key).
func dueBound(now time.Time) string { return clock.Timestamp(now) + "$" }

// parallel bounds the attempts one deliverer makes at once: a slow or dead
// receiver holds one of them for at most the attempt's timeout, and the
// others go on to other endpoints.
const parallel = 16

// attemptAll attempts the events, up to parallel at once, and returns how
// many it attempted and the first error. The account endpoints they are
// for are read once, first.
func (d *Deliverer) attemptAll(ctx context.Context, items []marketplace.EventItem) (int, error) {
	targets, err := d.targets(ctx, items)
	if err != nil {
		return 0, err
	}
	return d.run(ctx, items, targets, false)
}

// run attempts the events, up to parallel at once: claimed first, or, when
// leased, already claimed by their own lease (a new delivery's first
// attempt, passed over when the lease is nearly out). A delivery of a
// removed or disabled endpoint is not sent but ends as failed. Then each
// endpoint whose attempts changed its state (failing, answering again,
// failing too long) is written once. It returns how many it attempted and
// the first error.
func (d *Deliverer) run(ctx context.Context, items []marketplace.EventItem, targets map[string]*target, leased bool) (int, error) {
	var attempted atomic.Int64
	_, err := d.each(len(items), func(i int) error {
		it, t := items[i], targets[items[i].EndpointID]
		if leased {
			if clock.Timestamp(d.clock.Now().Add(attemptTimeout)) >= it.LeaseUntil {
				return nil // left to the sweep that finds it due
			}
			attempted.Add(1)
			return d.send(ctx, it, t, it.LeaseUntil)
		}
		ok, err := d.attempt(ctx, it, t)
		if ok {
			attempted.Add(1)
		}
		return err
	})
	for _, t := range targets {
		if nerr := d.note(ctx, t); err == nil {
			err = nerr
		}
	}
	return int(attempted.Load()), err
}

// target is an account endpoint as one run of attempts read it, and how
// its attempts ended.
type target struct {
	// ep is nil when the endpoint was removed.
	ep *endpoints.Endpoint

	mu        sync.Mutex
	delivered bool
	// firstFailure is the run's first failed attempt (zero: none).
	firstFailure time.Time
}

func (t *target) count(a marketplace.Attempt, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if delivered(a) {
		t.delivered = true
	} else if t.firstFailure.IsZero() || at.Before(t.firstFailure) {
		t.firstFailure = at
	}
}

// targets reads the endpoints the items are for, by endpoint id, up to
// parallel at once.
func (d *Deliverer) targets(ctx context.Context, items []marketplace.EventItem) (map[string]*target, error) {
	var of []marketplace.EventItem // one item of each endpoint
	seen := map[string]bool{}
	for _, it := range items {
		if it.EndpointID != "" && !seen[it.EndpointID] {
			seen[it.EndpointID] = true
			of = append(of, it)
		}
	}
	read := make([]*target, len(of))
	if _, err := d.each(len(of), func(i int) error {
		e, err := d.endpoints.Get(ctx, of[i].AccountID, of[i].EndpointID)
		switch {
		case errors.Is(err, endpoints.ErrNoEndpoint):
			read[i] = &target{}
		case err != nil:
			return err
		default:
			read[i] = &target{ep: &e}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	out := make(map[string]*target, len(of))
	for i, it := range of {
		out[it.EndpointID] = read[i]
	}
	return out, nil
}

// note writes what the run's attempts changed about t's endpoint, when
// they changed anything (endpoints.Endpoint.Noting): a delivery clears its
// failures; a failure starts them, or disables an endpoint that has failed
// every attempt for endpoints.FailingLimit.
func (d *Deliverer) note(ctx context.Context, t *target) error {
	if t.ep == nil || !t.delivered && t.firstFailure.IsZero() {
		return nil
	}
	now := d.clock.Now()
	if !t.ep.Noting(t.delivered, now) {
		return nil
	}
	if t.delivered {
		return d.endpoints.Answered(ctx, t.ep.AccountID, t.ep.ID)
	}
	disabled, err := d.endpoints.Failed(ctx, t.ep.AccountID, t.ep.ID, t.firstFailure, now)
	if disabled {
		d.logger.LogAttrs(ctx, slog.LevelWarn, "webhook endpoint disabled", slog.String("account", t.ep.AccountID),
			slog.String("endpoint", t.ep.ID), slog.String("failing_since", t.ep.FailingSince))
	}
	return err
}

// each runs do(0..n-1), up to parallel at once, and returns how many ended
// without error and the first error.
func (d *Deliverer) each(n int, do func(i int) error) (int, error) {
	var (
		mu    sync.Mutex
		done  int
		first error
		wg    sync.WaitGroup
	)
	slots := make(chan struct{}, parallel)
	for i := range n {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			err := do(i)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				done++
			} else if first == nil {
				first = err
			}
		})
	}
	wg.Wait()
	return done, first
}

// StreamKeys are the keys of the deliveries and of the account and company
// events a DynamoDB stream batch names (its records' Keys); nothing for any
// other event (the schedule's).
func StreamKeys(event json.RawMessage) []storage.Key {
	var batch struct {
		Records []struct {
			Dynamodb struct {
				Keys map[string]struct{ S string } `json:"Keys"`
			} `json:"dynamodb"`
		} `json:"Records"`
	}
	if json.Unmarshal(event, &batch) != nil {
		return nil
	}
	var keys []storage.Key
	for _, r := range batch.Records {
		pk, sk := r.Dynamodb.Keys[storage.AttrPK].S, r.Dynamodb.Keys[storage.AttrSK].S
		k := storage.Key{PK: pk, SK: sk}
		if strings.HasPrefix(pk, marketplace.EventsPK("")) && sk != "" || events.IsEventKey(k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// attempt claims the event's current attempt and makes it (send). It
// reports false when another deliverer has the attempt or it is not due
// any more (the index is read eventually consistent).
func (d *Deliverer) attempt(ctx context.Context, it marketplace.EventItem, t *target) (bool, error) {
	now := d.clock.Now()
	// Fixed-width stamps, so that the condition's string order is time order.
	lease := clock.Timestamp(now.Add(Lease))
	leaseName := expression.Name("leaseUntil")
	claim := expression.Name("status").Equal(expression.Value(marketplace.DeliveryPending)).
		And(expression.Name(storage.AttrGSI1SK).Equal(expression.Value(it.GSI1SK))).
		And(expression.Or(expression.AttributeNotExists(leaseName), leaseName.LessThan(expression.Value(clock.Timestamp(now)))))
	err := d.table.Update(ctx, it.Key, expression.Set(leaseName, expression.Value(lease)), &claim)
	if storage.IsConditionFailed(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, d.send(ctx, it, t, lease)
}

// send makes the attempt of the event claimed with lease: posts it and
// records the result. An account endpoint's event (t not nil) goes to the
// endpoint's URL as read now, and is not sent, but ends as failed, when the
// endpoint is disabled or gone.
func (d *Deliverer) send(ctx context.Context, it marketplace.EventItem, t *target, lease string) error {
	now := d.clock.Now()
	end := ""
	switch {
	case t != nil && t.ep == nil:
		end = "the endpoint was removed"
	case t != nil && !t.ep.Enabled:
		end = "the endpoint is disabled: enable it, then redeliver its failed events"
	}
	if end != "" {
		return d.record(ctx, it, marketplace.Attempt{At: clock.Timestamp(now), Error: end}, lease, true)
	}
	if t != nil {
		it.URL = t.ep.URL
	}
	result := d.post(ctx, it.Event)
	if t != nil {
		t.count(result, now)
	}
	return d.record(ctx, it, result, lease, false)
}

// post sends the event's body, signed, and returns the attempt's result.
func (d *Deliverer) post(ctx context.Context, e marketplace.Event) marketplace.Attempt {
	at := clock.Timestamp(d.clock.Now())
	ctx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader([]byte(e.Body)))
	if err != nil {
		return marketplace.Attempt{At: at, Error: "the webhook URL is not usable"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(SignatureHeader, marketplace.Sign(d.key, []byte(e.Body)))
	req.Header.Set("User-Agent", "bizplatform-webhooks/1")
	resp, err := d.client.Do(req)
	if err != nil {
		return marketplace.Attempt{At: at, Error: describe(err)}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	a := marketplace.Attempt{At: at, Status: resp.StatusCode}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		a.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), d.clock.Now())
	}
	return a
}

// retryAfter reads a Retry-After header (seconds, or an HTTP date) as whole
// seconds from now, at most MaxRetry; 0 when absent or unreadable.
func retryAfter(h string, now time.Time) int {
	var wait time.Duration
	if secs, err := strconv.Atoi(strings.TrimSpace(h)); err == nil {
		wait = time.Duration(secs) * time.Second
	} else if at, err := http.ParseTime(h); err == nil {
		wait = at.Sub(now)
	}
	return int(min(max(wait, 0), MaxRetry) / time.Second)
}

// describe says why an attempt failed without the URL (the client's error
// repeats it).
func describe(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			err = inner
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer within " + attemptTimeout.String()
	}
	if errors.Is(err, errNotPublic) {
		return errNotPublic.Error()
	}
	return err.Error()
}

func delivered(a marketplace.Attempt) bool { return a.Status >= 200 && a.Status < 300 }

// record writes the attempt's result, on condition that the attempt is
// still this deliverer's: delivered, or due again after the backoff, or
// failed after GiveUp or when end.
func (d *Deliverer) record(ctx context.Context, it marketplace.EventItem, a marketplace.Attempt, lease string, end bool) error {
	now := d.clock.Now()
	n := len(it.Attempts) + 1
	attempts := expression.Name("attempts")
	upd := expression.Set(attempts, expression.ListAppend(attempts.IfNotExists(expression.Value([]marketplace.Attempt{})), expression.Value([]marketplace.Attempt{a}))).
		Remove(expression.Name("leaseUntil"))
	status := marketplace.DeliveryPending
	// The receiver's Retry-After, when it asks for longer than the backoff.
	next := now.Add(max(NextRetry(n), time.Duration(a.RetryAfter)*time.Second))
	switch {
	case delivered(a):
		status = marketplace.DeliveryDelivered
	case end, next.Sub(clock.Parse(cmp.Or(it.RetryFrom, it.CreatedAt))) > GiveUp:
		status = marketplace.DeliveryFailed
	}
	if status == marketplace.DeliveryPending {
		upd = upd.Set(expression.Name("nextAttemptAt"), expression.Value(clock.Timestamp(next))).
			Set(expression.Name(storage.AttrGSI1SK), expression.Value(marketplace.DueSK(next, it.Key)))
	} else {
		// Out of the due index; kept a while for `platformctl apps deliveries`.
		upd = upd.Set(expression.Name("status"), expression.Value(status)).
			Remove(expression.Name(storage.AttrGSI1PK)).Remove(expression.Name(storage.AttrGSI1SK)).Remove(expression.Name("nextAttemptAt")).
			Set(expression.Name(storage.AttrExpiresAt), expression.Value(now.Add(marketplace.EventLifetime).Unix()))
	}
	mine := expression.Name("leaseUntil").Equal(expression.Value(lease))
	err := d.table.Update(ctx, it.Key, upd, &mine)
	if storage.IsConditionFailed(err) {
		// The lease ran out and another deliverer took the event up: its
		// attempt is the one recorded.
		return nil
	}
	if err != nil {
		return fmt.Errorf("record attempt of event %s: %w", it.ID, err)
	}
	if status != marketplace.DeliveryPending && it.Source != "" {
		// The account event's counts, for GET /events?status=.
		if err := events.DeliveryEnded(ctx, d.table, storage.Key{PK: it.Source, SK: it.SK}, status == marketplace.DeliveryFailed); err != nil {
			return fmt.Errorf("count the delivery of event %s: %w", it.ID, err)
		}
	}
	d.tally.add(status, delivered(a))
	d.logger.LogAttrs(ctx, slog.LevelInfo, "webhook attempt", slog.String("event", it.ID), slog.String("app", it.AppID),
		slog.String("endpoint", it.EndpointID), slog.String("type", it.Type), slog.Int("attempt", n), slog.Int("http_status", a.Status), slog.String("result", status))
	return nil
}

// Loop sweeps every interval until ctx is done (the local server's
// deliverer); a failed sweep is logged and tried again. A sweep that
// attempted something reports it (Report), as an invocation does deployed;
// idle sweeps write nothing.
func (d *Deliverer) Loop(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		n, err := d.Sweep(ctx)
		if err != nil && ctx.Err() == nil {
			d.logger.LogAttrs(ctx, slog.LevelWarn, "webhook sweep", slog.String("error", err.Error()))
		}
		if n > 0 && ctx.Err() == nil {
			if err := d.Report(ctx, true); err != nil {
				d.logger.LogAttrs(ctx, slog.LevelWarn, "webhook report", slog.String("error", err.Error()))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
