package app_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/secrets"
)

func TestOpenSecretsPicksTheConfiguredKeyAndRefusesToStartWithout(t *testing.T) {
	ctx := context.Background()
	var opened []string
	keeping := app.Area{Name: "keeper", OpenKMSKey: func(cfg aws.Config, keyID string) secrets.KeySource {
		opened = append(opened, cfg.Region+" "+keyID)
		local, err := secrets.NewLocalKey(make([]byte, secrets.KeySize))
		require.NoError(t, err)
		return local
	}}
	plain := app.Area{Name: "plain"}
	loadAWS := func(_ context.Context, region string) (aws.Config, error) { return aws.Config{Region: region}, nil }

	t.Run("areas that keep no secrets need no key", func(t *testing.T) {
		k, err := app.OpenSecrets(ctx, config.Config{}, loadAWS, plain)
		require.NoError(t, err)
		assert.Nil(t, k)
	})
	t.Run("an area that keeps secrets does not start without a key", func(t *testing.T) {
		_, err := app.OpenSecrets(ctx, config.Config{}, loadAWS, plain, keeping)
		assert.ErrorIs(t, err, secrets.ErrNoKeeper)
		assert.ErrorContains(t, err, "keeper keeps secrets")
		assert.ErrorContains(t, err, "SECRETS_KEY_ID")
	})
	t.Run("SECRETS_KEY_ID opens the KMS key, calling nothing", func(t *testing.T) {
		k, err := app.OpenSecrets(ctx, config.Config{SecretsKeyID: "alias/x", Region: "eu-west-1"}, loadAWS, keeping)
		require.NoError(t, err)
		assert.NotNil(t, k)
		assert.Equal(t, []string{"eu-west-1 alias/x"}, opened)
	})
	t.Run("SECRETS_LOCAL_KEY_FILE creates its key once, for its owner only", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "secrets.key")
		k, err := app.OpenSecrets(ctx, config.Config{SecretsLocalKeyFile: path}, loadAWS, keeping)
		require.NoError(t, err)
		sealed, err := k.Seal(ctx, "value", secrets.Binding{"a": "b"})
		require.NoError(t, err)
		info, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())

		again, err := app.OpenSecrets(ctx, config.Config{SecretsLocalKeyFile: path}, loadAWS, keeping)
		require.NoError(t, err)
		value, err := again.Open(ctx, sealed, secrets.Binding{"a": "b"})
		require.NoError(t, err)
		assert.Equal(t, "value", value, "a restart opens what was sealed before")
	})
}
