package webhooks

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
)

// target is an account endpoint as its lane last read it, and how the
// lane's attempts ended: what they tell of its health.
type target struct {
	mu sync.Mutex
	// ep is nil when the endpoint was removed.
	ep *endpoints.Endpoint
	// keys sign its attempts the Standard Webhooks way (its secrets,
	// opened at each read), unless opening them failed (keysErr).
	keys      [][]byte
	keysErr   error
	delivered bool
	// firstFailure is the lane's first failed attempt (zero: none).
	firstFailure time.Time
}

// endpoint is the endpoint as last read (nil: removed).
func (t *target) endpoint() *endpoints.Endpoint {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ep
}

// reread replaces the endpoint and its keys by a newer read of them (a
// target not yet shared).
func (t *target) reread(newer *target) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ep, t.keys, t.keysErr = newer.ep, newer.keys, newer.keysErr
}

// signing is the keys that sign its attempts, or why they could not be
// opened.
func (t *target) signing() ([][]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.keys, t.keysErr
}

func (t *target) count(a deliveries.Attempt, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a.Delivered() {
		t.delivered = true
	} else if t.firstFailure.IsZero() || at.Before(t.firstFailure) {
		t.firstFailure = at
	}
}

// newTarget is e as a run of attempts reads it, its signing keys opened.
func (d *Deliverer) newTarget(ctx context.Context, e endpoints.Endpoint) *target {
	keys, err := d.endpoints.SigningKeys(ctx, e, d.clock.Now())
	return &target{ep: &e, keys: keys, keysErr: err}
}

// targets reads the endpoints the items are for, by endpoint id, up to
// parallel at once.
func (d *Deliverer) targets(ctx context.Context, items []deliveries.Item) (map[string]*target, error) {
	var of []deliveries.Item // one item of each endpoint
	seen := map[string]bool{}
	for _, it := range items {
		if it.EndpointID != "" && !seen[it.EndpointID] {
			seen[it.EndpointID] = true
			of = append(of, it)
		}
	}
	read := make([]*target, len(of))
	if _, err := each(len(of), func(i int) error {
		e, err := d.endpoints.Get(ctx, of[i].AccountID, of[i].EndpointID)
		switch {
		case errors.Is(err, endpoints.ErrNoEndpoint):
			read[i] = &target{}
		case err != nil:
			return err
		default:
			read[i] = d.newTarget(ctx, e)
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

// note writes what a lane's attempts changed about t's endpoint, when
// they changed anything (endpoints.Endpoint.Noting): a delivery clears its
// failures; a failure starts them, or disables an endpoint that has failed
// every attempt for endpoints.FailingLimit.
func (d *Deliverer) note(ctx context.Context, t *target) error {
	t.mu.Lock()
	ep, delivered, firstFailure := t.ep, t.delivered, t.firstFailure
	t.mu.Unlock()
	if ep == nil || !delivered && firstFailure.IsZero() {
		return nil
	}
	now := d.clock.Now()
	if !ep.Noting(delivered, now, d.endpoints.FailingLimit()) {
		return nil
	}
	if delivered {
		return d.endpoints.Answered(ctx, ep.AccountID, ep.ID)
	}
	disabled, err := d.endpoints.Failed(ctx, ep.AccountID, ep.ID, firstFailure, now)
	if disabled {
		d.tally.disabled()
		d.logger.LogAttrs(ctx, slog.LevelWarn, "webhook endpoint disabled", slog.String("account", ep.AccountID),
			slog.String("endpoint", ep.ID), slog.String("failing_since", ep.FailingSince))
	}
	return err
}
