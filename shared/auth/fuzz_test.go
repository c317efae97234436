package auth

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/apierror"
)

// FuzzTokenParsing feeds arbitrary Authorization headers to the bearer
// parser and the token format check: no panic; a refused header is a 401;
// a token that passes the format check is exactly a well-formed token with
// its checksum (so no other string reaches the token table). Seeds:
// testdata/fuzz/FuzzTokenParsing.
func FuzzTokenParsing(f *testing.F) {
	f.Fuzz(func(t *testing.T, header string) {
		v, err := bearer(header)
		if err != nil {
			assert.True(t, apierror.HasCode(err, apierror.CodeUnauthorized), "%v", err)
			return
		}
		require.NotEmpty(t, v)
		assert.Equal(t, strings.TrimSpace(v), v)
		if CheckFormat(v) != nil {
			return
		}
		require.Len(t, v, TokenLength)
		require.True(t, strings.HasPrefix(v, Prefix))
		rebuilt, err := TokenFromBody(v[len(Prefix) : len(Prefix)+randomLen])
		require.NoError(t, err)
		assert.Equal(t, rebuilt, v, "a token passes only with its own checksum")
		assert.Len(t, HashToken(v), 64)
	})
}
