package deliveries

import (
	"cmp"
	"time"

	"github.com/bizplatform/api/shared/clock"
)

// The schedule of a delivery's attempts: after a failed attempt it is due
// again after FirstRetry, doubling up to MaxRetry (or after the receiver's
// Retry-After, when longer, at most MaxRetry); it fails once GiveUp has
// passed since it was asked for (made, or redelivered). An account
// endpoint that fails every attempt for as long is disabled
// (endpoints.FailingLimit).
const (
	FirstRetry = time.Minute
	MaxRetry   = 6 * time.Hour
	GiveUp     = 3 * 24 * time.Hour
)

// Lease is how long a claimed attempt is its deliverer's: another
// deliverer takes the delivery up only after it (its deliverer died
// mid-attempt).
const Lease = time.Minute

// NextRetry is the pause after the nth failed attempt (n from 1).
func NextRetry(n int) time.Duration {
	d := FirstRetry
	for i := 1; i < n && d < MaxRetry; i++ {
		d *= 2
	}
	return min(d, MaxRetry)
}

// nextAttempt is when d is due again after a's failure at now, its nth attempt,
// and whether it gives up instead: the backoff, or the receiver's
// Retry-After when longer, past GiveUp since it was asked for.
func nextAttempt(d Delivery, n int, a Attempt, now time.Time) (time.Time, bool) {
	at := now.Add(max(NextRetry(n), time.Duration(a.RetryAfter)*time.Second))
	asked := clock.Parse(cmp.Or(d.RetryFrom, d.CreatedAt))
	return at, at.Sub(asked) > GiveUp
}
