package webhooks

import (
	"context"
	"sync"
	"time"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/storage"
)

// Attempts go by receiver, so that a dead or slow receiver delays only its
// own events: each receiver (an app, an account's endpoint) has a lane,
// which makes its attempts perReceiver at a time, earliest first, and
// lanes run side by side, maxAttempts at once over all of them. A lane
// whose attempt stalled (no answer after stallAfter: a receiver that
// takes the connection and says nothing, or a host that drops it) makes
// no more attempts in its run: the others wait where they are (due, or
// claimed until their lease ends) for a later run, instead of holding
// this one for a timeout each. Nothing waits for another lane: a
// run queues attempts as it finds them (fan-out, due index) and only its
// end waits for them all.
const (
	// perReceiver bounds one receiver's attempts at once: a receiver that
	// answers keeps up with its events; one that does not holds at most
	// this many slots.
	perReceiver = 4
	// maxAttempts bounds the attempts at once over all receivers (each
	// holds a connection and a few kilobytes of its answer): it would take
	// maxAttempts/perReceiver receivers dead at once to fill it.
	maxAttempts = 64
	// stallAfter is how long an attempt without an answer takes before its
	// receiver counts as down: one refused at once costs nothing to wait
	// for.
	stallAfter = 2 * time.Second
)

// outcome is what one attempt function did.
type outcome struct {
	// made: the attempt was made and recorded (not another deliverer's).
	made bool
	// stalled: it was posted and no answer came, after stallAfter or more.
	stalled bool
}

// attemptFunc makes one delivery's attempt, if it is the deliverer's to
// make (attemptDue, attemptClaimed); t is its endpoint's lane health, nil
// for an app's.
type attemptFunc func(ctx context.Context, it deliveries.Item, t *target) (outcome, error)

// job is one attempt waiting in its lane.
type job struct {
	it      deliveries.Item
	attempt attemptFunc
}

// lane is one receiver's attempts in a run.
type lane struct {
	// t is the endpoint as last read and what the lane's attempts told of
	// its health; nil for an app.
	t       *target
	queue   []job
	running int
	// down: an attempt stalled; the lane takes no more attempts.
	down bool
}

// run is one run of attempts: a sweep, a stream batch, the local server's
// loop. Attempts are queued (add) and made in their receiver's lane;
// wait waits for all of them.
type run struct {
	d   *Deliverer
	ctx context.Context
	// until: no attempt starts after it (zero: none), so that a run in an
	// invocation ends before the invocation's deadline, or a stream
	// batch's hands slow receivers' attempts to the sweep.
	until time.Time
	slots chan struct{}

	mu    sync.Mutex
	lanes map[string]*lane
	// keys are the deliveries queued or under way: a run finds a delivery
	// due again while its attempt waits or runs, and queues it once.
	keys  map[storage.Key]bool
	made  int
	first error
	wg    sync.WaitGroup
}

func (d *Deliverer) newRun(ctx context.Context, until time.Time) *run {
	return &run{d: d, ctx: ctx, until: until, slots: make(chan struct{}, maxAttempts),
		lanes: map[string]*lane{}, keys: map[storage.Key]bool{}}
}

// receiverOf is the lane a delivery goes in: its endpoint's or its app's.
func receiverOf(it deliveries.Item) string {
	if it.EndpointID != "" {
		return it.EndpointID
	}
	return it.AppID
}

// queued reports whether the delivery at key is queued or under way.
func (r *run) queued(key storage.Key) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.keys[key]
}

// add queues the attempt of it in its receiver's lane (t: its endpoint as
// read now, nil for an app's), unless it is queued already, and starts
// the lane's workers it may have. It reports whether it queued it.
func (r *run) add(it deliveries.Item, t *target, attempt attemptFunc) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.keys[it.Key] {
		return false
	}
	id := receiverOf(it)
	l := r.lanes[id]
	if l == nil {
		l = &lane{t: t}
		r.lanes[id] = l
	} else if t != nil && l.t != nil {
		l.t.reread(t) // the endpoint as read last: its URL, its state, its keys
	}
	r.keys[it.Key] = true
	l.queue = append(l.queue, job{it: it, attempt: attempt})
	for l.running < perReceiver && l.running < len(l.queue) {
		l.running++
		r.wg.Add(1)
		go r.work(id, l)
	}
	return true
}

// work makes lane l's attempts, one after the other, until its queue is
// empty, an attempt of it stalled, or the run's time is up; the
// lane's last worker notes what its attempts told of an endpoint's health.
func (r *run) work(id string, l *lane) {
	defer r.wg.Done()
	for {
		r.mu.Lock()
		if l.down || len(l.queue) == 0 || !r.until.IsZero() && !r.d.clock.Now().Before(r.until) || r.ctx.Err() != nil {
			l.running--
			last := l.running == 0
			if last {
				// What is left waits where it is, for a later run.
				for _, j := range l.queue {
					delete(r.keys, j.it.Key)
				}
				l.queue = nil
				delete(r.lanes, id)
			}
			r.mu.Unlock()
			if last && l.t != nil {
				r.fail(r.d.note(r.ctx, l.t))
			}
			return
		}
		j := l.queue[0]
		l.queue = l.queue[1:]
		r.mu.Unlock()

		select {
		case r.slots <- struct{}{}:
		case <-r.ctx.Done():
			r.mu.Lock()
			delete(r.keys, j.it.Key)
			r.mu.Unlock()
			continue
		}
		out, err := j.attempt(r.ctx, j.it, l.t)
		<-r.slots
		if out.stalled {
			r.d.down.Store(id, r.d.clock.Now())
		} else if out.made {
			r.d.down.Delete(id)
		}
		r.mu.Lock()
		delete(r.keys, j.it.Key)
		if out.made {
			r.made++
		}
		if out.stalled {
			l.down = true
		}
		r.mu.Unlock()
		r.fail(err)
	}
}

// fail keeps the run's first error.
func (r *run) fail(err error) {
	if err == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.first == nil {
		r.first = err
	}
}

// busy reports whether attempts are queued or under way.
func (r *run) busy() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lanes) > 0
}

// settle waits until nothing is queued or under way, at most for d, or
// until the run's context ends.
func (r *run) settle(d time.Duration) {
	end := time.Now().Add(d)
	for r.busy() && time.Now().Before(end) && r.ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
}

// wait waits for every attempt queued, and returns how many were made and
// the first error.
func (r *run) wait() (int, error) {
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.made, r.first
}

// downFor is how long a receiver whose attempt stalled is held down by
// this deliverer (Deliverer.down): its new events are made due for the
// sweep rather than attempted in the run that hands them on.
const downFor = 5 * time.Minute

// isDown reports whether an attempt of this deliverer to the receiver id
// stalled within downFor, and none has been answered since.
func (d *Deliverer) isDown(id string) bool {
	at, ok := d.down.Load(id)
	return ok && d.clock.Now().Sub(at.(time.Time)) < downFor
}
