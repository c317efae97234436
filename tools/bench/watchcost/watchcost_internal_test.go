package watchcost

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLambdasSamplingRecordsTheFirstRequestEachSecondAndFivePercentOfTheRest(t *testing.T) {
	for _, tc := range []struct {
		name     string
		requests float64
		want     float64
	}{
		{"below one a second every request is recorded", 1e6, 1e6},
		{"at one a second every request is recorded", secondsPerMonth, secondsPerMonth},
		{"above it, one a second and 5% of the rest", 10e6, secondsPerMonth + 0.05*(10e6-secondsPerMonth)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, tc.want, tracesRecorded(tc.requests), 1)
		})
	}
}

func TestAMonthsWatchingAddsLogsMetricsAlarmsTheDashboardAndTheProbe(t *testing.T) {
	res := Result{MeanBytes: 1000, ProbeLineBytes: 500, SweepLineBytes: 300, FailureHours: 73,
		Series: Series{Always: 4, OnFailure: 20, ByOperation: 99}, Alarms: Alarms{Alarms: 10, Metrics: 30, HighResMetrics: 1}, Dashboards: 1}
	res.Probe.Total = 0.25
	m := price(res, 1e6)
	assert.InDelta(t, (1e6*1000+43_200*800)/1e9, m.logsGB, 1e-9, "a million request lines of 1,000 bytes, and a probe's and a sweep's line a minute")
	assert.InDelta(t, m.logsGB*0.50, m.logsIngest, 1e-9)
	assert.InDelta(t, (4+20*0.1)*0.30, m.metrics, 1e-9, "the failure-only series billed for the hours they have data")
	assert.InDelta(t, 30*0.10+1*0.30, m.alarms, 1e-9, "each metric an alarm reads")
	assert.InDelta(t, 3.00, m.dashboards, 1e-9)
	assert.InDelta(t, m.logsIngest+m.logsStore+m.metrics+m.alarms+m.dashboards+0.25, m.watching, 1e-9)
	assert.InDelta(t, 4.50, m.xray, 1e-9, "a million traces less the 100,000 free, at $5 a million, if Active")
	assert.Greater(t, price(res, 100e6).watching, m.watching, "logs grow with the requests; the rest is fixed")
}
