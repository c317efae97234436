package store

import (
	"encoding/json"
	"errors"
	"reflect"
)

// field is one property of a partial-update body: whether it was sent,
// whether it was null, and its value. A pointer cannot tell a missing
// property from null, and here null means something: "no minimum" for
// minCondition, "remove" for the carrier fields.
type field[T any] struct {
	Set  bool
	Null bool
	V    T
}

// UnmarshalJSON records that the property was sent. A value of the wrong
// type is reported as T's type, so the error reads "amount must be a number".
func (f *field[T]) UnmarshalJSON(b []byte) error {
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

// value returns the value when one (not null) was sent.
func (f field[T]) value() (T, bool) { return f.V, f.Set && !f.Null }
