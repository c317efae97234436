package httpio

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/apierror"
)

// upper decodes itself from any JSON: its names are its own business.
type upper struct{ v string }

func (u *upper) UnmarshalJSON(b []byte) error { u.v = strings.ToUpper(string(b)); return nil }

type base struct {
	Origin  *string `json:"origin"`
	Shadow  *string `json:"shadow"`
	GoNamed *string
}

type named struct {
	base
	AltID  *string `json:"altId"`
	Shadow *string `json:"shadow,omitempty"`
	Secret string  `json:"-"`
	Dash   *string `json:"-,"`
	Items  []struct {
		PriceID *string `json:"priceId"`
	} `json:"items"`
	Grid [][]struct {
		X *int `json:"x"`
	} `json:"grid"`
	Labels map[string]struct {
		Text *string `json:"text"`
	} `json:"labels"`
	Free     map[string]any  `json:"free"`
	Raw      json.RawMessage `json:"raw"`
	Any      any             `json:"any"`
	Custom   *upper          `json:"custom"`
	Next     *named          `json:"next"`
	internal string
}

func decodeNamed(body string) error {
	var n named
	return DecodeJSON(httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body)), &n)
}

func TestDecodeJSONTakesOnlyTheExactNamesTheTypeDeclares(t *testing.T) {
	refused := []struct{ name, body, want string }{
		{"a top-level name in another case", `{"AltId":"x"}`, "property AltId should not exist (names are case-sensitive: did you mean altId?)"},
		{"a name in capitals before the real one", `{"ALTID":"other","altId":"own"}`, "property ALTID should not exist"},
		{"a name in another case inside an array of objects", `{"items":[{"priceId":"a"},{"PriceId":"b"}]}`, "property items[1].PriceId should not exist"},
		{"a name in another case in an array of arrays", `{"grid":[[{"x":1}],[{"X":2}]]}`, "property grid[1][0].X should not exist"},
		{"a name in another case in a map's value", `{"labels":{"Any Key":{"Text":"t"}}}`, "property labels.Any Key.Text should not exist"},
		{"a name in another case in a recursive type", `{"next":{"next":{"altID":"x"}}}`, "property next.next.altID should not exist"},
		{"an embedded struct's name in another case", `{"Origin":"x"}`, "property Origin should not exist"},
		{"a field tagged '-'", `{"Secret":"x"}`, "property Secret should not exist"},
		{"an unexported field's name", `{"internal":"x"}`, "property internal should not exist"},
		{"an untagged field by its name in another case", `{"goNamed":"x"}`, "did you mean GoNamed?"},
		{"a name given twice", `{"altId":"a","altId":"b"}`, "altId is given more than once"},
	}
	t.Run("a malformed value under an unknown name is reported as malformed", func(t *testing.T) {
		err := decodeNamed(`{"Unknown":` + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + `}`)
		assert.True(t, apierror.HasCode(err, apierror.CodeBadRequest), "%v", err)
		assert.Contains(t, err.Error(), "levels deep")
	})
	for _, tc := range refused {
		t.Run(tc.name+" is refused as unknown", func(t *testing.T) {
			err := decodeNamed(tc.body)
			require.Error(t, err)
			assert.True(t, apierror.HasCode(err, apierror.CodeValidation), "%v", err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	accepted := []struct{ name, body string }{
		{"declared names", `{"altId":"x","items":[{"priceId":"a"}],"grid":[[{"x":1}]],"labels":{"k":{"text":"t"}}}`},
		{"an embedded struct's promoted name", `{"origin":"x"}`},
		{"the outer field of a name an embedded struct shares", `{"shadow":"x"}`},
		{"an untagged field by its Go name", `{"GoNamed":"x"}`},
		{"the name '-' of a field tagged '-,'", `{"-":"x"}`},
		{"any names in a map of free values", `{"free":{"Any":{"Nested":[{"Names":1}]}}}`},
		{"any names in a raw value", `{"raw":{"Whatever":1}}`},
		{"any names in an interface value", `{"any":{"Whatever":1}}`},
		{"any names in a type that decodes itself", `{"custom":{"Whatever":1}}`},
		{"a recursive type's declared names", `{"next":{"next":{"altId":"x"}}}`},
	}
	for _, tc := range accepted {
		t.Run(tc.name+" is taken", func(t *testing.T) {
			assert.NoError(t, decodeNamed(tc.body))
		})
	}
}

func TestDecodeValueTakesOnlyTheExactNamesTheTypeDeclares(t *testing.T) {
	var item struct {
		PriceID *string `json:"priceId"`
		Nested  *struct {
			Mode *string `json:"mode"`
		} `json:"nested"`
	}
	err := DecodeValue(json.RawMessage(`{"priceId":"a","nested":{"Mode":"x"}}`), "items[3]", &item)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "property items[3].nested.Mode should not exist (names are case-sensitive: did you mean mode?)")

	err = DecodeValue(json.RawMessage(`{"PRICEID":"b","priceId":"a"}`), "items[0]", &item)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "property items[0].PRICEID should not exist")

	require.NoError(t, DecodeValue(json.RawMessage(`{"priceId":"a","nested":{"mode":"x"}}`), "items[0]", &item))
	assert.Equal(t, "x", *item.Nested.Mode)
}

func TestAnUnknownNameFromAnotherOperationsHabitsPointsAtWhatToSendInstead(t *testing.T) {
	var alt struct {
		AltID   *string `json:"altId"`
		AltType *string `json:"altType"`
		Nested  *struct {
			AltID   *string `json:"altId"`
			AltType *string `json:"altType"`
		} `json:"nested"`
	}
	var altIDOnly struct {
		AltID *string `json:"altId"`
	}
	cases := []struct {
		name string
		dst  any
		body string
		want string
		not  string
	}{
		{"locationId where the body names its account by altId points at altId and altType", &alt,
			`{"locationId":"acct1"}`, "property locationId should not exist (this body names its account by altId, with altType account)", ""},
		{"the hint is given at the path where the name was sent", &alt,
			`{"nested":{"locationId":"acct1"}}`, "property nested.locationId should not exist (this body names its account by altId", ""},
		{"no hint points at a field the type does not declare", &altIDOnly,
			`{"locationId":"acct1"}`, "property locationId should not exist", "altType"},
		{"a case mismatch still suggests the declared name", &alt,
			`{"AltType":"account"}`, "did you mean altType?", "names its account"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := DecodeJSON(httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body)), tc.dst)
			require.Error(t, err)
			assert.True(t, apierror.HasCode(err, apierror.CodeValidation), "%v", err)
			assert.Contains(t, err.Error(), tc.want)
			if tc.not != "" {
				assert.NotContains(t, err.Error(), tc.not)
			}
		})
	}
}
