package webhooks_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/metrics/emftest"
	"github.com/bizplatform/api/shared/wiring"
	"github.com/bizplatform/api/webhooks"
)

// reporting is the fixture's deliverer writing its lines to logs.
func (f *fixture) reporting(logs *testenv.LogBuffer) *webhooks.Deliverer {
	return webhooks.New(f.env.Table, f.env.Clock, f.key, nil, wiring.NewLogger(logs, nil), metrics.NewMeter("BizPlatform/test", "")).WithSecrets(f.env.Deps.Secrets)
}

// lastReport is the last metric line logged, checked against the format.
func lastReport(t *testing.T, logs *testenv.LogBuffer) map[string]any {
	t.Helper()
	lines, err := emftest.MetricLines(logs.String())
	require.NoError(t, err)
	require.NotEmpty(t, lines)
	l := lines[len(lines)-1]
	assert.Equal(t, "webhooks", l["Function"])
	return l
}

func TestEachReportCountsTheAttemptsSinceTheLastAndTheOldestPendingAge(t *testing.T) {
	f := newFixture(t, 3, 0)
	f.installAndUninstall(t) // two events, created now
	logs := &testenv.LogBuffer{}
	d := f.reporting(logs)
	ctx := context.Background()

	f.env.Clock.Advance(30 * time.Second)
	_, err := d.Sweep(ctx)
	require.NoError(t, err)
	require.NoError(t, d.Report(ctx, true))
	l := lastReport(t, logs)
	assert.Equal(t, 2.0, l["WebhookAttempts"])
	assert.Equal(t, 2.0, l["WebhookFailures"])
	assert.Equal(t, 0.0, l["WebhookDeliveries"])
	assert.Equal(t, 30.0, l["WebhookOldestPendingAgeSeconds"], "both events still pending, 30 s old")

	f.env.Clock.Advance(deliveries.NextRetry(1))
	_, err = d.Sweep(ctx)
	require.NoError(t, err)
	require.NoError(t, d.Report(ctx, false))
	l = lastReport(t, logs)
	assert.Equal(t, 2.0, l["WebhookAttempts"], "only the attempts since the last report")
	assert.Equal(t, 1.0, l["WebhookFailures"])
	assert.Equal(t, 1.0, l["WebhookDeliveries"])
	assert.NotContains(t, l, "WebhookOldestPendingAgeSeconds", "a report that did not look claims no age")

	f.env.Clock.Advance(deliveries.NextRetry(2))
	_, err = d.Sweep(ctx)
	require.NoError(t, err)
	require.NoError(t, d.Report(ctx, true))
	l = lastReport(t, logs)
	assert.Equal(t, 1.0, l["WebhookDeliveries"])
	assert.Equal(t, 0.0, l["WebhookOldestPendingAgeSeconds"], "nothing pending")
	assert.Equal(t, 0.0, l["WebhookGivenUp"])
}

func TestAnEventThatRunsOutOfRetriesIsCountedAsGivenUp(t *testing.T) {
	f := newFixture(t, 1_000_000, 0)
	f.installAndUninstall(t)
	logs := &testenv.LogBuffer{}
	d := f.reporting(logs)
	ctx := context.Background()
	attempts := 0
	for range 40 {
		n, err := d.Sweep(ctx)
		require.NoError(t, err)
		attempts += n
		f.env.Clock.Advance(deliveries.MaxRetry)
	}
	require.NoError(t, d.Report(ctx, true))
	l := lastReport(t, logs)
	assert.Equal(t, 2.0, l["WebhookGivenUp"])
	assert.Equal(t, float64(attempts), l["WebhookAttempts"])
	assert.Equal(t, float64(attempts), l["WebhookFailures"])
	assert.Equal(t, 0.0, l["WebhookOldestPendingAgeSeconds"], "a given-up event is pending no more")
}
