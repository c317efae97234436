// Package httpio reads requests and writes JSON answers the same way in every
// area: strict JSON bodies whose errors name the field, and typed query
// values (areas read them through areas/internal/request, with their path
// ids).
package httpio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"

	"github.com/bizplatform/api/shared/apierror"
)

// WriteJSON answers v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// DecodeJSON decodes the request body, which must be one JSON object, into
// dst. Unknown or repeated properties (a name is known only when it is
// exactly, case included, a name dst's type declares, at any depth), values
// of the wrong type, control
// characters and out-of-range numbers are validation failures naming the
// property; a missing or malformed body (bad syntax, not UTF-8, nested too
// deeply, trailing data) is a bad request.
func DecodeJSON(r *http.Request, dst any) error {
	if r.Body == nil {
		return apierror.BadRequest("A JSON request body is required")
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return readError(err)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return apierror.BadRequest("A JSON request body is required")
	}
	if first := bytes.TrimSpace(raw)[0]; first != '{' {
		return apierror.BadRequest("The request body must be a JSON object")
	}
	if err := scanJSON(raw, "", shapeOf(reflect.TypeOf(dst))); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if dec.More() {
		return apierror.BadRequest("The request body must hold exactly one JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return apierror.BadRequest("The request body must hold exactly one JSON object")
	}
	return nil
}

// DecodeValue strictly decodes a nested JSON value (kept as
// json.RawMessage by the outer decode) into dst. Errors name the value by
// its path: field is the path of raw itself ("actionParameters"), so an
// unknown property reads "property actionParameters.foo should not exist".
// raw comes from a body DecodeJSON has already scanned (repeated properties,
// depth, UTF-8, control characters); what is scanned again is that every
// property name is exactly one dst's type declares.
func DecodeValue(raw json.RawMessage, field string, dst any) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return apierror.Invalid(field + " is required")
	}
	if want := shapeOf(reflect.TypeOf(dst)); want != nil {
		if err := checkNames(trimmed, field, want); err != nil {
			return err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return apierror.Invalid(fmt.Sprintf("%s must be %s", field, describeType(typeErr.Type.String())))
		}
		return apierror.Invalid(fmt.Sprintf("%s.%s must be %s", field, typeErr.Field, describeType(typeErr.Type.String())))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return apierror.Invalid(fmt.Sprintf("property %s.%s should not exist", field, name))
	default:
		return apierror.Invalid(field + " is not valid JSON")
	}
}

func readError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return &apierror.Error{Code: apierror.CodePayloadTooLarge, Message: fmt.Sprintf("The request body exceeds %d bytes", tooBig.Limit)}
	}
	return apierror.BadRequest("The request body could not be read")
}

func decodeError(err error) error {
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntaxErr):
		return apierror.BadRequest("The request body is malformed JSON (at byte %d)", syntaxErr.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return apierror.BadRequest("The request body is malformed JSON (it ends too early)")
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			return apierror.BadRequest("The request body must be a JSON object")
		}
		return apierror.Invalid(fmt.Sprintf("%s must be %s", field, describeType(typeErr.Type.String())))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return apierror.Invalid(fmt.Sprintf("property %s should not exist", name))
	default:
		return readError(err)
	}
}

// describeType names a Go type the way a JSON client thinks of it.
func describeType(goType string) string {
	t := strings.TrimLeft(goType, "*")
	switch {
	case t == "string":
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer"
	case strings.HasPrefix(t, "float"), t == "json.Number":
		return "a number"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case strings.HasPrefix(t, "map["), strings.Contains(t, "."):
		return "an object"
	default:
		return "of type " + t
	}
}
