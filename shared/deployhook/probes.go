package deployhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/bizplatform/api/shared/operations"
)

// probe is one invocation of a new version and what its answer must be.
type probe struct {
	name  string
	event []byte
	check func(payload []byte) error
}

// CanaryScopes are the canary token's scopes: reads only, so that the
// token kept in SSM can change nothing. The areas with a list read answer
// it 200; every other area's first operation answers it 403 from the scope
// check, which comes after the token was found in the table.
var CanaryScopes = []string{"contacts.readonly", "surveys.readonly", "campaigns.readonly", "medias.readonly"}

// canaryReads are the reads that answer the canary token 200: a list of
// its account, empty or not. %s is the canary account.
var canaryReads = map[string]struct {
	op    operations.Operation
	query string
}{
	"contacts":  {operations.ListContacts, "locationId=%s"},
	"surveys":   {operations.ListSurveys, "locationId=%s"},
	"campaigns": {operations.ListCampaigns, "locationId=%s"},
	"medias":    {operations.ListMediaFiles, "altType=account&altId=%s&type=file&sortBy=createdAt&sortOrder=asc"},
}

// Function directories that serve no API area.
const (
	portalDir   = "portal"
	oauthDir    = "oauth"
	webhooksDir = "webhooks"
)

var (
	canaryMu    sync.Mutex
	canaryCache = map[string]string{}
)

// canaryToken reads the token once per cold start.
func (h *Hook) canaryToken(ctx context.Context) (string, error) {
	canaryMu.Lock()
	defer canaryMu.Unlock()
	if v, ok := canaryCache[h.CanaryParameter]; ok {
		return v, nil
	}
	out, err := h.SSM.GetParameter(ctx, &ssm.GetParameterInput{Name: aws.String(h.CanaryParameter), WithDecryption: aws.Bool(true)})
	if err != nil {
		return "", fmt.Errorf("read the canary token (%s): %w", h.CanaryParameter, err)
	}
	v := strings.TrimSpace(aws.ToString(out.Parameter.Value))
	if v == "" {
		return "", fmt.Errorf("the canary token parameter %s is empty", h.CanaryParameter)
	}
	canaryCache[h.CanaryParameter] = v
	return v, nil
}

// probes are the invocations that prove a version of the function in
// functions/<dir> works.
func (h *Hook) probes(ctx context.Context, dir string) ([]probe, error) {
	switch dir {
	case webhooksDir:
		// An event naming no webhook event: one sweep of the due retries,
		// the work the schedule gives it every minute.
		return []probe{{name: "a sweep", event: []byte(`{"Records":[]}`), check: func([]byte) error { return nil }}}, nil
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
	token, err := h.canaryToken(ctx)
	if err != nil {
		return nil, err
	}
	out := []probe{{name: "a request without a token", event: gatewayEvent(first.Method, first.Path, concrete(first.Path), "", ""),
		check: apiError(http.StatusUnauthorized)}}
	if read, ok := canaryReads[dir]; ok {
		return append(out, probe{name: "a read with the canary token",
			event: gatewayEvent(read.op.Method, read.op.Path, read.op.Path, fmt.Sprintf(read.query, h.CanaryAccount), token),
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

func response(payload []byte) (events.APIGatewayV2HTTPResponse, error) {
	var res events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(payload, &res); err != nil || res.StatusCode == 0 {
		return res, fmt.Errorf("not an API Gateway answer: %.300s", payload)
	}
	return res, nil
}

func header(res events.APIGatewayV2HTTPResponse, name string) string {
	for k, v := range res.Headers {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// answers wants the status and a body of the media type.
func answers(status int, mediaType string) func([]byte) error {
	return func(payload []byte) error {
		res, err := response(payload)
		if err != nil {
			return err
		}
		if res.StatusCode != status {
			return fmt.Errorf("answered %d, want %d: %.300s", res.StatusCode, status, res.Body)
		}
		if !strings.HasPrefix(header(res, "Content-Type"), mediaType) {
			return fmt.Errorf("answered %q, want %s", header(res, "Content-Type"), mediaType)
		}
		if mediaType == "application/json" && !json.Valid([]byte(res.Body)) {
			return fmt.Errorf("the body is not JSON: %.300s", res.Body)
		}
		return nil
	}
}

// apiError wants the status with the API's JSON error body.
func apiError(status int) func([]byte) error {
	return func(payload []byte) error {
		if err := answers(status, "application/json")(payload); err != nil {
			return err
		}
		res, _ := response(payload)
		var body struct {
			StatusCode int    `json:"statusCode"`
			Message    string `json:"message"`
			Error      string `json:"error"`
		}
		if err := json.Unmarshal([]byte(res.Body), &body); err != nil {
			return fmt.Errorf("the body is not the API's error: %.300s", res.Body)
		}
		if body.StatusCode != status || body.Message == "" || body.Error == "" {
			return errors.New("the error body lacks its statusCode, message or error: " + res.Body)
		}
		return nil
	}
}
