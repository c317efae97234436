package httpio

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bizplatform/api/shared/validate"
)

// Query reads query parameters, collecting every problem into a
// validate.Errors so one answer names all of them.
type Query struct {
	values map[string][]string
	errs   *validate.Errors
}

// NewQuery reads r's query string, reporting problems into errs. A query
// string that cannot be read reliably is malformed (400, naming the
// parameter): a bad percent-escape, a parameter given more than once (which
// value would count?), a value that is not UTF-8 or holds control
// characters.
func NewQuery(r *http.Request, errs *validate.Errors) Query {
	values, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		errs.Malformed("The query string is malformed: " + clip(err.Error()))
	}
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		vs := values[name]
		shown := clip(name)
		if msg := valueProblem([]string{name}); msg != "" {
			shown = strconv.QuoteToASCII(shown)
			errs.Malformed("The query parameter name " + shown + msg)
		}
		if len(vs) > 1 {
			errs.Malformed(fmt.Sprintf("%s is given %d times: give each query parameter once", shown, len(vs)))
		}
		if msg := valueProblem(vs); msg != "" {
			errs.Malformed(shown + msg)
		}
	}
	return Query{values: values, errs: errs}
}

// valueProblem tells what makes one of a parameter's values unreadable, as
// the end of a sentence that starts with its name ("" when nothing does).
func valueProblem(vs []string) string {
	for _, v := range vs {
		switch {
		case !utf8.ValidString(v):
			return " is not valid UTF-8 text"
		case HasForbiddenControl(v):
			return " must not contain control characters"
		}
	}
	return ""
}

// Has reports whether the parameter is present (even if empty).
func (q Query) Has(name string) bool {
	_, ok := q.values[name]
	return ok
}

// String returns the parameter's value, "" when absent. (A parameter given
// more than once was reported by NewQuery.)
func (q Query) String(name string) string {
	vs := q.values[name]
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// Required returns the parameter's value and records a violation when it is
// absent or blank.
func (q Query) Required(name string) string {
	v := q.String(name)
	if strings.TrimSpace(v) == "" {
		q.errs.Add(fmt.Sprintf("%s is required", name))
	}
	return v
}

// OneOf returns a required enumerated parameter's value and records a
// violation, naming the allowed values, when it is absent, blank or not
// one of them.
func (q Query) OneOf(name string, allowed ...string) string {
	v := q.String(name)
	q.errs.RequiredOneOf(name, &v, allowed...)
	return v
}

// RequiredID returns the parameter and records a violation when it is absent
// or not a well-formed id (so it can safely become part of a storage key).
func (q Query) RequiredID(name string) string {
	v := q.Required(name)
	if strings.TrimSpace(v) != "" {
		if msg := validate.IDProblem(name, v); msg != "" {
			q.errs.Add(msg)
		}
	}
	return v
}

// Int returns the parameter as an integer in [min, max], or def when absent.
func (q Query) Int(name string, def, min, max int) int {
	v := q.String(name)
	if v == "" {
		if q.Has(name) {
			q.errs.Add(fmt.Sprintf("%s must be an integer", name))
		}
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		q.errs.Add(fmt.Sprintf("%s must be an integer", name))
		return def
	}
	if n < min || n > max {
		q.errs.Add(fmt.Sprintf("%s must be between %d and %d", name, min, max))
		return def
	}
	return n
}

// Bool returns the parameter as a boolean ("true" or "false"), or def when
// absent.
func (q Query) Bool(name string, def bool) bool {
	switch v := q.String(name); v {
	case "":
		if q.Has(name) {
			q.errs.Add(fmt.Sprintf("%s must be true or false", name))
		}
		return def
	case "true":
		return true
	case "false":
		return false
	default:
		q.errs.Add(fmt.Sprintf("%s must be true or false", name))
		return def
	}
}
