package deliveries

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/clock"
)

func TestTheBackoffDoublesFromAMinuteUpToSixHours(t *testing.T) {
	assert.Equal(t, time.Minute, NextRetry(1))
	assert.Equal(t, 2*time.Minute, NextRetry(2))
	assert.Equal(t, 64*time.Minute, NextRetry(7))
	assert.Equal(t, MaxRetry, NextRetry(20))
}

func TestADeliveryGivesUpOnceItsRetriesWouldPassGiveUpSinceItWasAskedFor(t *testing.T) {
	made := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	d := Delivery{CreatedAt: clock.Timestamp(made)}
	cases := []struct {
		name   string
		d      Delivery
		now    time.Time
		giveUp bool
	}{
		{"an early failure is retried", d, made.Add(time.Hour), false},
		{"a retry that would come after its 3 days is not made", d, made.Add(GiveUp - time.Hour), true},
		{"a redelivery's 3 days count from the redelivery", Delivery{CreatedAt: d.CreatedAt, RetryFrom: clock.Timestamp(made.Add(10 * 24 * time.Hour))}, made.Add(11 * 24 * time.Hour), false},
		{"an item from before, with an RFC 3339 time, is read", Delivery{CreatedAt: made.Format(time.RFC3339Nano)}, made.Add(GiveUp), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, giveUp := nextAttempt(c.d, 12, Attempt{Status: 500}, c.now)
			assert.Equal(t, c.giveUp, giveUp)
		})
	}
}
