// Command events writes the sample events: events/<area>/<name>.json, one
// API Gateway HTTP API (payload 2.0) event per operation, the portal's
// sign-in page event, and events/env.json for sam local; it removes the
// event files no operation makes any more. go generate ./... runs it.
package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/bizplatform/api/internal/gen"
	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/shared/operations"
)

// The sample events: events/<area>/<name>.json, one API Gateway HTTP API
// (payload 2.0) event per operation, for `sam local invoke <Function> -e
// <file>` and for the packaging test, which feeds each to the real function
// binary against the demo dataset. Each is the operation's sample request
// (internal/samples), which succeeds once on a freshly loaded demo dataset,
// with the documented local demo token it takes (which exists only in local
// engines). Its file and request id come from the operation's name, so that
// a new operation adds one event and changes no other.

type apiEvent struct {
	Version         string         `json:"version"`
	RouteKey        string         `json:"routeKey"`
	RawPath         string         `json:"rawPath"`
	RawQueryString  string         `json:"rawQueryString"`
	Headers         eventHeaders   `json:"headers"`
	Query           gen.Obj        `json:"queryStringParameters,omitempty"`
	PathParameters  gen.Obj        `json:"pathParameters,omitempty"`
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

// eventTime is when every sample event was sent (requestContext.time).
const eventTime, eventTimeEpoch = "21/Nov/2026:09:30:00 +0000", 1795253400000

// sampleEvent is the event of an operation's sample request.
func sampleEvent(s samples.Request) (apiEvent, error) {
	values, err := s.PathValues()
	if err != nil {
		return apiEvent{}, err
	}
	params, err := s.QueryParams()
	if err != nil {
		return apiEvent{}, err
	}
	ev := apiEvent{
		Version:        "2.0",
		RouteKey:       s.Op.ID(),
		RawPath:        s.Path,
		RawQueryString: s.Query,
		Headers: eventHeaders{
			Accept:         "application/json",
			Authorization:  "Bearer " + s.Token().Value(),
			Host:           apiDomain,
			UserAgent:      userAgent,
			Version:        "2021-07-28",
			ForwardedFor:   clientIP,
			ForwardedPort:  "443",
			ForwardedProto: "https",
		},
		Query:          pairs(params),
		PathParameters: pairs(values),
		RequestContext: requestContext{
			AccountID:    "123456789012",
			APIID:        apiID,
			DomainName:   apiDomain,
			DomainPrefix: apiID,
			HTTP:         httpContext{Method: s.Op.Method, Path: s.Path, Protocol: "HTTP/1.1", SourceIP: clientIP, UserAgent: userAgent},
			RequestID:    "Evt" + s.Op.Name + "=",
			RouteKey:     s.Op.ID(),
			Stage:        "$default",
			Time:         eventTime,
			TimeEpoch:    eventTimeEpoch,
		},
	}
	if s.Body != "" {
		ev.Headers.ContentType = "application/json"
		ev.Body = s.Body
	}
	return ev, nil
}

// pairs is a JSON object of name-value pairs, in order; nil when empty.
func pairs(ps [][2]string) gen.Obj {
	var o gen.Obj
	for _, p := range ps {
		o = append(o, gen.KV{p[0], p[1]})
	}
	return o
}

// eventFile is the file of op's sample event: its name in kebab case
// (UpdateMedia: events/medias/update-media.json).
func eventFile(op operations.Operation) string {
	var b strings.Builder
	for i, r := range op.Name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return "events/" + op.Area + "/" + b.String() + ".json"
}

// portalEvent is a browser asking the portal function for its sign-in page
// (sam local invoke PortalFunction): the portal serves pages, not
// operations, so it has no entry in the operations table.
func portalEvent() apiEvent {
	const route, path, browser = "ANY /portal/{proxy+}", "/portal/sign-in", "Mozilla/5.0"
	return apiEvent{
		Version:  "2.0",
		RouteKey: route,
		RawPath:  path,
		Headers: eventHeaders{
			Accept: "text/html", Host: apiDomain, UserAgent: browser,
			ForwardedFor: clientIP, ForwardedPort: "443", ForwardedProto: "https",
		},
		PathParameters: gen.Obj{{"proxy", "sign-in"}},
		RequestContext: requestContext{
			AccountID:    "123456789012",
			APIID:        apiID,
			DomainName:   apiDomain,
			DomainPrefix: apiID,
			HTTP:         httpContext{Method: "GET", Path: path, Protocol: "HTTP/1.1", SourceIP: clientIP, UserAgent: browser},
			RequestID:    "EvtPortalSignIn=",
			RouteKey:     route,
			Stage:        "$default",
			Time:         eventTime,
			TimeEpoch:    eventTimeEpoch,
		},
	}
}

func main() { gen.Main("events", func(string) ([]gen.File, error) { return events() }, staleEvents) }

// events makes one event per operation of the operations table, the
// portal's, and the sam local environment.
func events() ([]gen.File, error) {
	var files []gen.File
	for _, op := range operations.All {
		s, ok := samples.Of(op)
		if !ok {
			return nil, fmt.Errorf("%s has no sample request: write its x-sample in api/openapi.yaml", op.ID())
		}
		ev, err := sampleEvent(s)
		if err != nil {
			return nil, err
		}
		text, err := gen.JSONFile(ev)
		if err != nil {
			return nil, err
		}
		files = append(files, gen.File{Path: eventFile(op), Content: text})
	}
	portal, err := gen.JSONFile(portalEvent())
	if err != nil {
		return nil, err
	}
	files = append(files, gen.File{Path: "events/portal/sign-in-page.json", Content: portal})
	// sam local's environment: the local engine, as `make run` starts it.
	env, err := gen.JSONFile(map[string]gen.Obj{"Parameters": {
		{"DYNAMODB_ENDPOINT", "http://host.docker.internal:4567"},
		{"TABLE_NAME", "platform"},
		{"AWS_REGION", "us-east-1"},
		{"AWS_ACCESS_KEY_ID", "local"},
		{"AWS_SECRET_ACCESS_KEY", "local"},
		{"LOG_LEVEL", "DEBUG"},
		// No KMS key locally: the functions that keep secrets (voice-AI,
		// the portal, the deliverer) seal with a key file of their
		// container's instead.
		{"SECRETS_KEY_ID", ""},
		{"SECRETS_LOCAL_KEY_FILE", "/tmp/platform-secrets.key"},
	}})
	if err != nil {
		return nil, err
	}
	return append(files, gen.File{Path: "events/env.json", Content: env}), nil
}

// staleEvents lists the event files under root/events that events no
// longer makes (an operation's sample renamed or removed).
func staleEvents(root string, files []gen.File) ([]string, error) {
	made := map[string]bool{}
	for _, f := range files {
		made[f.Path] = true
	}
	found, err := filepath.Glob(filepath.Join(root, "events", "*", "*.json"))
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, name := range found {
		rel, err := filepath.Rel(root, name)
		if err != nil {
			return nil, err
		}
		if rel = filepath.ToSlash(rel); !made[rel] {
			stale = append(stale, rel)
		}
	}
	return stale, nil
}
