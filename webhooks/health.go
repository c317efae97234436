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

// target is an account endpoint as one run of attempts read it, and how
// its attempts ended: what they tell of its health.
type target struct {
	// ep is nil when the endpoint was removed.
	ep *endpoints.Endpoint
	// keys sign its attempts the Standard Webhooks way (its secrets,
	// opened once a run), unless opening them failed (keysErr).
	keys    [][]byte
	keysErr error

	mu        sync.Mutex
	delivered bool
	// firstFailure is the run's first failed attempt (zero: none).
	firstFailure time.Time
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
		d.tally.disabled()
		d.logger.LogAttrs(ctx, slog.LevelWarn, "webhook endpoint disabled", slog.String("account", t.ep.AccountID),
			slog.String("endpoint", t.ep.ID), slog.String("failing_since", t.ep.FailingSince))
	}
	return err
}
