package httpio

import (
	"encoding/json"
	"errors"
	"reflect"
)

// Field is one property of a partial-update body: whether it was sent,
// whether it was null, and its value. A pointer cannot tell a missing
// property from null, and in an update null means something: "remove this
// optional value" (a shipping rate's minimum, a task's assignee), where a
// missing property leaves the stored value as it is.
type Field[T any] struct {
	Set  bool
	Null bool
	V    T
}

// UnmarshalJSON records that the property was sent. A value of the wrong
// type is reported as T's type, so the error reads "amount must be a number".
func (f *Field[T]) UnmarshalJSON(b []byte) error {
	f.Set = true
	if string(b) == "null" {
		f.Null = true
		return nil
	}
	if err := json.Unmarshal(b, &f.V); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return &json.UnmarshalTypeError{Value: typeErr.Value, Type: reflect.TypeFor[T](), Offset: typeErr.Offset}
		}
		return err
	}
	return nil
}

// Value returns the value when one (not null) was sent.
func (f Field[T]) Value() (T, bool) { return f.V, f.Set && !f.Null }
