package request

import (
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
	"net/http"
)

// Body decodes r's JSON body into a B and runs check on it, which records
// the violations of the body's own rules in v and returns the account the
// body names; then it requires access to that account.
func Body[B any](r *http.Request, check func(req *B, v *validate.Errors) (accountID *string)) (*B, *auth.Principal, error) {
	req := new(B)
	if err := httpio.DecodeJSON(r, req); err != nil {
		return nil, nil, err
	}
	var v validate.Errors
	p, err := admit(r, &v, check(req, &v))
	if err != nil {
		return nil, nil, err
	}
	return req, p, nil
}

// Query reads r's query string with parse, which records the violations of
// its rules in v and returns the request and the account it names; then it
// requires access to that account.
func Query[Q any](r *http.Request, parse func(q httpio.Query, v *validate.Errors) (req Q, accountID *string)) (Q, *auth.Principal, error) {
	var v validate.Errors
	req, account := parse(httpio.NewQuery(r, &v), &v)
	p, err := admit(r, &v, account)
	if err != nil {
		var none Q
		return none, nil, err
	}
	return req, p, nil
}

// admit answers the violations in v, if any, and otherwise the caller's
// access to accountID. A nil accountID (the request names no account, where
// naming one is optional) is the token's own account: a request that must
// name one and does not has a violation in v already.
func admit(r *http.Request, v *validate.Errors, accountID *string) (*auth.Principal, error) {
	if err := v.Err(); err != nil {
		return nil, err
	}
	if accountID == nil {
		return auth.PrincipalFrom(r.Context())
	}
	return auth.RequireAccount(r.Context(), *accountID)
}
