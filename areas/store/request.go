package store

import (
	"errors"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// What the store's updates share: the optional altId/altType, and the
// answer's envelope.

// altFields are the optional altId/altType of a store body. When present
// they must name the caller's account and be "account" (or "location", its
// public platform name).
type altFields struct {
	AltID   httpio.Field[string] `json:"altId"`
	AltType httpio.Field[string] `json:"altType"`
}

// check records altId/altType violations.
func (a altFields) check(v *validate.Errors) {
	if a.AltID.Set {
		if id, ok := a.AltID.Value(); !ok {
			v.Add("altId must be a string")
		} else {
			v.ID("altId", id)
		}
	}
	if a.AltType.Set {
		if t, ok := a.AltType.Value(); !ok {
			v.Add("altType must be a string")
		} else {
			v.OneOf("altType", validate.NormalAltType(t), validate.AltType)
		}
	}
}

// account is the account altId names, nil when the body names none: then
// the update acts on the token's own.
func (a altFields) account() *string {
	if id, ok := a.AltID.Value(); ok {
		return &id
	}
	return nil
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
