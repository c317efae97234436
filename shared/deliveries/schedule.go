package deliveries

import (
	"cmp"
	"fmt"
	"time"

	"github.com/bizplatform/api/shared/clock"
)

// The schedule of a delivery's attempts: after a failed attempt it is due
// again after FirstRetry, doubling up to MaxRetry (or after the receiver's
// Retry-After, when longer, at most MaxRetry); it fails once GiveUp has
// passed since it was asked for (made, or redelivered). An account
// endpoint that fails every attempt for as long is disabled
// (endpoints.FailingLimit). These are the deployed schedule's (Default),
// the one the API's documents promise.
const (
	FirstRetry = time.Minute
	MaxRetry   = 6 * time.Hour
	GiveUp     = 3 * 24 * time.Hour
)

// Schedule is a deliverer's schedule: Default, or on a local engine one
// shrunk so that a failure, a give-up and an endpoint's disabling can be
// watched in minutes (ScheduleFor).
type Schedule struct {
	FirstRetry, MaxRetry, GiveUp time.Duration
}

// Default is the schedule deployed.
var Default = Schedule{FirstRetry: FirstRetry, MaxRetry: MaxRetry, GiveUp: GiveUp}

// Bounds of a local schedule's GiveUp (WEBHOOK_RETRY_FOR).
const (
	MinRetryFor = 10 * time.Second
	MaxRetryFor = GiveUp
)

// ScheduleFor is the schedule of retryFor (config.Config.WebhookRetryFor):
// Default when it is 0; else Default with every span scaled alike so that
// GiveUp is retryFor (10 minutes: a first retry after 139 ms, at most 50 s
// apart, an endpoint failing for 10 minutes disabled). Only a local
// engine takes one: deployed, receivers are promised Default.
func ScheduleFor(retryFor time.Duration, localEngine bool) (Schedule, error) {
	switch {
	case retryFor == 0:
		return Default, nil
	case !localEngine:
		return Schedule{}, fmt.Errorf("WEBHOOK_RETRY_FOR=%s is refused: it shortens the retries for a local engine only (DYNAMODB_ENDPOINT on this machine), and deployed receivers are promised %s of them", retryFor, clock.Span(GiveUp))
	case retryFor < MinRetryFor || retryFor > MaxRetryFor:
		return Schedule{}, fmt.Errorf("WEBHOOK_RETRY_FOR=%s must be from %s to %s", retryFor, clock.Span(MinRetryFor), clock.Span(MaxRetryFor))
	}
	scale := func(d time.Duration) time.Duration {
		return max(time.Millisecond, time.Duration(float64(d)*float64(retryFor)/float64(GiveUp)).Round(time.Millisecond))
	}
	return Schedule{FirstRetry: scale(FirstRetry), MaxRetry: scale(MaxRetry), GiveUp: retryFor}, nil
}

// Lease is how long a claimed attempt is its deliverer's: another
// deliverer takes the delivery up only after it (its deliverer died
// mid-attempt).
const Lease = time.Minute

// NextRetry is the pause after the nth failed attempt (n from 1) of the
// Default schedule.
func NextRetry(n int) time.Duration { return Default.NextRetry(n) }

// NextRetry is the pause after the nth failed attempt (n from 1).
func (s Schedule) NextRetry(n int) time.Duration {
	d := s.FirstRetry
	for i := 1; i < n && d < s.MaxRetry; i++ {
		d *= 2
	}
	return min(d, s.MaxRetry)
}

// nextAttempt is when d is due again after a's failure at now, its nth
// attempt, and whether it gives up instead: the backoff, or the receiver's
// Retry-After when longer, past GiveUp since it was asked for.
func (s Schedule) nextAttempt(d Delivery, n int, a Attempt, now time.Time) (time.Time, bool) {
	at := now.Add(max(s.NextRetry(n), time.Duration(a.RetryAfter)*time.Second))
	asked := clock.Parse(cmp.Or(d.RetryFrom, d.CreatedAt))
	return at, at.Sub(asked) > s.GiveUp
}
