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
			_, giveUp := Default.nextAttempt(c.d, 12, Attempt{Status: 500}, c.now)
			assert.Equal(t, c.giveUp, giveUp)
		})
	}
}

func TestALocalScheduleShrinksEverySpanAlikeAndOnlyOnALocalEngine(t *testing.T) {
	cases := []struct {
		name     string
		retryFor time.Duration
		local    bool
		want     Schedule
		refused  string
	}{
		{"none set is the deployed schedule", 0, false, Default, ""},
		{"none set is the deployed schedule locally too", 0, true, Default, ""},
		{"10 minutes shrinks the backoff 432 times", 10 * time.Minute, true, Schedule{FirstRetry: 139 * time.Millisecond, MaxRetry: 50 * time.Second, GiveUp: 10 * time.Minute}, ""},
		{"a day shrinks it 3 times", 24 * time.Hour, true, Schedule{FirstRetry: 20 * time.Second, MaxRetry: 2 * time.Hour, GiveUp: 24 * time.Hour}, ""},
		{"an engine elsewhere is refused", 10 * time.Minute, false, Schedule{}, "local engine only"},
		{"less than 10 seconds is refused", 5 * time.Second, true, Schedule{}, "must be from 10 seconds to 3 days"},
		{"more than the deployed schedule is refused", 4 * 24 * time.Hour, true, Schedule{}, "must be from 10 seconds to 3 days"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ScheduleFor(c.retryFor, c.local)
			if c.refused != "" {
				assert.ErrorContains(t, err, c.refused)
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestALocalScheduleGivesUpAndBacksOffOnItsOwnSpans(t *testing.T) {
	s, err := ScheduleFor(10*time.Minute, true)
	assert.NoError(t, err)
	assert.Equal(t, 278*time.Millisecond, s.NextRetry(2))
	assert.Equal(t, 50*time.Second, s.NextRetry(30))
	made := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	d := Delivery{CreatedAt: clock.Timestamp(made)}
	_, giveUp := s.nextAttempt(d, 20, Attempt{Status: 500}, made.Add(9*time.Minute+30*time.Second))
	assert.True(t, giveUp, "its next attempt would come after 10 minutes")
	at, giveUp := s.nextAttempt(d, 3, Attempt{Status: 500}, made.Add(time.Second))
	assert.False(t, giveUp)
	assert.Equal(t, made.Add(time.Second+556*time.Millisecond), at)
}
