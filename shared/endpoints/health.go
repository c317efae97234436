package endpoints

import (
	"context"
	"fmt"
	"time"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/storage"
)

// What the deliverer notes of an endpoint's health, from its attempts:
// failing since when, or disabled after failing for FailingLimit.

// Deliverer is the actor of the deliverer's changes to an endpoint (its
// audit entries).
var Deliverer = auth.Actor{ID: "webhooks", Name: "webhook deliverer"}

// Noting reports whether attempts to the endpoint that ended so (delivered
// or not) at now change what it records: a delivery clears FailingSince, a
// first failure sets it, and a failure after limit (the store's
// FailingLimit) of failures disables the endpoint. Anything else writes
// nothing.
func (e Endpoint) Noting(delivered bool, now time.Time, limit time.Duration) bool {
	if delivered {
		return e.FailingSince != ""
	}
	return e.Enabled && (e.FailingSince == "" || now.Sub(clock.Parse(e.FailingSince)) > limit)
}

// Answered notes a delivered attempt to the account's endpoint id: it
// answers, so FailingSince is cleared.
func (s *Store) Answered(ctx context.Context, accountID, id string) error {
	_, err := s.items.Update(ctx, accountID, id, func(e *Endpoint) error {
		if e.FailingSince == "" {
			return storage.ErrNoChange
		}
		e.FailingSince = ""
		return nil
	})
	return err
}

// Failed notes failed attempts to the account's endpoint id, the first at
// first and the last at now: FailingSince is set if it was not, and an
// endpoint that has failed every attempt for FailingLimit is disabled
// (DisabledFailing), with its audit entry in the same transaction. It
// reports whether it disabled the endpoint.
func (s *Store) Failed(ctx context.Context, accountID, id string, first, now time.Time) (bool, error) {
	disabled := false
	_, err := s.items.Update(ctx, accountID, id, func(e *Endpoint) error {
		disabled = false
		if !e.Noting(false, now, s.failingLimit) {
			return storage.ErrNoChange
		}
		if e.FailingSince == "" {
			e.FailingSince = clock.Timestamp(first)
			return nil
		}
		stamp := clock.Timestamp(now)
		e.Enabled, e.DisabledReason, e.DisabledAt, e.UpdatedAt = false, DisabledFailing, stamp, stamp
		disabled = true
		return nil
	}, storage.Alongside(func(tx *storage.Tx, e *Endpoint) {
		if e.Enabled {
			return
		}
		detail := fmt.Sprintf("every attempt failed since %s: disabled; enable it to receive events again", e.FailingSince)
		auth.AddAuditEntry(tx, storage.AccountPK(accountID), now, Deliverer, AuditDisabled, e.ID, e.URL, detail)
	}))
	return disabled, err
}

// Health is what an endpoint's newest deliveries say of it: its last
// attempt (Last) and its last delivered one (LastSuccess), each zero when
// none of them has one.
type Health struct {
	Last, LastSuccess deliveries.Attempt
}

// healthWindow is how many of an endpoint's newest deliveries Health reads.
const healthWindow = 25

// Health reads the endpoint's newest deliveries (one query of
// healthWindow) for its last answer and its last success: the endpoint's
// record holds only when its failures began (FailingSince), so that an
// attempt writes nothing to it.
func (s *Store) Health(ctx context.Context, e Endpoint) (Health, error) {
	list, _, err := deliveries.Page(ctx, s.table, e.ID, "", healthWindow, "")
	var h Health
	for _, d := range list {
		for _, a := range d.Attempts {
			if a.At > h.Last.At {
				h.Last = a
			}
			if a.Delivered() && a.At > h.LastSuccess.At {
				h.LastSuccess = a
			}
		}
	}
	return h, err
}
