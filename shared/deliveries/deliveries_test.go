package deliveries_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

type fields struct {
	ID string `json:"id"`
}

var (
	taskDelete = events.Type{Name: "TaskDelete", Scope: "contacts.readonly", Version: 1, Summary: "A task.", Fields: fields{}}
	installed  = events.Type{Name: "INSTALL", Scope: "oauth.readonly", Version: 1, Summary: "An install.", Routed: true, Fields: fields{}}
	account    = events.Owner{LocationID: "acct1"}
)

// write commits an event of typ in account 1 (routed to route when it is
// not nil) and returns it as the fan-out reads it.
func write(t *testing.T, table *storage.Table, typ events.Type, route *events.Route) events.Recorded {
	t.Helper()
	ctx := context.Background()
	tx := table.Tx()
	if route != nil {
		typ.AddRouted(tx, account, fields{ID: "r1"}, *route, testenv.Start)
	} else {
		typ.Add(tx, account, fields{ID: "r1"}, testenv.Start)
	}
	require.NoError(t, tx.Commit(ctx))
	for n := range events.FanOutShards {
		waiting, err := events.WaitingFanOut(ctx, table, n, 10)
		require.NoError(t, err)
		for _, ev := range waiting {
			if ev.Type == typ.Name {
				return ev
			}
		}
	}
	t.Fatalf("no waiting %s", typ.Name)
	return events.Recorded{}
}

func TestAnEventIsDeliveredOnceToEachReceiverThatTakesIt(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	ev := write(t, table, taskDelete, nil)
	receivers := []deliveries.Receiver{
		{ID: "appReads", URL: "https://a.example/in", Types: []string{"TaskDelete"}, App: true, Scopes: []string{"contacts.write"}},
		{ID: "appBlind", URL: "https://b.example/in", Types: []string{"TaskDelete"}, App: true, Scopes: []string{"medias.readonly"}},
		{ID: "appOther", URL: "https://c.example/in", Types: []string{"CouponDelete"}, App: true, Scopes: []string{"contacts.readonly"}},
		{ID: "epMine", URL: "https://d.example/in", Types: []string{"TaskDelete"}, AccountID: "acct1"},
		{ID: "epElsewhere", URL: "https://e.example/in", Types: []string{"TaskDelete"}, AccountID: "acct2"},
		{ID: "epOff", URL: "https://f.example/in", AccountID: "acct1"}, // disabled: takes no type
	}
	added, err := deliveries.FanOut(ctx, table, receivers, ev, testenv.Start, time.Time{})
	require.NoError(t, err)
	var to []string
	for _, it := range added {
		to = append(to, it.PK)
	}
	assert.Equal(t, []string{deliveries.PK("appReads"), deliveries.PK("epMine")}, to,
		"the app whose install reads its scope (or its .write) and the account's own endpoint that chose it, whatever its scope")
	app, endpoint := added[0], added[1]
	assert.Equal(t, strings.TrimSuffix(ev.Body, "}")+`,"appId":"appReads"}`, app.Body, "an app's body names it, last")
	assert.Equal(t, ev.Body, endpoint.Body, "an endpoint's is the event's")
	assert.Equal(t, "acct1", endpoint.AccountID)
	assert.Equal(t, ev.CreatedAt, app.CreatedAt, "made when its event was")
	assert.Equal(t, ev.Key().SK, app.SK, "under the event's sort key")

	again, err := deliveries.FanOut(ctx, table, receivers, ev, testenv.Start.Add(time.Second), time.Time{})
	require.NoError(t, err)
	assert.Empty(t, again, "a fan-out run again adds nothing twice")
	waiting, err := events.StillWaiting(ctx, table, []storage.Key{ev.Key()})
	require.NoError(t, err)
	assert.Empty(t, waiting, "the event left the fan-out index")
	pending := deliveries.EventIn(deliveries.Pending)
	page, _, err := events.Page(ctx, table, account, events.Filter{Matching: &pending}, 10, "")
	require.NoError(t, err)
	assert.Len(t, page, 1, "pending while its two deliveries are")
}

func TestARoutedEventGoesToItsAppAloneWithItsBodyUnchanged(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	ev := write(t, table, installed, &events.Route{AppID: "appX", URL: "https://x.example/in"})
	chose := []deliveries.Receiver{
		{ID: "appY", URL: "https://y.example/in", Types: []string{"INSTALL"}, App: true, Scopes: []string{"oauth.readonly"}},
		{ID: "epMine", URL: "https://d.example/in", Types: []string{"INSTALL"}, AccountID: "acct1"},
	}
	added, err := deliveries.FanOut(ctx, table, chose, ev, testenv.Start, time.Time{})
	require.NoError(t, err)
	require.Len(t, added, 1, "its app alone, whoever else chose the type")
	assert.Equal(t, deliveries.PK("appX"), added[0].PK)
	assert.Equal(t, "https://x.example/in", added[0].URL)
	assert.Equal(t, ev.Body, added[0].Body, "the body names its app already")

	noURL := write(t, table, installed, &events.Route{AppID: "appZ"})
	added, err = deliveries.FanOut(ctx, table, nil, noURL, testenv.Start, time.Time{})
	require.NoError(t, err)
	assert.Empty(t, added, "an app without a webhook URL receives nothing")
	unrouted := deliveries.EventIn(deliveries.Unrouted)
	page, _, err := events.Page(ctx, table, account, events.Filter{Matching: &unrouted}, 10, "")
	require.NoError(t, err)
	require.Len(t, page, 1)
	assert.Equal(t, noURL.ID, page[0].ID, "and its event is unrouted")
}

