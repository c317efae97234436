package lambdaapp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/payments"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/lambdaapp"
)

// invoke hands an API Gateway (HTTP API, payload 2.0) event to an area's
// function, built as its Lambda builds it, through the adapter lambdaapp.Run
// gives the runtime.
func invoke(t *testing.T, area app.Area, ev events.APIGatewayV2HTTPRequest) events.APIGatewayV2HTTPResponse {
	t.Helper()
	table := testenv.NewTable(t)
	env := map[string]string{"TABLE_NAME": table.Name, "DYNAMODB_ENDPOINT": testenv.Endpoint(t)}
	h, err := lambdaapp.Handler(context.Background(), area, func(k string) string { return env[k] })
	require.NoError(t, err)
	resp, err := httpadapter.NewV2(h).ProxyWithContext(context.Background(), ev)
	require.NoError(t, err)
	return resp
}

func event(method, rawPath string, headers map[string]string, body string) events.APIGatewayV2HTTPRequest {
	return events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: "$default", RawPath: rawPath, Headers: headers, Body: body,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			RequestID: "gw-request-1", DomainName: "api.example.com", Stage: "$default",
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: method, Path: rawPath, Protocol: "HTTP/1.1", SourceIP: "192.0.2.1"},
		},
	}
}

func TestAFunctionAnswersAPathThatNamesNoOperationWithTheAPIsJSON404(t *testing.T) {
	for _, tc := range []struct{ name, method, path string }{
		{"a doubled leading slash", "GET", "//contacts/"},
		{"a '.' segment", "DELETE", "/contacts/./tasks/t1"},
		{"a '..' segment", "DELETE", "/contacts/c1/tasks/../tasks/t1"},
		{"a trailing '/.'", "GET", "/contacts/."},
		{"a trailing '//'", "GET", "/contacts//"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := invoke(t, contacts.Area, event(tc.method, tc.path, map[string]string{"version": "2021-07-28"}, ""))
			assert.Equal(t, http.StatusNotFound, resp.StatusCode, "body: %s", resp.Body)
			assert.Equal(t, "application/json; charset=utf-8", resp.Headers["Content-Type"])
			assert.Equal(t, "gw-request-1", resp.Headers["X-Request-Id"], "API Gateway's request id")
			assert.Empty(t, resp.Headers["Location"], "never a redirect")
			var body map[string]any
			require.NoError(t, json.Unmarshal([]byte(resp.Body), &body), resp.Body)
			assert.EqualValues(t, 404, body["statusCode"])
			assert.Contains(t, body["message"], "No operation is served")
			assert.Equal(t, "gw-request-1", body["traceId"], "the id a user can quote")
		})
	}
}

func TestAFunctionRefusesABodyWithTwoContentTypes(t *testing.T) {
	// API Gateway joins repeated headers with a comma.
	resp := invoke(t, payments.Area, event("DELETE", "/payments/coupon", map[string]string{
		"version": "2021-07-28", "content-type": "application/json,application/json", "authorization": "Bearer bpt_x",
	}, `{}`))
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "body: %s", resp.Body)
	assert.Contains(t, resp.Body, "more than one Content-Type")
}
