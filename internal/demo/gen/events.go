package main

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/shared/operations"
)

// The sample events: events/<area>/<name>.json, one API Gateway HTTP API
// (payload 2.0) event per operation, for `sam local invoke <Function> -e
// <file>` and for the packaging test, which feeds each to the real function
// binary against the demo dataset. Every event succeeds once on a freshly
// loaded demo dataset. The method, route and area come from the operations
// table; the request's values name demo records. The token is the documented
// local demo token; it exists only in local engines.

// sampleRequest is one operation's sample: its file name, the values of the
// route's {names} in order, its query and body, and the demo token it uses.
type sampleRequest struct {
	op         operations.Operation
	name       string
	pathValues []string
	query      obj
	body       any
	token      demo.Token
}

// samples are the operations' sample requests, in the order of
// operations.All.
func samples() []sampleRequest {
	marketplace := demo.Tokens[1]
	loc := obj{{"locationId", alpha.id}}
	account := func(more ...kv) obj { return append(obj{{"altId", alpha.id}, {"altType", "account"}}, more...) }
	return []sampleRequest{
		{op: operations.ListContacts, name: "list-contacts",
			query: obj{{"locationId", alpha.id}, {"limit", "5"}, {"query", "lopez"}}},
		{op: operations.DeleteTask, name: "delete-task",
			pathValues: []string{alpha.recordID("Ctc", 1), alpha.recordID("Tsk", 1)}},
		{op: operations.CreateWhitelabelProvider, name: "create-whitelabel-provider", token: marketplace,
			body: account(kv{"uniqueName", "alpha-direct-pay"}, kv{"title", "Alpha Direct Pay"},
				kv{"provider", "authorize-net"}, kv{"description", "Card payments for Alpha Dental Care through Authorize.net"},
				kv{"imageUrl", "https://assets.example.com/payments/alpha-direct-pay.png"})},
		{op: operations.DeleteCoupon, name: "delete-coupon",
			body: account(kv{"id", alpha.recordID("Cpn", 3)})},
		{op: operations.UpdateInventory, name: "update-inventory",
			body: account(kv{"items", []obj{
				{{"priceId", hexID(alpha, "02", nthOf(2, 1))}, {"availableQuantity", 35}, {"allowOutOfStockPurchases", false}},
				{{"priceId", hexID(alpha, "02", nthOf(2, 2))}, {"availableQuantity", 12}, {"allowOutOfStockPurchases", true}},
				{{"priceId", hexID(alpha, "02", nthOf(4, 1))}, {"availableQuantity", 800}}}})},
		{op: operations.UpdateShippingZone, name: "update-shipping-zone", pathValues: []string{hexID(alpha, "03", 2)},
			body: account(kv{"name", "West Coast and BC"},
				kv{"countries", []country{countryOf("US", "CA", "OR", "WA", "NV"), countryOf("CA", "BC")}})},
		{op: operations.UpdateShippingRate, name: "update-shipping-rate",
			pathValues: []string{hexID(alpha, "03", 1), hexID(alpha, "04", nthOf(1, 2))},
			body:       account(kv{"name", "Free over $75"}, kv{"minCondition", 75}, kv{"maxCondition", nil})},
		{op: operations.UpdateCustomField, name: "update-custom-field", pathValues: []string{"demoFldPetBreedAlpha"},
			body: append(loc, kv{"showInForms", true}, kv{"placeholder", "Pick a breed"},
				kv{"options", []obj{{{"key", "labrador"}, {"label", "Labrador"}}, {{"label", "Beagle"}}, {{"label", "Poodle"}},
					{{"label", "Golden Retriever"}}}})},
		{op: operations.CreateAssociation, name: "create-association",
			body: append(loc, kv{"key", "vehicle_driver"}, kv{"firstObjectLabel", "Vehicle"},
				kv{"firstObjectKey", "custom_objects.vehicle"}, kv{"secondObjectLabel", "Driver"}, kv{"secondObjectKey", "contact"})},
		{op: operations.CreateRelation, name: "create-relation",
			body: append(loc, kv{"associationId", alpha.recordID("Asc", 1)}, kv{"firstRecordId", alpha.recordID("Pet", 3)},
				kv{"secondRecordId", alpha.recordID("Ctc", 10)})},
		{op: operations.CreateBrandBoard, name: "create-brand-board",
			body: append(loc, kv{"name", "Summer campaign 2026"}, kv{"brandBoardId", "bbd0a1000000000000000001"},
				kv{"type", "template"}, kv{"default", true},
				kv{"colors", []obj{{{"id", "color_sun"}, {"hexa", "#ffc300ff"}, {"rgba", "rgba(255, 195, 0, 1)"}, {"hex", "#ffc300"},
					{"rgb", "rgb(255, 195, 0)"}, {"label", "Sunshine"}}}})},
		{op: operations.CreateEmailTemplate, name: "create-template",
			body: append(loc, kv{"type", "html"}, kv{"title", "Summer check-up reminder"}, kv{"name", "Summer reminder"},
				kv{"builderVersion", "2"}, kv{"parentId", alpha.recordID("Fld", 2)}, kv{"isPlainText", false})},
		{op: operations.UpdateVoiceAction, name: "update-action", pathValues: []string{"demoActAlphaCallTransfer"},
			body: obj{{"agentId", alpha.recordID("Agt", 1)}, {"locationId", alpha.id}, {"actionType", "CALL_TRANSFER"},
				{"name", "Transfer to front desk lead"},
				{"actionParameters", obj{{"triggerPrompt", "When the caller asks for a person or is upset"}, {"transferToType", "number"},
					{"transferToValue", "+15550104478"},
					{"triggerMessage", "Let me put you through to our front desk lead."},
					{"hearWhisperMessage", true}}}}},
		{op: operations.GetMessage, name: "get-message", pathValues: []string{alpha.recordID("Msg", 4)}},
		{op: operations.ListMediaFiles, name: "list-files",
			query: obj{{"altType", "account"}, {"altId", alpha.id}, {"type", "file"}, {"sortBy", "createdAt"}, {"sortOrder", "asc"},
				{"parentId", alpha.recordID("Fld", 3)}, {"limit", "20"}, {"offset", "20"}}},
		{op: operations.UpdateMedia, name: "rename", pathValues: []string{alpha.recordID("Fld", 5)},
			body: obj{{"name", "Leaflets"}, {"altType", "account"}, {"altId", alpha.id}}},
		{op: operations.FilterUsersByEmail, name: "filter-users-by-email",
			body: obj{{"companyId", demo.CompanyNorth}, {"emails", "zoe.garcia@alphadental.example, Casey.Morgan@freelance.example"},
				{"projection", "name,roles"}}},
		{op: operations.ListSurveys, name: "list-surveys",
			query: append(loc, kv{"type", "folder"}, kv{"limit", "3"})},
		{op: operations.ListCampaigns, name: "list-campaigns",
			query: append(loc, kv{"status", "draft"})},
		{op: operations.SearchAdsReportingList, name: "searchads-reporting-list",
			query: append(loc, kv{"listType", "adGroups"}, kv{"type", "INTEGRATION"}, kv{"startDate", "2026-09-01"},
				kv{"endDate", "2026-09-30"}, kv{"campaignId", "demoSearchCmpAlpha02"})},
		{op: operations.DeleteSocialAdsIntegration, name: "socialads-delete-integration", body: loc},
	}
}

