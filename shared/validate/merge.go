package validate

import "github.com/bizplatform/api/shared/apierror"

// Merge records the violations err carries: a validation error's (such as
// httpio.DecodeValue returns for one element of a list) are added one by
// one, a malformed-request error's message becomes a Malformed problem, and
// any other error is added by its message.
func (e *Errors) Merge(err error) {
	a, ok := apierror.As(err)
	switch {
	case err == nil:
	case ok && a.Code == apierror.CodeValidation:
		e.list = append(e.list, a.Violations...)
	case ok && a.Code == apierror.CodeBadRequest:
		e.Malformed(a.Message)
	case ok:
		e.Add(a.Message)
	default:
		e.Add(err.Error())
	}
}
