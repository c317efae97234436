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

func TestAMonthsPriceAddsLogsMetricsAndTraces(t *testing.T) {
	m := price(Result{MeanBytes: 1000, MetricsPerMonth: 100}, 1e6)
	assert.InDelta(t, 1.0, m.logsGB, 1e-9, "a million lines of 1,000 bytes")
	assert.InDelta(t, 0.50, m.logsIngest, 1e-9)
	assert.InDelta(t, 4.50, m.xray, 1e-9, "a million traces less the 100,000 free, at $5 a million")
	assert.InDelta(t, 2.56+0.50+0.03+100+4.50, m.total, 1e-9)
}