type apiEvent struct {
	Version         string         `json:"version"`
	RouteKey        string         `json:"routeKey"`
	RawPath         string         `json:"rawPath"`
	RawQueryString  string         `json:"rawQueryString"`
	Headers         eventHeaders   `json:"headers"`
	Query           obj            `json:"queryStringParameters,omitempty"`
	PathParameters  obj            `json:"pathParameters,omitempty"`
	RequestContext  requestContext `json:"requestContext"`
	Body            string         `json:"body,omitempty"`
	IsBase64Encoded bool           `json:"isBase64Encoded"`
}

type eventHeaders struct {
	Accept         string `json:"accept"`
	Authorization  string `json:"authorization,omitempty"`
	Host           string `json:"host"`
	UserAgent      string `json:"user-agent"`
	Version        string `json:"version,omitempty"`
	ForwardedFor   string `json:"x-forwarded-for"`
	ForwardedPort  string `json:"x-forwarded-port"`
	ForwardedProto string `json:"x-forwarded-proto"`
	ContentType    string `json:"content-type,omitempty"`
}

type requestContext struct {
	AccountID    string      `json:"accountId"`
	APIID        string      `json:"apiId"`
	DomainName   string      `json:"domainName"`
	DomainPrefix string      `json:"domainPrefix"`
	HTTP         httpContext `json:"http"`
	RequestID    string      `json:"requestId"`
	RouteKey     string      `json:"routeKey"`
	Stage        string      `json:"stage"`
	Time         string      `json:"time"`
	TimeEpoch    int64       `json:"timeEpoch"`
}

