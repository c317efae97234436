package webhooks_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// deadReceiver takes connections and answers nothing: every attempt to
// it waits for the deliverer's timeout.
func deadReceiver(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go func() { _, _ = io.Copy(io.Discard, c) }()
		}
	}()
	return "http://" + l.Addr().String() + "/in"
}

// deadEndpoint adds account's endpoint taking TaskDelete at a receiver
// that never answers.
func (f *fixture) deadEndpoint(t *testing.T, account string) endpoints.Endpoint {
	f.env.Account(t, account, "coHook")
	e, err := f.endpoints().Add(context.Background(), account, endpoints.Input{URL: ptr(deadReceiver(t)), Events: &[]string{"TaskDelete"}}, admin)
	require.NoError(t, err)
	return e
}

// backlog writes n events of e's account and hands them to e, due now,
// as a stream batch that could not attempt them would have: e's backlog.
func (f *fixture) backlog(t *testing.T, e endpoints.Endpoint, n int) {
	ctx := context.Background()
	for i := range n {
		f.write(t, taskDelete, e.AccountID, fmt.Sprintf("old%d", i))
	}
	for _, ev := range testenv.Events(t, f.env.Table, events.Owner{LocationID: e.AccountID}) {
		_, err := deliveries.FanOut(ctx, f.env.Table, []deliveries.Receiver{e.Receiver()}, ev, f.env.Clock.Now(), time.Time{})
		require.NoError(t, err)
	}
}

// keyOf is the key of account's event of webhookId id.
func (f *fixture) keyOf(t *testing.T, account, id string) storage.Key {
	for _, ev := range testenv.Events(t, f.env.Table, events.Owner{LocationID: account}) {
		if ev.ID == id {
			return ev.Key()
		}
	}
	t.Fatalf("no event %s", id)
	return storage.Key{}
}

// arrived waits up to within for v to have accepted n events, and
// returns how long it took.
func arrived(v *verifier, n int, within time.Duration) time.Duration {
	start := time.Now()
	for len(v.events()) < n && time.Since(start) < within {
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(start)
}

// The local server's deliverer (Loop) while one account's receiver never
// answers and has a backlog of deliveries: another account's new event
// reaches its own receiver within the loop's interval, as if the dead one
// were not there. Before lanes, the loop's sweep waited for the dead
// receiver's attempts (10 s each, 16 at once) before its next look:
// 10 to 20 s.
func TestADeadReceiversBacklogHoldsUpNoOtherAccountsEventInTheLocalLoop(t *testing.T) {
	f := newFixture(t, 0, 0)
	dead := f.deadEndpoint(t, "acctM")
	f.backlog(t, dead, 24)
	f.env.Account(t, "acctQ", "coHook")
	q, _, _ := f.endpointTo(t, "acctQ", []string{"TaskDelete"})

	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.deliverer().Loop(ctx, 200*time.Millisecond)
	}()
	t.Cleanup(func() { stop(); <-done })
	time.Sleep(500 * time.Millisecond) // the loop is busy with the dead receiver's backlog
	for i := range 3 {
		f.write(t, taskDelete, "acctQ", fmt.Sprintf("q%d", i))
		took := arrived(q, i+1, 15*time.Second)
		require.Len(t, q.events(), i+1)
		assert.Less(t, took, 3*time.Second, "Q's event %d waited for M's dead receiver", i)
	}
}

// As deployed: a stream batch naming a dead receiver's new events beside
// another account's reaches the other at once, ends within about one
// attempt's timeout (the dead one's lane stops at its first stall, its
// other deliveries left for the sweep), and the next batch, the dead
// receiver now known down, waits for it no more.
func TestADeadReceiverHoldsUpAStreamBatchOnceAndNoOtherReceiversEvent(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	dead := f.deadEndpoint(t, "acctM")
	f.env.Account(t, "acctQ", "coHook")
	q, _, _ := f.endpointTo(t, "acctQ", []string{"TaskDelete"})
	d := f.deliverer()

	var batch []storage.Key
	for i := range 24 {
		batch = append(batch, f.keyOf(t, dead.AccountID, f.write(t, taskDelete, dead.AccountID, fmt.Sprintf("m%d", i))))
	}
	batch = append(batch, f.keyOf(t, "acctQ", f.write(t, taskDelete, "acctQ", "q1")))
	start := time.Now()
	ran := make(chan time.Duration)
	go func() {
		_, err := d.DeliverNamed(ctx, batch)
		assert.NoError(t, err)
		ran <- time.Since(start)
	}()
	assert.Less(t, arrived(q, 1, 15*time.Second), 3*time.Second, "Q's event did not wait for M's")
	took := <-ran
	assert.Less(t, took, 15*time.Second, "the batch ended after one timeout of the dead receiver, not one per slot round")

	next := []storage.Key{
		f.keyOf(t, dead.AccountID, f.write(t, taskDelete, dead.AccountID, "m-next")),
		f.keyOf(t, "acctQ", f.write(t, taskDelete, "acctQ", "q2")),
	}
	start = time.Now()
	_, err := d.DeliverNamed(ctx, next)
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 3*time.Second, "a receiver known down holds up no batch again")
	require.Len(t, q.events(), 2)
	waiting, _, err := deliveries.Page(ctx, f.env.Table, dead.ID, deliveries.Pending, 100, "")
	require.NoError(t, err)
	assert.Len(t, waiting, 25, "the dead receiver's deliveries all wait, pending, for the sweep")
}
