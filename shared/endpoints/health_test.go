package endpoints_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/endpoints"
)

func TestAnAttemptsOutcomeIsWrittenOnlyWhenItChangesTheEndpoint(t *testing.T) {
	now := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	since := func(d time.Duration) string { return clock.Timestamp(now.Add(-d)) }
	cases := []struct {
		name      string
		e         endpoints.Endpoint
		delivered bool
		want      bool
	}{
		{"a delivery to an answering endpoint writes nothing", endpoints.Endpoint{Enabled: true}, true, false},
		{"a delivery to a failing endpoint clears its failures", endpoints.Endpoint{Enabled: true, FailingSince: since(time.Hour)}, true, true},
		{"a first failure is noted", endpoints.Endpoint{Enabled: true}, false, true},
		{"a failure within the limit writes nothing", endpoints.Endpoint{Enabled: true, FailingSince: since(endpoints.FailingLimit)}, false, false},
		{"a failure past the limit disables", endpoints.Endpoint{Enabled: true, FailingSince: since(endpoints.FailingLimit + time.Second)}, false, true},
		{"a disabled endpoint's failure writes nothing", endpoints.Endpoint{FailingSince: since(endpoints.FailingLimit + time.Hour)}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.e.Noting(tc.delivered, now, endpoints.FailingLimit))
		})
	}
}
