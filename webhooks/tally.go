package webhooks

import (
	"sync"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/metrics"
)

// tally is what the deliverer did since its last report.
type tally struct {
	mu sync.Mutex
	d  metrics.Deliveries
}

// add counts one recorded attempt that left its delivery in state.
func (t *tally) add(state deliveries.State, delivered bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.d.Attempts++
	switch {
	case delivered:
		t.d.Delivered++
	case state == deliveries.Failed:
		t.d.Failed++
		t.d.GivenUp++
	default:
		t.d.Failed++
	}
}

// recovered counts the waiting events a sweep handed on (Deliveries.Recovered).
func (t *tally) recovered(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.d.Recovered += n
}

// disabled counts an account endpoint disabled for failing.
func (t *tally) disabled() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.d.EndpointsDisabled++
}

// any reports whether anything was counted since the last take.
func (t *tally) any() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.d != metrics.Deliveries{}
}

// take returns the figures so far and starts again from none.
func (t *tally) take() metrics.Deliveries {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.d
	t.d = metrics.Deliveries{}
	return d
}
