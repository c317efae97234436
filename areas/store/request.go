package store

import (
	"errors"
	"net/http"
	"strings"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/validate"
)

// What the store's updates share: path ids, the optional altId/altType, and
// the answer's envelope.

// pathHexID returns the path value name, which must be a 24-character
// hexadecimal id (the format of zone and rate ids), in lower case: stored
// ids are lower case and hexadecimal ids are case-insensitive.
func pathHexID(r *http.Request, name string) (string, error) {
	id := r.PathValue(name)
	if !validate.IsHexID(id) {
		return "", apierror.Invalid(name + " must be a 24-character hexadecimal id")
	}
	return strings.ToLower(id), nil
}

// altFields are the optional altId/altType of a store body. When present
// they must name the caller's account and be "account".
type altFields struct {
	AltID   field[string] `json:"altId"`
	AltType field[string] `json:"altType"`
}

// check records altId/altType violations and returns the altId the body
// names (nil when none).
func (a altFields) check(v *validate.Errors) *string {
	var named *string
	if a.AltID.Set {
		if id, ok := a.AltID.value(); !ok {
			v.Add("altId must be a string")
		} else if v.ID("altId", id) {
			named = &id
		}
	}
	if a.AltType.Set {
		if t, ok := a.AltType.value(); !ok {
			v.Add("altType must be a string")
		} else {
			v.OneOf("altType", t, validate.AltType)
		}
	}
	return named
}

// readUpdate reads a store update in the order every operation answers its
// rules: the path ids (pathIDs, in order) and the body's own rules first,
// then the account the body names (see areas/internal/request). check
// records the body's violations and returns its altId (nil when it names
// none: then it is the token's account).
func readUpdate[B any](r *http.Request, check func(*B, *validate.Errors) *string, pathIDs ...string) ([]string, *B, *auth.Principal, error) {
	ids := make([]string, len(pathIDs))
	for i, name := range pathIDs {
		id, err := pathHexID(r, name)
		if err != nil {
			return nil, nil, nil, err
		}
		ids[i] = id
	}
	body, p, err := request.Body(r, check)
	return ids, body, p, err
}

// updateResponse is the public API's Update*ResponseDto envelope.
type updateResponse[T any] struct {
	Status  bool   `json:"status"`
	Message string `json:"message"`
	Data    T      `json:"data"`
}

// updateError turns an update's ErrNotFound into the operation's 404; other
// errors (rule violations, storage failures) pass through as they are.
func updateError(err error, notFound *apierror.Error) error {
	if errors.Is(err, ErrNotFound) {
		return notFound
	}
	return err
}
