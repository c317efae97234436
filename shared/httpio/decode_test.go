package httpio

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/validate"
)

type sample struct {
	Name  *string   `json:"name"`
	Count *float64  `json:"count"`
	Tags  *[]string `json:"tags"`
	Inner *struct {
		Label *string `json:"label"`
	} `json:"inner"`
}

func decode(body string) error {
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	var s sample
	return DecodeJSON(r, &s)
}

func TestDecodeJSONRefusesWhatEncodingJSONWouldLetThrough(t *testing.T) {
	cases := []struct {
		name string
		body string
		code apierror.Code
		want string
	}{
		{"a property given twice", `{"name":"a","name":"b"}`, apierror.CodeValidation, "name is given more than once"},
		{"a nested property given twice", `{"inner":{"label":"a","label":"b"}}`, apierror.CodeValidation, "inner.label is given more than once"},
		{"nesting beyond the bound", `{"tags":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `}`, apierror.CodeBadRequest, "more than 32 levels deep (at tags"},
		{"bytes that are not UTF-8", "{\"name\":\"a\xffb\"}", apierror.CodeBadRequest, "name is not valid UTF-8"},
		{"a lone surrogate escape", `{"tags":["ok","a\ud800"]}`, apierror.CodeBadRequest, "tags[1] is not valid UTF-8"},
		{"a NUL character", `{"name":"a\u0000b"}`, apierror.CodeValidation, "name must not contain control characters (it holds U+0000)"},
		{"a C1 control character", "{\"inner\":{\"label\":\"a\u0085\"}}", apierror.CodeValidation, "inner.label must not contain control characters"},
		{"a number beyond float64", `{"count":1e400}`, apierror.CodeValidation, "count is out of range"},
		{"a number beyond DynamoDB's range", `{"count":-2e125}`, apierror.CodeValidation, "count is out of range"},
		{"a number too small for DynamoDB", `{"count":1e-131}`, apierror.CodeValidation, "count is out of range: numbers other than 0"},
		{"two objects", `{}{}`, apierror.CodeBadRequest, "exactly one JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			err := decode(tc.body)
			require.Error(t, err)
			e, ok := apierror.As(err)
			require.True(t, ok)
			assert.Equal(t, tc.code, e.Code)
			assert.Contains(t, e.Error(), tc.want)
		})
	}
}

func TestDecodeJSONAcceptsOrdinaryText(t *testing.T) {
	for _, body := range []string{
		`{"name":"line one\nline two\ttabbed\r\n"}`,
		`{"name":"caf\u00e9 😀 \ufffd literally"}`,
		`{"name":"` + "\uFFFD" + `"}`,
		`{"tags":["a","a"],"inner":{"label":"x"}}`,
		`{"count":0}`, `{"count":-1e125}`, `{"count":1e-130}`,
		`{"tags":` + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + `}`,
	} {
		err := decode(body)
		if strings.Contains(body, "[[") {
			// Deep but within the bound: refused only for its type.
			assert.Contains(t, err.Error(), "tags must be", body)
			continue
		}
		assert.NoError(t, err, body)
	}
}

func query(raw string) error {
	r := httptest.NewRequest(http.MethodGet, "/x?"+raw, nil)
	var v validate.Errors
	q := NewQuery(r, &v)
	q.String("a")
	return v.Err()
}

func TestQueryStringsThatCannotBeReadReliablyAreBadRequests(t *testing.T) {
	cases := []struct{ name, raw, want string }{
		{"a parameter given twice", "a=1&a=2", "a is given 2 times"},
		{"a malformed escape", "a=%zz", "query string is malformed"},
		{"a semicolon separator", "a=1;b=2", "query string is malformed"},
		{"a value that is not UTF-8", "a=%FF", "a is not valid UTF-8"},
		{"a NUL in a value", "a=x%00", "a must not contain control characters"},
		{"a control character in an unread parameter", "zz=%1B", "zz must not contain control characters"},
		{"a control character in a name", "z%00=1", `name "z\x00" must not contain control characters`},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			err := query(tc.raw)
			require.True(t, apierror.HasCode(err, apierror.CodeBadRequest), "%v", err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	t.Run("ordinary values pass", func(t *testing.T) {
		assert.NoError(t, query("a=caf%C3%A9+x&b=1&c="))
	})
}