type httpContext struct {
	Method    string `json:"method"`
	Path      string `json:"path"`
	Protocol  string `json:"protocol"`
	SourceIP  string `json:"sourceIp"`
	UserAgent string `json:"userAgent"`
}

const (
	apiID     = "abc123defg"
	apiDomain = apiID + ".execute-api.us-east-1.amazonaws.com"
	clientIP  = "192.0.2.10" // a documentation address (RFC 5737)
	userAgent = "curl/8.5.0"
)

// event is the n-th sample's event.
func (s sampleRequest) event(n int) (apiEvent, error) {
	path, params, err := fillPath(s.op.Path, s.pathValues)
	if err != nil {
		return apiEvent{}, err
	}
	token := s.token
	if token.ID == "" {
		token = demo.Tokens[0]
	}
	var query []string
	for _, p := range s.query {
		query = append(query, url.QueryEscape(p.k)+"="+url.QueryEscape(fmt.Sprint(p.v)))
	}
	ev := apiEvent{
		Version:        "2.0",
		RouteKey:       s.op.ID(),
		RawPath:        path,
		RawQueryString: strings.Join(query, "&"),
		Headers: eventHeaders{
			Accept:         "application/json",
			Authorization:  "Bearer " + token.Value(),
			Host:           apiDomain,
			UserAgent:      userAgent,
			Version:        "2021-07-28",
			ForwardedFor:   clientIP,
			ForwardedPort:  "443",
			ForwardedProto: "https",
		},
		Query:          s.query,
		PathParameters: params,
		RequestContext: requestContext{
			AccountID:    "123456789012",
			APIID:        apiID,
			DomainName:   apiDomain,
			DomainPrefix: apiID,
			HTTP:         httpContext{Method: s.op.Method, Path: path, Protocol: "HTTP/1.1", SourceIP: clientIP, UserAgent: userAgent},
			RequestID:    fmt.Sprintf("Evt%02d%.8sReq=", n, strings.ReplaceAll(s.op.Area, "-", "")),
			RouteKey:     s.op.ID(),
			Stage:        "$default",
			Time:         "21/Nov/2026:09:30:00 +0000",
			TimeEpoch:    1795253400000 + int64(n),
		},
	}
	if s.body != nil {
		ev.Headers.ContentType = "application/json"
		if ev.Body, err = compactJSON(s.body); err != nil {
			return apiEvent{}, err
		}
	}
	return ev, nil
}

