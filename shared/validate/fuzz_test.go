package validate_test

import (
	"net/netip"
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

// FuzzOutsideURLProblem: an accepted URL is one Go's own parser reads as
// https with a host and no user info, holds nothing a URL may not hold
// unencoded, and, when its host is an IP address, that address is public.
func FuzzOutsideURLProblem(f *testing.F) {
	f.Fuzz(func(t *testing.T, v string) {
		if validate.OutsideURLProblem(v) != "" {
			return
		}
		u, err := url.Parse(v)
		require.NoError(t, err)
		assert.Equal(t, "https", u.Scheme)
		assert.NotEmpty(t, u.Hostname())
		assert.Nil(t, u.User)
		assert.False(t, strings.ContainsAny(v, " \t\r\n\"'<>\\{}|^`"), "%q", v)
		authority := strings.TrimPrefix(v, "https://")
		if i := strings.IndexAny(authority, "/?#"); i >= 0 {
			authority = authority[:i]
		}
		assert.Equal(t, authority, u.Host, "both parsers read the same host: %q", v)
		host := strings.ToLower(u.Hostname())
		assert.False(t, host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, "."), "%q", v)
		if addr, err := netip.ParseAddr(host); err == nil {
			assert.True(t, addr.IsGlobalUnicast() && !addr.IsPrivate() && !addr.Is4In6(), "%q", v)
		}
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
