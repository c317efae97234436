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
