package secrets_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/secrets"
)

func newKeeper(t *testing.T) *secrets.Keeper {
	t.Helper()
	k, err := secrets.NewEphemeralKeeper()
	require.NoError(t, err)
	return k
}

var (
	ctx  = context.Background()
	here = secrets.Binding{"account": "acctA", "action": "act1", "field": "f"}
)

func TestASealedSecretOpensOnlyWithItsKeyAndBinding(t *testing.T) {
	k := newKeeper(t)
	const value = "sk_live_51Habcdefghijklmnop"
	sealed, err := k.Seal(ctx, value, here)
	require.NoError(t, err)
	assert.NotContains(t, string(sealed.Ciphertext), value)
	assert.NotContains(t, string(sealed.DataKey), value)
	assert.True(t, strings.HasPrefix(sealed.KeyID, "local:"))

	t.Run("it opens with the same key and binding", func(t *testing.T) {
		got, err := k.Open(ctx, sealed, here)
		require.NoError(t, err)
		assert.Equal(t, value, got)
	})
	t.Run("two seals of one value differ", func(t *testing.T) {
		again, err := k.Seal(ctx, value, here)
		require.NoError(t, err)
		assert.NotEqual(t, sealed.Ciphertext, again.Ciphertext)
		assert.NotEqual(t, sealed.DataKey, again.DataKey)
	})
	for name, other := range map[string]secrets.Binding{
		"another account":            {"account": "acctB", "action": "act1", "field": "f"},
		"another record":             {"account": "acctA", "action": "act2", "field": "f"},
		"a binding with a name more": {"account": "acctA", "action": "act1", "field": "f", "x": ""},
		"names and values shifted":   {"account": "acctA", "action": "act1", "fiel": "df"},
	} {
		t.Run("it does not open for "+name, func(t *testing.T) {
			_, err := k.Open(ctx, sealed, other)
			assert.Error(t, err)
		})
	}
	t.Run("it does not open with another key", func(t *testing.T) {
		_, err := newKeeper(t).Open(ctx, sealed, here)
		assert.ErrorContains(t, err, "sealed with key")
	})
	t.Run("a tampered ciphertext does not open", func(t *testing.T) {
		bad := sealed
		bad.Ciphertext = append([]byte(nil), sealed.Ciphertext...)
		bad.Ciphertext[0] ^= 1
		_, err := k.Open(ctx, bad, here)
		assert.Error(t, err)
	})
	t.Run("without a keeper nothing is sealed", func(t *testing.T) {
		var none *secrets.Keeper
		_, err := none.Seal(ctx, value, here)
		assert.ErrorIs(t, err, secrets.ErrNoKeeper)
	})
}

func TestAMaskShowsAtMostTheLastFourCharacters(t *testing.T) {
	for value, want := range map[string]string{
		"sk_live_51Habcdefgh1234": "••••1234",
		"abcdefghijkl":            "••••ijkl",
		"abcdefghijk":             "••••••••",
		"token123":                "••••••••",
		"":                        "••••••••",
		"пароль-пароль-ключ":      "••••ключ",
	} {
		assert.Equal(t, want, secrets.Mask(value), value)
		assert.True(t, secrets.LooksMasked(secrets.Mask(value)))
	}
	assert.False(t, secrets.LooksMasked("token123"))
}

func TestTheLocalKeyFileIsCreatedOnceReadableByItsOwnerOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".local", "secrets.key")
	key, err := secrets.LoadOrCreateKeyFile(path)
	require.NoError(t, err)
	assert.Len(t, key, secrets.KeySize)
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	again, err := secrets.LoadOrCreateKeyFile(path)
	require.NoError(t, err)
	assert.Equal(t, key, again, "later starts read the same key")

	t.Run("processes starting at once share one key", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "k")
		keys := make([][]byte, 8)
		var wg sync.WaitGroup
		for i := range keys {
			wg.Go(func() {
				k, err := secrets.LoadOrCreateKeyFile(path)
				assert.NoError(t, err)
				keys[i] = k
			})
		}
		wg.Wait()
		for _, k := range keys[1:] {
			assert.Equal(t, keys[0], k)
		}
	})
	t.Run("a key file others may read is refused", func(t *testing.T) {
		require.NoError(t, os.Chmod(path, 0o644))
		_, err := secrets.LoadOrCreateKeyFile(path)
		assert.ErrorContains(t, err, "may be read by others")
	})
	t.Run("a file without a key is refused", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad")
		require.NoError(t, os.WriteFile(bad, []byte("not a key"), 0o600))
		_, err := secrets.LoadOrCreateKeyFile(bad)
		assert.ErrorContains(t, err, "does not hold")
	})
}
