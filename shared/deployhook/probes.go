package deployhook

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/bizplatform/api/shared/apicheck"
	"github.com/bizplatform/api/shared/canary"
	"github.com/bizplatform/api/shared/dryrun"
	"github.com/bizplatform/api/shared/operations"
)

// probe is one invocation of a new version and what its answer must be.
type probe struct {
	name  string
	event []byte
	check func(payload []byte) error
}

// Function directories that serve no API area.
const (
	portalDir   = "portal"
	oauthDir    = "oauth"
	webhooksDir = "webhooks"
)

// probes are the invocations that prove a version of the function in
// functions/<dir> works.
func (h *Hook) probes(ctx context.Context, dir string) ([]probe, error) {
	switch dir {
	case webhooksDir:
		// A dry run: the deliverer starts (its signing key read) and reads
		// its table, and delivers nothing (shared/dryrun).
		return []probe{{name: "a dry run", event: dryrun.Event, check: func([]byte) error { return nil }}}, nil
	case portalDir:
		return []probe{{name: "the sign-in page", event: gatewayEvent("GET", "/portal/{proxy+}", "/portal/sign-in", "", ""),
			check: answers(http.StatusOK, "text/html")}}, nil
	case oauthDir:
		return []probe{{name: "a request without a token", event: gatewayEvent("GET", "/oauth/installedLocations", "/oauth/installedLocations", "", ""),
			check: apiError(http.StatusUnauthorized)}}, nil
	}
	var first *operations.Operation
	for i, op := range operations.All {
		if op.Area == dir {
			first = &operations.All[i]
			break
		}
	}
	if first == nil {
		return nil, fmt.Errorf("functions/%s serves no operation this hook knows", dir)
	}
	token, err := h.Canary.Value(ctx)
	if err != nil {
		return nil, err
	}
	out := []probe{{name: "a request without a token", event: gatewayEvent(first.Method, first.Path, concrete(first.Path), "", ""),
		check: apiError(http.StatusUnauthorized)}}
	if read, ok := canary.Reads[dir]; ok {
		return append(out, probe{name: "a read with the canary token",
			event: gatewayEvent(read.Op.Method, read.Op.Path, read.Op.Path, fmt.Sprintf(read.Query, h.CanaryAccount), token),
			check: answers(http.StatusOK, "application/json")}), nil
	}
	return append(out, probe{name: "the canary token on " + first.ID(),
		event: gatewayEvent(first.Method, first.Path, concrete(first.Path), "", token),
		check: apiError(http.StatusForbidden)}), nil
}

// concrete fills a route's path values with a well-formed id.
func concrete(route string) string {
	parts := strings.Split(route, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "{") {
			parts[i] = "pretrafficProbe00001"
		}
	}
	return strings.Join(parts, "/")
}

var probeSeq struct {
	sync.Mutex
	n int
}

// gatewayEvent is the API Gateway HTTP API (payload 2.0) event of a request.
func gatewayEvent(method, route, path, query, token string) []byte {
	probeSeq.Lock()
	probeSeq.n++
	id := "pretraffic-" + strconv.FormatInt(time.Now().UnixMilli(), 36) + "-" + strconv.Itoa(probeSeq.n)
	probeSeq.Unlock()
	routeKey := method + " " + route
	if strings.HasPrefix(route, "/portal") {
		routeKey = "ANY " + route
	}
	headers := map[string]string{"accept": "application/json", "user-agent": "bizplatform-pretraffic", "version": "2021-07-28"}
	if token != "" {
		headers["authorization"] = "Bearer " + token
	}
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: routeKey, RawPath: path, RawQueryString: query, Headers: headers,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			RouteKey: routeKey, Stage: "$default", RequestID: id, TimeEpoch: time.Now().UnixMilli(),
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: method, Path: path, Protocol: "HTTP/1.1", SourceIP: "127.0.0.1", UserAgent: "bizplatform-pretraffic"},
		},
	}
	if query != "" {
		ev.QueryStringParameters = map[string]string{}
		for _, kv := range strings.Split(query, "&") {
			k, v, _ := strings.Cut(kv, "=")
			ev.QueryStringParameters[k] = v
		}
	}
	raw, _ := json.Marshal(ev) // plain strings and maps: cannot fail
	return raw
}

// answer is what the version answered, as a client would see it.
func answer(payload []byte) (apicheck.Answer, error) {
	var res events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(payload, &res); err != nil || res.StatusCode == 0 {
		return apicheck.Answer{}, fmt.Errorf("not an API Gateway answer: %.300s", payload)
	}
	a := apicheck.Answer{Status: res.StatusCode, Body: []byte(res.Body)}
	for k, v := range res.Headers {
		if strings.EqualFold(k, "Content-Type") {
			a.ContentType = v
		}
	}
	return a, nil
}

// answers wants the status and a body of the media type.
func answers(status int, mediaType string) func([]byte) error {
	return func(payload []byte) error {
		a, err := answer(payload)
		if err != nil {
			return err
		}
		return a.Wants(status, mediaType)
	}
}

// apiError wants the status with the API's JSON error body.
func apiError(status int) func([]byte) error {
	return func(payload []byte) error {
		a, err := answer(payload)
		if err != nil {
			return err
		}
		return a.WantsError(status)
	}
}
