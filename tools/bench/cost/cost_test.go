package cost

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/tools/bench/calls"
)

func TestAMillionRequestsArePricedFromTheirUnitsAndDuration(t *testing.T) {
	perOp := calls.Result{Operations: []calls.Operation{
		{Route: "GET /a", Warm: calls.Figures{RCU: 2, WCU: 1}},
		{Route: "POST /b", Warm: calls.Figures{RCU: 1, WCU: 5}},
	}}
	res := priceMix(perOp, map[string]int{"GET /a": 3, "POST /b": 1}, 1024, 9.2, prices{read: 0.25, write: 1.25, gbSecond: 0.00001})
	m := res.Mix
	assert.InDelta(t, (3*2.0+1*1)/4, m.RCUPerRequest, 1e-9, "units weighed by the mix")
	assert.InDelta(t, (3*1.0+1*5)/4, m.WCUPerRequest, 1e-9)
	assert.InDelta(t, m.RCUPerRequest*0.25+m.WCUPerRequest*1.25, m.DynamoDB, 1e-9)
	assert.InDelta(t, 0.010*1*0.00001*1e6, m.LambdaCompute, 1e-9, "10 ms billed (rounded up) at 1 GB")
	assert.InDelta(t, m.DynamoDB+m.LambdaCompute+0.20+1.00, m.Total, 1e-9)
	assert.Equal(t, "GET /a", res.Operations[0].Route, "the heaviest in the mix first")
}

func TestTheProbesMonthIsPricedFromItsRunsAndWhatTheyCall(t *testing.T) {
	c := Probe(256, prices{read: 0.125, write: 0.625, gbSecond: 0.0000133334})
	assert.Equal(t, 43_200, c.Runs, "a run a minute, 30 days")
	assert.InDelta(t, 43_200*3*1.00/1e6, c.HTTPAPI, 1e-9, "three requests a run through the HTTP API")
	assert.InDelta(t, 43_200*(1*0.625+0.5*0.125)/1e6, c.DynamoDB, 1e-9, "the canary read's admission write and list page")
	assert.InDelta(t, 43_200*0.20/1e6+43_200*0.4*128/1024*0.0000133334, c.LambdaProbe, 1e-9)
	assert.InDelta(t, c.LambdaProbe+c.LambdaAnswers+c.HTTPAPI+c.DynamoDB, c.Total, 1e-12)
	assert.Less(t, c.Total, 0.5, "cents a month")
}
