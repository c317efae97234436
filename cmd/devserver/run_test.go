package main

import (
	"context"
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
