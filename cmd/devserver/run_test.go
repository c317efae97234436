package main

import (
	"context"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAServerOnAnEngineNamedByDYNAMODB_ENDPOINTStartsNoEngineOfItsOwn(t *testing.T) {
	env := map[string]string{"DYNAMODB_ENDPOINT": "http://127.0.0.1:4567", "DYNAMODB_LOCAL_PORT": "not a port"}
	cfg, eng, err := loadSettings(func(k string) string { return env[k] })
	require.NoError(t, err, "the local engine's settings are not read")
	assert.Equal(t, engineSettings{}, eng)

	var out strings.Builder
	stop, err := startEngine(context.Background(), &cfg, eng, launch{func(k string) string { return env[k] }}, &out)
	require.NoError(t, err)
	stop()
	assert.Equal(t, "http://127.0.0.1:4567", cfg.Endpoint)
	assert.Empty(t, out.String(), "nothing is started, so nothing is said or stopped")
}

func TestAServerOnAnEndpointWhereNothingAnswersSaysSoInOneLine(t *testing.T) {
	free := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		defer ln.Close()
		return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	}
	endpoint := "http://127.0.0.1:" + free()
	env := map[string]string{
		"PORT": free(), "DYNAMODB_ENDPOINT": endpoint, "TABLE_NAME": "unreachable",
		"SECRETS_LOCAL_KEY_FILE": filepath.Join(t.TempDir(), "secrets.key"),
		"WEBHOOK_KEY_FILE":       filepath.Join(t.TempDir(), "webhook.pem"),
	}
	var out, logs strings.Builder
	err := run(context.Background(), func(k string) string { return env[k] }, &out, &logs)
	require.Error(t, err)
	assert.Equal(t, "nothing answers at DYNAMODB_ENDPOINT "+endpoint+" (connect: connection refused): start DynamoDB Local there, or unset DYNAMODB_ENDPOINT (make run then starts an engine of its own)", err.Error())
	assert.NotContains(t, out.String(), "Serving", "nothing is served")
}
