package config

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaultsAreThePublicAPIsFigures(t *testing.T) {
	c, err := Load(env(nil))
	require.NoError(t, err)
	assert.Equal(t, Config{TableName: "platform", Burst: 100, Window: 10 * time.Second, Daily: 200000, LogLevel: slog.LevelInfo, Port: 3000,
		DynamoCallTimeout: 3 * time.Second, DynamoMaxAttempts: 3, RequestTimeout: 10 * time.Second, OAuthAccessTokenTTL: 86399 * time.Second}, c)
}

func TestEverySettingIsReadFromItsVariable(t *testing.T) {
	c, err := Load(env(map[string]string{
		"TABLE_NAME": "t1", "DYNAMODB_ENDPOINT": "http://127.0.0.1:4567", "RATE_LIMIT_BURST": "5",
		"RATE_LIMIT_WINDOW_SECONDS": "60", "RATE_LIMIT_DAILY": "99", "LOG_LEVEL": "debug", "PORT": "8080",
		"DYNAMODB_CALL_TIMEOUT_MS": "1500", "DYNAMODB_MAX_ATTEMPTS": "2", "REQUEST_TIMEOUT_MS": "4000",
		"SECRETS_KEY_ID": "alias/secrets", "OAUTH_ACCESS_TOKEN_TTL": "90", "WEBHOOK_KEY_PARAMETER": "/platform/webhook-key",
		"WEBHOOK_RETRY_FOR": "10m",
	}))
	require.NoError(t, err)
	assert.Equal(t, Config{TableName: "t1", Endpoint: "http://127.0.0.1:4567", Region: "us-east-1", Burst: 5, Window: time.Minute, Daily: 99, LogLevel: slog.LevelDebug, Port: 8080,
		DynamoCallTimeout: 1500 * time.Millisecond, DynamoMaxAttempts: 2, RequestTimeout: 4 * time.Second, SecretsKeyID: "alias/secrets",
		OAuthAccessTokenTTL: 90 * time.Second, WebhookKeyParameter: "/platform/webhook-key", WebhookRetryFor: 10 * time.Minute}, c)

	c, err = Load(env(map[string]string{"SECRETS_LOCAL_KEY_FILE": ".local/secrets.key"}))
	require.NoError(t, err)
	assert.Equal(t, ".local/secrets.key", c.SecretsLocalKeyFile)
}

func TestBadSettingsAreRefusedWithTheirName(t *testing.T) {
	for name, vars := range map[string]map[string]string{
		"RATE_LIMIT_BURST":          {"RATE_LIMIT_BURST": "0"},
		"RATE_LIMIT_DAILY":          {"RATE_LIMIT_DAILY": "lots"},
		"RATE_LIMIT_WINDOW_SECONDS": {"RATE_LIMIT_WINDOW_SECONDS": "7"},
		"PORT":                      {"PORT": "70000"},
		"LOG_LEVEL":                 {"LOG_LEVEL": "loud"},
		"DYNAMODB_CALL_TIMEOUT_MS":  {"DYNAMODB_CALL_TIMEOUT_MS": "0"},
		"DYNAMODB_MAX_ATTEMPTS":     {"DYNAMODB_MAX_ATTEMPTS": "11"},
		"REQUEST_TIMEOUT_MS":        {"REQUEST_TIMEOUT_MS": "soon"},
		"OAUTH_ACCESS_TOKEN_TTL":    {"OAUTH_ACCESS_TOKEN_TTL": "-5"},
		"SECRETS_LOCAL_KEY_FILE":    {"SECRETS_KEY_ID": "alias/secrets", "SECRETS_LOCAL_KEY_FILE": "k"},
		"WEBHOOK_RETRY_FOR":         {"WEBHOOK_RETRY_FOR": "ten minutes"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load(env(vars))
			require.Error(t, err)
			assert.Contains(t, err.Error(), name)
		})
	}
}
