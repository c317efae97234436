package auth

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGeneratedTokensHaveTheDocumentedShape(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		v, err := GenerateToken()
		require.NoError(t, err)
		assert.Len(t, v, TokenLength)
		assert.True(t, strings.HasPrefix(v, Prefix))
		assert.NoError(t, CheckFormat(v))
		assert.False(t, seen[v], "tokens never repeat")
		seen[v] = true
	}
}

func TestCheckFormatRejectsWithoutAnyLookup(t *testing.T) {
	good, err := GenerateToken()
	require.NoError(t, err)
	cases := []struct {
		name  string
		value string
		want  error
	}{
		{"an empty value is malformed", "", ErrMalformed},
		{"a wrong prefix is malformed", "ghp_" + good[len(Prefix):], ErrMalformed},
		{"a truncated token is malformed", good[:len(good)-1], ErrMalformed},
		{"a non-base62 character is malformed", good[:10] + "-" + good[11:], ErrMalformed},
		{"one changed character breaks the checksum", good[:10] + swap(good[10]) + good[11:], ErrChecksum},
		{"a changed checksum breaks it", good[:len(good)-1] + swap(good[len(good)-1]), ErrChecksum},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.ErrorIs(t, CheckFormat(tc.value), tc.want)
		})
	}
}

func TestTokensAreStoredOnlyAsTheirSHA256(t *testing.T) {
	v, err := GenerateToken()
	require.NoError(t, err)
	h := HashToken(v)
	assert.Len(t, h, 64)
	assert.NotContains(t, h, v[len(Prefix):len(Prefix)+8])
	assert.Equal(t, h, HashToken(v), "hashing is deterministic, so lookups work")
}

func TestTokenFromBodyCompletesAFixedBody(t *testing.T) {
	v, err := TokenFromBody("DemoAllScopesAlphaLocal000000001")
	require.NoError(t, err)
	assert.Equal(t, "bpt_DemoAllScopesAlphaLocal0000000011xFMXT", v, "the README's documented demo token")
	_, err = TokenFromBody("short")
	assert.ErrorIs(t, err, ErrMalformed)
}

func TestBearerHeaderParsing(t *testing.T) {
	for header, ok := range map[string]bool{
		"Bearer abc":  true,
		"bearer abc":  true,
		"Basic abc":   false,
		"Bearer":      false,
		"Bearer   ":   false,
		"":            false,
		"abc":         false,
		"Token abc x": false,
	} {
		_, err := bearer(header)
		assert.Equal(t, ok, err == nil, "header %q", header)
	}
}

func swap(c byte) string {
	if c == 'a' {
		return "b"
	}
	return "a"
}