func TestAnAttemptIsOneDeliverersAndOnlyItsClaimRecordsIt(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	ev := write(t, table, taskDelete, nil)
	r := deliveries.Receiver{ID: "ep1", URL: "https://d.example/in", Types: []string{"TaskDelete"}, AccountID: "acct1"}
	added, err := deliveries.FanOut(ctx, table, []deliveries.Receiver{r}, ev, testenv.Start, time.Time{})
	require.NoError(t, err)
	it := added[0]
	now := testenv.Start
	require.Equal(t, clock.Timestamp(now), it.NextAt, "a new delivery is due at once")

	lease, ok, err := deliveries.Claim(ctx, table, it, now)
	require.NoError(t, err)
	require.True(t, ok)
	_, ok, err = deliveries.Claim(ctx, table, it, now.Add(time.Second))
	require.NoError(t, err)
	assert.False(t, ok, "a second deliverer does not get a claimed attempt")

	later := now.Add(deliveries.Lease + time.Second)
	taken, ok, err := deliveries.Claim(ctx, table, it, later)
	require.NoError(t, err)
	require.True(t, ok, "one whose claim ran out is taken up")
	_, recorded, err := deliveries.Record(ctx, table, deliveries.Default, it, deliveries.Attempt{At: "late", Status: 200}, lease, later, false)
	require.NoError(t, err)
	assert.False(t, recorded, "the first deliverer's late result is not recorded over the second's")

	state, recorded, err := deliveries.Record(ctx, table, deliveries.Default, it, deliveries.Attempt{At: "t", Status: 503, RetryAfter: 7200}, taken, later, false)
	require.NoError(t, err)
	require.True(t, recorded)
	assert.Equal(t, deliveries.Pending, state)
	got, err := storage.Get[deliveries.Item](ctx, table, it.Key)
	require.NoError(t, err)
	require.Len(t, got.Attempts, 1)
	assert.Equal(t, deliveries.Pending, got.Status)
	assert.Equal(t, clock.Timestamp(later.Add(2*time.Hour)), got.NextAt, "a 503's Retry-After, longer than the backoff, is waited")
	assert.ErrorIs(t, deliveries.Requeue(ctx, table, it.Key, later), deliveries.ErrNotRedeliverable, "a pending delivery is not requeued")
}

func TestAFailedDeliveryIsRedeliveredOnceAndCountsOnItsEventAgain(t *testing.T) {
	ctx := context.Background()
	table := testenv.NewTable(t)
	ev := write(t, table, taskDelete, nil)
	r := deliveries.Receiver{ID: "ep1", URL: "https://d.example/in", Types: []string{"TaskDelete"}, AccountID: "acct1"}
	added, err := deliveries.FanOut(ctx, table, []deliveries.Receiver{r}, ev, testenv.Start, testenv.Start.Add(deliveries.Lease))
	require.NoError(t, err)
	it := added[0]
	require.True(t, it.Claimed(testenv.Start, 10*time.Second), "made claimed for its first attempt")
	state, _, err := deliveries.Record(ctx, table, deliveries.Default, it, deliveries.Attempt{Error: "the endpoint was removed"}, it.LeaseUntil, testenv.Start, true)
	require.NoError(t, err)
	require.Equal(t, deliveries.Failed, state)
	stateOf := func(s deliveries.State) int {
		in := deliveries.EventIn(s)
		page, _, err := events.Page(ctx, table, account, events.Filter{Matching: &in}, 10, "")
		require.NoError(t, err)
		return len(page)
	}
	assert.Equal(t, 1, stateOf(deliveries.Failed))

	done, err := deliveries.Redeliver(ctx, table, "ep1", deliveries.Redelivery{FailedSince: testenv.Start.Add(-time.Hour)}, testenv.Start.Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, deliveries.Redelivered{Queued: 1, Until: testenv.Start.Add(2 * time.Hour).Truncate(time.Hour)}, done)
	assert.Equal(t, 0, stateOf(deliveries.Failed))
	assert.Equal(t, 1, stateOf(deliveries.Pending), "pending again")
	_, err = deliveries.Redeliver(ctx, table, "ep1", deliveries.Redelivery{Event: ev.ID}, testenv.Start.Add(time.Hour))
	assert.ErrorIs(t, err, deliveries.ErrNotRedeliverable, "not queued twice")
	_, err = deliveries.Redeliver(ctx, table, "ep1", deliveries.Redelivery{Event: "nope"}, testenv.Start)
	assert.ErrorIs(t, err, deliveries.ErrNoDelivery)
	assert.EqualError(t, deliveries.ErrNoDelivery, "no such delivery (deliveries are kept 30 days)", "the span from the lifetime")
}

// Conditions and updates name a delivery's attributes by constants; the
// item's tags spell them: the two must agree.
func TestTheAttributesUpdatesNameAreTheItemsOwn(t *testing.T) {
	tags := map[string]bool{}
	d := reflect.TypeOf(deliveries.Delivery{})
	for i := range d.NumField() {
		name, _, _ := strings.Cut(d.Field(i).Tag.Get("dynamodbav"), ",")
		tags[name] = true
	}
	for _, name := range deliveries.AttributeNames() {
		assert.True(t, tags[name], "%s is a Delivery attribute", name)
	}
}
