package validate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/shared/apierror"
)

func TestIDsThatCouldBreakOutOfAKeyAreRefused(t *testing.T) {
	for id, ok := range map[string]bool{
		"demoLocAlpha00000001":  true,
		"a_b-C9":                true,
		strings.Repeat("a", 64): true,
		"":                      false,
		strings.Repeat("a", 65): false,
		"ACCOUNT#other":         false,
		"a b":                   false,
		"a/b":                   false,
		"é":                     false,
	} {
		assert.Equal(t, ok, IDProblem("id", id) == "", "id %q", id)
	}
}

func TestEmailAddresses(t *testing.T) {
	for addr, ok := range map[string]bool{
		"ann@example.com":        true,
		"a.b+tag@sub.example.io": true,
		"Ann <ann@example.com>":  false,
		"ann@localhost":          false,
		"ann@":                   false,
		"ann example.com":        false,
		"":                       false,
	} {
		assert.Equal(t, ok, IsEmail(addr), addr)
	}
}

func TestHexIDs(t *testing.T) {
	assert.True(t, IsHexID("65cb47dda50f4f13ced4b870"))
	assert.False(t, IsHexID("65cb47dda50f4f13ced4b87"))
	assert.False(t, IsHexID("65cb47dda50f4f13ced4b87z"))
}

func TestErrorsCollectEveryViolationIntoOneValidationError(t *testing.T) {
	var v Errors
	assert.NoError(t, v.Err())
	name, altType, altID := "", "agency", "x#y"
	v.Required("name", &name)
	v.Alt(&altID, &altType)
	v.OneOf("size", "xl", "s", "m")
	err := v.Err()
	e, ok := apierror.As(err)
	assert.True(t, ok)
	assert.Equal(t, apierror.CodeValidation, e.Code)
	assert.Equal(t, []string{
		"name is required",
		"altId must be an id of 1 to 64 letters, digits, '_' or '-'",
		"altType must be one of: account",
		"size must be one of: s, m",
	}, e.Violations)
}

func TestARequiredEnumeratedValueNamesItsAllowedValues(t *testing.T) {
	blank, wrong, right := " ", "huge", "m"
	cases := []struct {
		name string
		v    *string
		want string
	}{
		{"a missing value lists the allowed values", nil, "size is required (one of: s, m)"},
		{"a blank value lists the allowed values", &blank, "size is required (one of: s, m)"},
		{"a value not allowed lists the allowed values", &wrong, "size must be one of: s, m"},
		{"an allowed value is taken", &right, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var v Errors
			ok := v.RequiredOneOf("size", tc.v, "s", "m")
			assert.Equal(t, tc.want == "", ok)
			if tc.want == "" {
				assert.NoError(t, v.Err())
				return
			}
			assert.Contains(t, v.Err().Error(), tc.want)
		})
	}
}
