package samples

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/operations"
)

func TestEveryOperationHasOneSampleInTheOrderOfTheOperationsTable(t *testing.T) {
	var want, got []string
	for _, op := range operations.All {
		want = append(want, op.ID())
	}
	for _, r := range All {
		got = append(got, r.Op.ID())
	}
	assert.Equal(t, want, got, "the operations of the samples are operations.All, in order")
}

func TestEverySampleIsARequestItsOperationTakes(t *testing.T) {
	for _, r := range All {
		t.Run(r.Op.ID(), func(t *testing.T) {
			values, err := r.PathValues()
			require.NoError(t, err)
			params, err := r.QueryParams()
			require.NoError(t, err)
			assert.True(t, r.Status >= 200 && r.Status < 300, "it succeeds")
			assert.NotEmpty(t, r.Answer, "docs/api.md says what it answers")
			if r.Op.TakesBody() {
				var compact bytes.Buffer
				require.NoError(t, json.Compact(&compact, []byte(r.Body)), "the body is JSON")
				assert.Equal(t, compact.String(), r.Body, "the body is written compact, as it is sent")
			} else {
				assert.Empty(t, r.Body, "the operation takes no body")
			}

			inputs := map[string]bool{}
			for _, v := range values {
				inputs["{"+v[0]+"}"] = true
			}
			for _, p := range params {
				inputs["?"+p[0]] = true
			}
			if r.Body != "" {
				var body any
				require.NoError(t, json.Unmarshal([]byte(r.Body), &body))
				bodyInputs("", body, inputs)
			}
			for _, name := range append(slices.Collect(maps.Keys(r.Kinds)), append(r.Optional, r.Nullable...)...) {
				assert.True(t, inputs[name], "%s names an input the request has (%v)", name, slices.Sorted(maps.Keys(inputs)))
			}
		})
	}
}

// bodyInputs adds the paths of v's values, every index written [].
func bodyInputs(path string, v any, out map[string]bool) {
	if path != "" {
		out[path] = true
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			bodyInputs(strings.TrimPrefix(path+"."+k, "."), e, out)
		}
	case []any:
		for _, e := range x {
			bodyInputs(path+"[]", e, out)
		}
	}
}

func TestPathValuesAreTheRoutesNamesFilledInOrder(t *testing.T) {
	for _, c := range []struct {
		name   string
		op     operations.Operation
		path   string
		values [][2]string
		fits   bool
	}{
		{"a route without names has no value", operations.DeleteCoupon, "/payments/coupon", nil, true},
		{"two names have two values in order", operations.DeleteTask, "/contacts/c1/tasks/t1",
			[][2]string{{"contactId", "c1"}, {"taskId", "t1"}}, true},
		{"a path with a segment too few does not fit", operations.DeleteTask, "/contacts/c1/tasks", nil, false},
		{"a path with another literal segment does not fit", operations.DeleteTask, "/contacts/c1/notes/t1", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			values, err := Request{Op: c.op, Path: c.path}.PathValues()
			if !c.fits {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.values, values)
		})
	}
}

func TestQueryParamsAreDecodedInOrder(t *testing.T) {
	params, err := Request{Query: "b=2&a=x%20y&c="}.QueryParams()
	require.NoError(t, err)
	assert.Equal(t, [][2]string{{"b", "2"}, {"a", "x y"}, {"c", ""}}, params)

	_, err = Request{Query: "a=%zz"}.QueryParams()
	assert.Error(t, err, "a malformed escape is refused")
}

func TestAMarketplaceOnlyOperationsSampleCarriesTheMarketplaceToken(t *testing.T) {
	for _, r := range All {
		assert.Equal(t, r.Op.MarketplaceOnly, r.Token().Kind == "marketplace", r.Op.ID())
		assert.Equal(t, "demoLocAlpha00000001", r.Token().Account, r.Op.ID())
	}
}
