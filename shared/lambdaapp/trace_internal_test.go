package lambdaapp

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/httpserve"
)

func TestARequestCarriesItsInvocationsTrace(t *testing.T) {
	var got string
	h := withGatewayRequestID(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = httpserve.TraceID(r.Context()) }))
	t.Setenv("_X_AMZN_TRACE_ID", "Root=1-67891233-abcdef012345678912345678;Sampled=0")
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	assert.Equal(t, "1-67891233-abcdef012345678912345678", got, "the invocation's trace (lambdatask.WithInvocationTrace)")
}
