package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/bizplatform/api/shared/apierror"
)

// RecordError is a dataset record a seed refuses. It names the record by
// its list in the dataset file, its place in that list (from 0) and its id
// when it has one, then says which field is wrong and why:
// "contacts[3] (id demoCtc1): dateAdded must be an RFC 3339 time". A record
// of a record's list (a contact's tasks) is named after its owner:
// "contacts[3] (id demoCtc1): tasks[0]: id is required".
type RecordError struct {
	List  string
	Index int
	ID    string
	Err   error
}

func (e *RecordError) Error() string {
	name := fmt.Sprintf("%s[%d]", e.List, e.Index)
	if e.ID != "" {
		name += " (id " + e.ID + ")"
	}
	return name + ": " + problems(e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// problems is what err says is wrong, a validation error's violations
// joined ("name is required; status must be one of: a, b"). A refusal of a
// record inside the record says so itself.
func problems(err error) string {
	if ae, ok := err.(*apierror.Error); ok && ae.Code == apierror.CodeValidation {
		return strings.Join(ae.Violations, "; ")
	}
	return err.Error()
}

// CheckRecords checks the records of the dataset list named list, in order,
// with check (which may also fill in the fields left out), and refuses a
// record whose id another record of the same account has (the second write
// would silently replace the first). keyOf names a record's account ("" for
// records of no account) and id.
// The first refusal is a *RecordError.
func CheckRecords[T any](list string, records []T, keyOf func(*T) (account, id string), check func(*T) error) error {
	first := map[[2]string]int{}
	for i := range records {
		r := &records[i]
		account, id := keyOf(r)
		if err := check(r); err != nil {
			return &RecordError{List: list, Index: i, ID: id, Err: err}
		}
		if id == "" {
			continue
		}
		if j, taken := first[[2]string{account, id}]; taken {
			where := ""
			if account != "" {
				where = " in account " + account
			}
			return &RecordError{List: list, Index: i, ID: id, Err: fmt.Errorf("id is taken by %s[%d]%s", list, j, where)}
		}
		first[[2]string{account, id}] = i
	}
	return nil
}

// locateDecodeError finds the record of raw (an area's part of a dataset,
// {"<list>": [records...], ...}) that does not decode into its list's
// records in dst's type (a struct of such lists), and returns its refusal
// (a *RecordError naming the field). It returns err when no single record
// is to blame.
func locateDecodeError(raw json.RawMessage, dst any, err error) error {
	var lists map[string]json.RawMessage
	t := reflect.TypeOf(dst).Elem()
	if json.Unmarshal(raw, &lists) != nil || t.Kind() != reflect.Struct {
		return err
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		value, ok := lists[name]
		if !ok || f.Type.Kind() != reflect.Slice {
			continue
		}
		var records []json.RawMessage
		if json.Unmarshal(value, &records) != nil {
			return fmt.Errorf("%s must be a list of records", name)
		}
		for j, rec := range records {
			if err := DecodeRecord(rec, reflect.New(f.Type.Elem()).Interface()); err != nil {
				return &RecordError{List: name, Index: j, ID: idOf(rec), Err: err}
			}
		}
	}
	return err
}

// DecodeRecord decodes one record of a dataset into dst strictly, and says
// what is wrong in the file's words: the field and what it must be.
func DecodeRecord(raw json.RawMessage, dst any) error {
	if err := decodeStrictly(raw, dst); err != nil {
		return fieldProblem(err)
	}
	return nil
}

func decodeStrictly(raw json.RawMessage, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(dst)
}

// idOf is a record's id, under either name the records use ("id", "_id").
func idOf(raw json.RawMessage) string {
	var ids struct {
		ID  any `json:"id"`
		OID any `json:"_id"`
	}
	_ = json.Unmarshal(raw, &ids)
	for _, id := range []any{ids.ID, ids.OID} {
		if s, ok := id.(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// fieldProblem says, in the dataset file's words, what a decoding error of
// one record found: the field and what it must be.
func fieldProblem(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// The path names embedded structs by their Go type (Contact.tags);
		// the file knows only the JSON names, which start in lower case.
		var path []string
		for part := range strings.SplitSeq(te.Field, ".") {
			if part != "" && (part[0] < 'A' || part[0] > 'Z') {
				path = append(path, part)
			}
		}
		return fmt.Errorf("%s must be %s, not %s", strings.Join(path, "."), jsonKind(te.Type), te.Value)
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// jsonKind names the JSON values a Go type takes.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	default:
		return "an object"
	}
}