// portalEvent is a browser asking the portal function for its sign-in page
// (sam local invoke PortalFunction): the portal serves pages, not
// operations, so it has no entry in the operations table.
func portalEvent(n int) apiEvent {
	const route, path, browser = "ANY /portal/{proxy+}", "/portal/sign-in", "Mozilla/5.0"
	return apiEvent{
		Version:  "2.0",
		RouteKey: route,
		RawPath:  path,
		Headers: eventHeaders{
			Accept: "text/html", Host: apiDomain, UserAgent: browser,
			ForwardedFor: clientIP, ForwardedPort: "443", ForwardedProto: "https",
		},
		PathParameters: obj{{"proxy", "sign-in"}},
		RequestContext: requestContext{
			AccountID:    "123456789012",
			APIID:        apiID,
			DomainName:   apiDomain,
			DomainPrefix: apiID,
			HTTP:         httpContext{Method: "GET", Path: path, Protocol: "HTTP/1.1", SourceIP: clientIP, UserAgent: browser},
			RequestID:    "EvtPortalSignInReq=",
			RouteKey:     route,
			Stage:        "$default",
			Time:         "21/Nov/2026:09:30:00 +0000",
			TimeEpoch:    1795253400000 + int64(n),
		},
	}
}

// fillPath puts values into route's {names} in order, and returns the path
// parameters API Gateway passes with it.
func fillPath(route string, values []string) (string, obj, error) {
	segments := strings.Split(route, "/")
	var params obj
	for i, seg := range segments {
		name, ok := strings.CutPrefix(seg, "{")
		if !ok {
			continue
		}
		if len(params) == len(values) {
			return "", nil, fmt.Errorf("%s needs more path values than %q", route, values)
		}
		segments[i] = values[len(params)]
		params = append(params, kv{strings.TrimSuffix(name, "}"), values[len(params)]})
	}
	if len(params) != len(values) {
		return "", nil, fmt.Errorf("%s takes %d path values, not %q", route, len(params), values)
	}
	return strings.Join(segments, "/"), params, nil
}

// events makes one event per operation of the operations table, in its
// order, and the sam local environment.
func events() ([]file, error) {
	byOp := map[string]sampleRequest{}
	for _, s := range samples() {
		if _, dup := byOp[s.op.ID()]; dup {
			return nil, fmt.Errorf("%s has two sample requests", s.op.ID())
		}
		byOp[s.op.ID()] = s
	}
	var files []file
	for i, op := range operations.All {
		s, ok := byOp[op.ID()]
		if !ok {
			return nil, fmt.Errorf("%s has no sample request: add one to samples in internal/demo/gen/events.go", op.ID())
		}
		delete(byOp, op.ID())
		ev, err := s.event(i + 1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op.ID(), err)
		}
		text, err := jsonFile(ev)
		if err != nil {
			return nil, err
		}
		files = append(files, file{"events/" + s.op.Area + "/" + s.name + ".json", text})
	}
	for id := range byOp {
		return nil, fmt.Errorf("%s has a sample request but is not in operations.All", id)
	}
	portal, err := jsonFile(portalEvent(len(operations.All) + 1))
	if err != nil {
		return nil, err
	}
	files = append(files, file{"events/portal/sign-in-page.json", portal})
	// sam local's environment: the local engine, as `make run` starts it.
	env, err := jsonFile(map[string]obj{"Parameters": {
		{"DYNAMODB_ENDPOINT", "http://host.docker.internal:4567"},
		{"TABLE_NAME", "platform"},
		{"AWS_REGION", "us-east-1"},
		{"AWS_ACCESS_KEY_ID", "local"},
		{"AWS_SECRET_ACCESS_KEY", "local"},
		{"LOG_LEVEL", "DEBUG"},
		// No KMS key locally: the voice-AI function seals with a key file
		// of its container's instead.
		{"SECRETS_KEY_ID", ""},
		{"SECRETS_LOCAL_KEY_FILE", "/tmp/platform-secrets.key"},
	}})
	if err != nil {
		return nil, err
	}
	return append(files, file{"events/env.json", env}), nil
}
