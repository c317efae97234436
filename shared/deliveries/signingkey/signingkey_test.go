package signingkey_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
)

func TestTheKeyIsLoadedFromTheOneSettingNamed(t *testing.T) {
	ctx := context.Background()
	noAWS := func(context.Context, string) (aws.Config, error) {
		t.Fatal("no AWS service is called")
		return aws.Config{}, nil
	}
	t.Run("a file and a parameter both named are refused: two keys would sign and be published", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "key.pem")
		_, err := signingkey.LoadOrCreate(ctx, config.Config{WebhookKeyFile: path, WebhookKeyParameter: "/stack/webhook-key"}, noAWS)
		assert.ErrorIs(t, err, signingkey.ErrTwoKeys)
		assert.NoFileExists(t, path, "nothing made")
	})
	t.Run("neither named is refused, saying what to set", func(t *testing.T) {
		_, err := signingkey.LoadOrCreate(ctx, config.Config{}, noAWS)
		assert.ErrorIs(t, err, signingkey.ErrNoKey)
		assert.ErrorContains(t, err, "WEBHOOK_KEY_PARAMETER")
	})
	t.Run("a file is made on first use, for its owner only, and read after", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "dir", "key.pem")
		first, err := signingkey.Load(ctx, config.Config{WebhookKeyFile: path}, noAWS)
		require.NoError(t, err)
		info, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
		again, err := signingkey.Load(ctx, config.Config{WebhookKeyFile: path}, noAWS)
		require.NoError(t, err)
		assert.Equal(t, first, again)
		assert.Contains(t, signingkey.PublicPEM(first), "BEGIN PUBLIC KEY")
	})
	t.Run("what is not a PEM Ed25519 key is refused", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "key.pem")
		require.NoError(t, os.WriteFile(path, []byte("not a key"), 0o600))
		_, err := signingkey.Load(ctx, config.Config{WebhookKeyFile: path}, noAWS)
		assert.ErrorContains(t, err, "not a PEM private key")
	})
}
