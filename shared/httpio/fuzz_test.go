package httpio_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// sample has a field of every kind the areas' requests use.
type sample struct {
	Name  *string  `json:"name"`
	Count *int     `json:"count"`
	Price *float64 `json:"price"`
	On    *bool    `json:"on"`
	Tags  []string `json:"tags"`
	Items []struct {
		ID  string `json:"id"`
		Qty int64  `json:"qty"`
	} `json:"items"`
	Params json.RawMessage `json:"params"`
}

type params struct {
	Mode  string         `json:"mode"`
	Extra map[string]any `json:"extra"`
}

// requireClientError checks that err is a 400 or 422 whose JSON body is the
// API's error shape.
func requireClientError(t *testing.T, err error) {
	t.Helper()
	e, ok := apierror.As(err)
	require.True(t, ok, "not an API error: %v", err)
	require.Contains(t, []apierror.Code{apierror.CodeBadRequest, apierror.CodeValidation}, e.Code, "%v", err)
	rec := httptest.NewRecorder()
	rec.Header().Set("X-Request-Id", "req-1") // as the pipeline sets it first
	apierror.Write(rec, err)
	require.Contains(t, []int{400, 422}, rec.Code)
	assert.Empty(t, testenv.CheckErrorBody(rec.Code, rec.Header(), rec.Body.Bytes()))
}

// FuzzDecodeJSON feeds arbitrary bodies to the strict JSON decoder and the
// nested-value decoder: no panic; a refusal is a 400/422 with the JSON error
// body; an acceptance is one valid JSON object.
func FuzzDecodeJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest("POST", "/", bytes.NewReader(body))
		var dst sample
		if err := httpio.DecodeJSON(r, &dst); err != nil {
			requireClientError(t, err)
			return
		}
		require.True(t, json.Valid(body), "accepted a body that is not JSON: %q", body)
		require.Equal(t, byte('{'), bytes.TrimSpace(body)[0])
		if len(dst.Params) > 0 {
			var p params
			if err := httpio.DecodeValue(dst.Params, "params", &p); err != nil {
				requireClientError(t, err)
			}
		}
	})
}

// FuzzQuery feeds arbitrary query strings to the query reader: no panic;
// values it accepts meet their rules (ids safe for keys, numbers in range).
func FuzzQuery(f *testing.F) {
	f.Fuzz(func(t *testing.T, raw string) {
		r := &http.Request{Method: "GET", URL: &url.URL{Path: "/", RawQuery: raw}}
		var v validate.Errors
		q := httpio.NewQuery(r, &v)
		_ = q.String("name")
		id := q.RequiredID("id")
		limit := q.Int("limit", 20, 1, 100)
		_ = q.Bool("flag", false)
		if err := v.Err(); err != nil {
			requireClientError(t, err)
			return
		}
		assert.Empty(t, validate.IDProblem("id", id), "an accepted id is safe for a key: %q", id)
		assert.True(t, limit >= 1 && limit <= 100, "limit %d", limit)
	})
}
