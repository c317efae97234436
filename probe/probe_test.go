package probe_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"
	ssmtypes "github.com/aws/aws-sdk-go-v2/service/ssm/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/probe"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/canary"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/metrics/emftest"
	"github.com/bizplatform/api/shared/wiring"
)

// parameter is SSM holding the canary token (or failing).
type parameter struct {
	value string
	err   error
}

func (p parameter) GetParameter(_ context.Context, in *ssm.GetParameterInput, _ ...func(*ssm.Options)) (*ssm.GetParameterOutput, error) {
	if p.err != nil {
		return nil, p.err
	}
	return &ssm.GetParameterOutput{Parameter: &ssmtypes.Parameter{Name: in.Name, Value: aws.String(p.value)}}, nil
}

var _ canary.Parameters = parameter{}

const account = "canaryAccount0000001"

// deployedAPI is the contacts area and the OpenAPI document behind one
// URL, as API Gateway routes them to their functions; and the canary
// account's token.
func deployedAPI(t *testing.T) (*httptest.Server, string) {
	env := testenv.New(t, []app.Area{contacts.Area})
	env.Account(t, account, "canaryCompany0000001")
	token, _ := env.Token(t, account, canary.Scopes...)
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+api.JSONPath, api.ServeDocument)
	mux.Handle("/", env.Server.Handler)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, token
}

func run(t *testing.T, url string, ssm canary.Parameters) ([]probe.Result, map[string]any) {
	logs := &testenv.LogBuffer{}
	p := &probe.Probe{URL: url, Client: http.DefaultClient, Canary: &canary.Token{SSM: ssm, Parameter: "/bizplatform/stack/canary-token"},
		Account: account, Lines: metrics.NewMeter("BizPlatform/stack", "").ProbeLines(), Logger: wiring.NewLogger(logs, nil), Clock: clock.System{}}
	results := p.Run(context.Background())
	lines, err := emftest.MetricLines(logs.String())
	require.NoError(t, err, "the run's line is valid EMF")
	require.Len(t, lines, 1, "one line per run, whatever happened")
	assert.Equal(t, "probe", lines[0]["Function"])
	assert.NotContains(t, logs.String(), "bpt_", "the canary token is never logged")
	return results, lines[0]
}

func TestAWorkingAPIPassesEveryCheck(t *testing.T) {
	srv, token := deployedAPI(t)
	results, line := run(t, srv.URL, parameter{value: token + "\n"})
	require.Len(t, results, 3)
	for _, r := range results {
		assert.NoError(t, r.Err, r.Name)
	}
	assert.Equal(t, []int{http.StatusUnauthorized, http.StatusOK, http.StatusOK}, []int{results[0].Status, results[1].Status, results[2].Status})
	assert.Equal(t, 0.0, line["ProbeFailures"], "written at 0: silence would mean the probe stopped")
	assert.Equal(t, "INFO", line["level"])
}

func TestWhatAClientWouldSeeAsBrokenFailsItsChecks(t *testing.T) {
	srv, token := deployedAPI(t)
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"statusCode":500,"message":"Internal server error","error":"Internal Server Error"}`))
	}))
	t.Cleanup(failing.Close)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	for _, tc := range []struct {
		name   string
		url    string
		ssm    canary.Parameters
		failed float64
	}{
		{"an API that answers 500 to everything", failing.URL, parameter{value: token}, 3},
		{"an API nothing reaches", gone.URL, parameter{value: token}, 3},
		{"a canary token that cannot be read", srv.URL, parameter{err: errors.New("AccessDeniedException")}, 1},
		{"a canary token the API does not know", srv.URL, parameter{value: "bpt_unknown"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			results, line := run(t, tc.url, tc.ssm)
			assert.Equal(t, tc.failed, line["ProbeFailures"])
			assert.Equal(t, "WARN", line["level"], "a failed run is a warning, which LogLevel INFO keeps")
			checks, _ := line["checks"].([]any)
			require.Len(t, checks, 3)
			for i, r := range results {
				assert.Equal(t, r.Err != nil, checks[i].(map[string]any)["error"] != nil, "the line says why %s failed", r.Name)
			}
		})
	}
}
