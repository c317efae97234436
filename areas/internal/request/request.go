// Package request reads an operation's request in the order every
// operation answers its problems (docs/areas.md, "Order of checks"). A
// handler reads its path values, its query string and its JSON body, each
// recording the rules it breaks in one validate.Errors, then asks for the
// account the request names, which answers the first of these that fails:
//
//  1. a body that is not one JSON object (400, or 413): nothing else is
//     judged of a request that cannot be read;
//  2. the rules the request decides alone: its path ids, its query
//     parameters, its fields, the rules relating fields it sends together.
//     One answer names every one it breaks, 422 or 400 as the operation says
//     (shared/operations), whatever is stored and whoever asks;
//  3. the account the request names: 403 when it is not the token's.
//
// Only then does the handler look records up (404, or the 422 an operation
// gives a missing record) and check the rules that need a stored record.
//
//	in := request.NewReader(r)
//	actionID := in.ID("actionId")
//	var body updateRequest
//	in.Body(&body, body.check)
//	p, err := in.Account(body.LocationID)
//	if err != nil {
//		return err
//	}
package request

import (
	"context"
	"net/http"
	"strings"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// Reader reads one request. Its reading methods record what is wrong and
// return nothing to check; the last step (Account, Company or TokenAccount)
// answers it all, in the order above.
type Reader struct {
	r *http.Request
	v validate.Errors
	// query is the query string, read on first use.
	query *httpio.Query
	// unreadable is why the body is not one JSON object (nil when it is).
	unreadable error
}

// NewReader starts reading r.
func NewReader(r *http.Request) *Reader { return &Reader{r: r} }

// ID returns the path value name, recording a violation unless it is a
// well-formed id (1 to 64 letters, digits, '_' or '-'), so that it can
// safely become part of a storage key. It returns "" when it is not one.
func (in *Reader) ID(name string) string {
	id := in.r.PathValue(name)
	if !in.v.ID(name, id) {
		return ""
	}
	return id
}

// HexID returns the path value name in lower case, recording a violation
// unless it is a 24-character hexadecimal database id (stored ids are lower
// case, and hexadecimal ids are case-insensitive). It returns "" when it is
// not one.
func (in *Reader) HexID(name string) string {
	id := in.r.PathValue(name)
	if !in.v.Check(validate.IsHexID(id), name+" must be a 24-character hexadecimal id") {
		return ""
	}
	return strings.ToLower(id)
}

// Query returns the query string, whose typed getters record the rules its
// parameters break. A query string that cannot be read reliably (a
// parameter given twice, a bad escape) is malformed: 400, whatever else is
// wrong.
func (in *Reader) Query() httpio.Query {
	if in.query == nil {
		q := httpio.NewQuery(in.r, &in.v)
		in.query = &q
	}
	return *in.query
}

// Errors is where the handler records the rules a query or other request
// values break (v.OneOf, v.Add...), with the others.
func (in *Reader) Errors() *validate.Errors { return &in.v }

// Body decodes the JSON body into dst (a pointer) and runs check on it,
// which records the rules the body breaks. A body that is not one JSON
// object is answered before anything else. A body that is JSON but breaks
// the shape of dst (an unknown or repeated property, a value of the wrong
// type) has those violations recorded instead, and check does not run: the
// values it would judge were not all read.
func (in *Reader) Body(dst any, check func(v *validate.Errors)) {
	err := httpio.DecodeJSON(in.r, dst)
	switch {
	case err == nil:
		check(&in.v)
	case apierror.HasCode(err, apierror.CodeValidation):
		in.v.Merge(err)
	default:
		in.unreadable = err
	}
}

// Account answers what is wrong with the request, if anything, and
// otherwise requires the token to act on the account accountID names: 403
// when it is another. nil is for a request that may name an account and
// names none: it acts on the token's own (a request that must name one and
// does not has broken a rule already).
func (in *Reader) Account(accountID *string) (*auth.Principal, error) {
	return in.admit(accountID, auth.RequireAccount)
}

// Company is Account for an operation that names a company: 403 when it is
// not the company of the token's account.
func (in *Reader) Company(companyID *string) (*auth.Principal, error) {
	return in.admit(companyID, auth.RequireCompany)
}

// TokenAccount is Account for an operation whose request names no account:
// it acts on the token's own, and looks its records up there only.
func (in *Reader) TokenAccount() (*auth.Principal, error) { return in.Account(nil) }

// admit answers what is wrong with the request, then require's answer for
// the id the request names (nil: the token's principal).
func (in *Reader) admit(id *string, require func(context.Context, string) (*auth.Principal, error)) (*auth.Principal, error) {
	if err := in.err(); err != nil {
		return nil, err
	}
	if id == nil {
		return auth.PrincipalFrom(in.r.Context())
	}
	return require(in.r.Context(), *id)
}

// err is the answer to what is wrong with the request: an unreadable body
// first, then every broken rule (a malformed query string before the
// others: see validate.Errors.Err).
func (in *Reader) err() error {
	if in.unreadable != nil {
		return in.unreadable
	}
	return in.v.Err()
}
