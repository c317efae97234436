// Package clock lets time be injected, so rate windows and timestamps can be
// tested without waiting.
package clock

import (
	"fmt"
	"sync"
	"time"
)

// Clock tells the current time.
type Clock interface {
	Now() time.Time
}

// System is the real clock.
type System struct{}

// Now returns the current UTC time.
func (System) Now() time.Time { return time.Now().UTC() }

// Manual is a clock that moves only when told to. It is safe for concurrent use.
type Manual struct {
	mu  sync.Mutex
	now time.Time
}

// NewManual returns a manual clock set to t.
func NewManual(t time.Time) *Manual { return &Manual{now: t.UTC()} }

// Now returns the clock's current time.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// Advance moves the clock forward by d.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = m.now.Add(d)
}

// Set moves the clock to t.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = t.UTC()
}

// TimestampLayout is how the API writes timestamps: UTC with milliseconds,
// as the public API does ("2024-02-13T10:43:41.026Z"). It is the one
// format of every stored time too: fixed width, so that string order is
// time order (keys, index keys, leases compared in conditions).
const TimestampLayout = "2006-01-02T15:04:05.000Z"

// Timestamp formats t in TimestampLayout.
func Timestamp(t time.Time) string { return t.UTC().Format(TimestampLayout) }

// Parse reads a stored time: a Timestamp, or an RFC 3339 time of an item
// written before every stored time was one (with nanoseconds, or none). An
// empty or malformed one is the zero time, which every comparison treats
// as long past.
func Parse(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// Span writes d for people in its largest whole unit ("3 days", "30 days",
// "24 hours", "10 minutes", "1 second"; days from two on), so that what a
// page or a message says of a lifetime or a limit is rendered from its
// constant, never typed again. A span that is no whole number of seconds
// is written as Go does.
func Span(d time.Duration) string {
	for _, u := range []struct {
		size, from time.Duration
		name       string
	}{{24 * time.Hour, 48 * time.Hour, "day"}, {time.Hour, time.Hour, "hour"}, {time.Minute, time.Minute, "minute"}, {time.Second, time.Second, "second"}} {
		if d >= u.from && d%u.size == 0 {
			n := int64(d / u.size)
			if n == 1 {
				return "1 " + u.name
			}
			return fmt.Sprintf("%d %ss", n, u.name)
		}
	}
	return d.String()
}
