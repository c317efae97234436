package apierror_test

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/bizplatform/api/shared/apierror"
)

// A handler collects every broken field rule into one error (usually through
// validate.Errors) and returns it; the router answers 422 or 400 as the
// operation says, listing each violation.
func ExampleInvalid() {
	err := apierror.Invalid("name is required", "items[2].priceId must be a 24-character hexadecimal id")
	fmt.Println(err)
	// Output: validation: [name is required items[2].priceId must be a 24-character hexadecimal id]
}

// A record the caller's account does not hold is not found, whether it is
// missing or another account's: the message says what was looked for.
func ExampleNotFound() {
	handler := func(w http.ResponseWriter, r *http.Request) error {
		id := r.PathValue("id")
		var found *struct{} // the lookup in the caller's partition found nothing
		if found == nil {
			return apierror.NotFound("Message %s was not found", id)
		}
		return nil
	}
	_ = handler
}

// A failure the client should retry is a 503 with Retry-After; its cause is
// logged, never shown.
func ExampleUnavailable() {
	cause := errors.New("table throttled")
	err := apierror.Unavailable(cause, time.Second)
	fmt.Println(apierror.HasCode(err, apierror.CodeUnavailable), errors.Is(err, cause), err.RetryAfter)
	// Output: true true 1s
}

// As finds the API error in a wrapped error, to read its code or
// violations.
func ExampleAs() {
	err := fmt.Errorf("update zone: %w", apierror.Invalid("minCondition must not exceed maxCondition"))
	if e, ok := apierror.As(err); ok && e.Code == apierror.CodeValidation {
		fmt.Println(e.Violations)
	}
	// Output: [minCondition must not exceed maxCondition]
}
