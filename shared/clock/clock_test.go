package clock_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/clock"
)

func TestASpanIsWrittenInItsLargestWholeUnit(t *testing.T) {
	for _, c := range []struct {
		span time.Duration
		want string
	}{
		{3 * 24 * time.Hour, "3 days"},
		{30 * 24 * time.Hour, "30 days"},
		{24 * time.Hour, "24 hours"},
		{2 * 24 * time.Hour, "2 days"},
		{36 * time.Hour, "36 hours"},
		{10 * time.Minute, "10 minutes"},
		{time.Second, "1 second"},
		{1500 * time.Millisecond, "1.5s"},
	} {
		t.Run(c.want, func(t *testing.T) { assert.Equal(t, c.want, clock.Span(c.span)) })
	}
}

func TestAStoredTimeIsReadInEveryFormatItemsHold(t *testing.T) {
	want := time.Date(2026, 11, 27, 10, 0, 0, 123_000_000, time.UTC)
	for _, stored := range []string{clock.Timestamp(want), "2026-11-27T10:00:00.123Z", "2026-11-27T11:00:00.123+01:00", "2026-11-27T10:00:00.123000000Z"} {
		assert.True(t, want.Equal(clock.Parse(stored)), stored)
		assert.Equal(t, time.UTC, clock.Parse(stored).Location(), "read as UTC")
	}
	assert.True(t, clock.Parse("2026-11-27T10:00:00Z").Equal(want.Truncate(time.Second)), "without a fraction")
	assert.True(t, clock.Parse("").IsZero())
	assert.True(t, clock.Parse("yesterday").IsZero(), "a malformed time is the zero time: long past")
}
