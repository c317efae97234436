package lambdatask

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/httpserve"
)

func TestAnInvocationCarriesItsTrace(t *testing.T) {
	t.Run("from the runtime's context value", func(t *testing.T) {
		ctx := context.WithValue(context.Background(), lambdaTraceKey, "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1") //nolint:staticcheck // the runtime's own key
		assert.Equal(t, "1-5759e988-bd862e3fe1be46a994272793", httpserve.TraceID(WithInvocationTrace(ctx)))
	})
	t.Run("an unsampled header (tracing PassThrough) still names the trace", func(t *testing.T) {
		ctx := context.WithValue(context.Background(), lambdaTraceKey, "Root=1-67891233-abcdef012345678912345678;Sampled=0") //nolint:staticcheck // the runtime's own key
		assert.Equal(t, "1-67891233-abcdef012345678912345678", httpserve.TraceID(WithInvocationTrace(ctx)))
	})
	t.Run("else from the environment the runtime sets", func(t *testing.T) {
		t.Setenv("_X_AMZN_TRACE_ID", "Root=1-67891233-abcdef012345678912345678;Sampled=0")
		assert.Equal(t, "1-67891233-abcdef012345678912345678", httpserve.TraceID(WithInvocationTrace(context.Background())))
	})
}
