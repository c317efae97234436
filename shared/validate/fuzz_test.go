package validate_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/validate"
)

// FuzzIDProblem: an id the check accepts can never leave the key it is put
// in: 1 to 64 characters, none of them a separator, dot, percent or space.
func FuzzIDProblem(f *testing.F) {
	f.Fuzz(func(t *testing.T, v string) {
		msg := validate.IDProblem("id", v)
		if msg != "" {
			assert.True(t, strings.HasPrefix(msg, "id "), "the message names the field: %q", msg)
			return
		}
		require.True(t, len(v) >= 1 && len(v) <= validate.MaxIDLength, "%q", v)
		assert.False(t, strings.ContainsAny(v, "#/.%\\ \x00?&="), "%q", v)
	})
}

// FuzzIsHTTPSURL: an accepted URL parses as https with a host and holds no
// whitespace.
func FuzzIsHTTPSURL(f *testing.F) {
	f.Fuzz(func(t *testing.T, v string) {
		if !validate.IsHTTPSURL(v) {
			return
		}
		u, err := url.Parse(v)
		require.NoError(t, err)
		assert.Equal(t, "https", u.Scheme)
		assert.NotEmpty(t, u.Hostname())
		assert.Nil(t, u.User)
		assert.False(t, strings.ContainsAny(v, " \t\r\n"))
	})
}

// FuzzIsEmail: an accepted address is a bare address of at most 254
// characters with a dot in its domain.
func FuzzIsEmail(f *testing.F) {
	f.Fuzz(func(t *testing.T, v string) {
		if !validate.IsEmail(v) {
			return
		}
		require.LessOrEqual(t, len(v), 254)
		at := strings.LastIndexByte(v, '@')
		require.Positive(t, at)
		assert.Contains(t, v[at:], ".")
		assert.False(t, strings.ContainsAny(v, " <>"))
	})
}
