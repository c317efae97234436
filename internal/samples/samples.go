// Package samples holds one request per operation that succeeds once on a
// freshly loaded demo dataset, and what each of its inputs is. They are
// written in the contract, api/openapi.yaml: each operation's x-sample
// (path, query, status, what it answers, and what the schemas cannot say
// of its inputs) and its request body's example. The kind of each input
// and whether it may be left out come from the operation's schemas. From
// them:
//
//   - go generate ./... writes the sample events
//     (events/<area>/<name>.json) and docs/api.md's example calls;
//   - the bad-input battery (internal/hardening) breaks every input of each
//     request in every way its kind allows, and then sends the request
//     itself, which must succeed.
//
// A new operation writes its x-sample (docs/areas.md, Adding an operation).
package samples

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/shared/operations"
)

// Kind is what an input holds, which decides how the battery breaks it.
type Kind int

// The kinds of input.
const (
	Text    Kind = iota // free text
	ID                  // an id: letters, digits, '_' and '-'
	HexID               // a 24-character hexadecimal id
	Enum                // one of a fixed set of words
	Number              // a JSON number (or a query number)
	Integer             // a whole number
	Boolean             // true or false
	Date                // YYYY-MM-DD (query)
	IntText             // a whole number written as a JSON string ("25")
	WebURL              // an absolute http(s) URL
)

// Request is an operation's sample request, sent with the demo token of
// Alpha that the operation takes (Token), and what its inputs are.
type Request struct {
	Op operations.Operation
	// Path is the request's path: the operation's, its {names} filled with
	// demo records.
	Path string
	// Query is the raw query string (parameters in order), Body the JSON
	// body, compact; "" when there is none.
	Query string
	Body  string
	// Status is the request's answer on a freshly loaded demo dataset, and
	// Answer says what comes with it (docs/api.md shows it).
	Status int
	Answer string

	// Kinds gives the kind of inputs, as their schemas state it or the
	// x-sample's kinds where a schema cannot (a pattern that is a list of
	// words): body paths with [] for any index ("items[].priceId"), "?name"
	// for query parameters, "{name}" for path values (ID by default). An
	// input without one is of its JSON type's kind.
	Kinds map[string]Kind
	// Optional inputs may be left out (the schema does not require them,
	// or the x-sample says so); the battery does not remove them (or, for
	// query parameters, send them empty).
	Optional []string
	// StrictNull operations tell null from absence: their optional body
	// values refuse null unless listed in Nullable. (Elsewhere null is
	// absence, so optional values accept it.)
	StrictNull bool
	Nullable   []string
}

// Token is the demo token the request is sent with: Alpha's, of the kind
// the operation takes.
func (r Request) Token() demo.Token {
	if r.Op.MarketplaceOnly {
		return demo.Tokens[1]
	}
	return demo.Tokens[0]
}

// PathValues are the values of the operation's {names} in Path, in order.
func (r Request) PathValues() ([][2]string, error) {
	route, path := strings.Split(r.Op.Path, "/"), strings.Split(r.Path, "/")
	if len(route) != len(path) {
		return nil, fmt.Errorf("%s: the path %s does not fit the route", r.Op.ID(), r.Path)
	}
	var values [][2]string
	for i, seg := range route {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			values = append(values, [2]string{strings.TrimSuffix(name, "}"), path[i]})
		} else if seg != path[i] {
			return nil, fmt.Errorf("%s: the path %s does not fit the route", r.Op.ID(), r.Path)
		}
	}
	return values, nil
}

// QueryParams are the query string's parameters, decoded, in order.
func (r Request) QueryParams() ([][2]string, error) {
	var params [][2]string
	if r.Query == "" {
		return nil, nil
	}
	for _, part := range strings.Split(r.Query, "&") {
		name, value, _ := strings.Cut(part, "=")
		n, err := url.QueryUnescape(name)
		if err != nil {
			return nil, fmt.Errorf("%s: query %q: %w", r.Op.ID(), r.Query, err)
		}
		v, err := url.QueryUnescape(value)
		if err != nil {
			return nil, fmt.Errorf("%s: query %q: %w", r.Op.ID(), r.Query, err)
		}
		params = append(params, [2]string{n, v})
	}
	return params, nil
}

// Of returns op's sample request.
func Of(op operations.Operation) (Request, bool) {
	for _, r := range All {
		if r.Op == op {
			return r, true
		}
	}
	return Request{}, false
}
