package dynamo

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLocalEndpointsAreTellableFromAWS(t *testing.T) {
	for endpoint, local := range map[string]bool{
		"":                                 false,
		"http://127.0.0.1:4567":            true,
		"http://localhost:8000":            true,
		"http://[::1]:8000":                true,
		"http://host.docker.internal:8000": true,
		"http://dynamodb-local:8000":       true,
		"https://dynamodb.eu-west-1.amazonaws.com": false,
		"http://10.0.0.5:8000":                     false,
	} {
		assert.Equal(t, local, IsLocalEndpoint(endpoint), endpoint)
	}
}

func TestNewClientTakesRegionAndCredentialsFromTheEnvironment(t *testing.T) {
	ctx := context.Background()
	t.Run("the keys Lambda sets are the client's credentials", func(t *testing.T) {
		t.Setenv("AWS_REGION", "eu-west-1")
		t.Setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
		t.Setenv("AWS_SESSION_TOKEN", "session")
		db, err := NewClient(ctx, "", "", nil)
		require.NoError(t, err)
		assert.Equal(t, "eu-west-1", db.Options().Region)
		creds, err := db.Options().Credentials.Retrieve(ctx)
		require.NoError(t, err)
		assert.Equal(t, "AKIDEXAMPLE", creds.AccessKeyID)
		assert.Equal(t, "session", creds.SessionToken)
	})
	t.Run("a local engine without keys gets placeholder credentials", func(t *testing.T) {
		t.Setenv("AWS_ACCESS_KEY_ID", "")
		db, err := NewClient(ctx, "http://127.0.0.1:4567", "us-east-1", nil)
		require.NoError(t, err)
		creds, err := db.Options().Credentials.Retrieve(ctx)
		require.NoError(t, err)
		assert.Equal(t, "local", creds.AccessKeyID)
	})
	t.Run("AWS without keys is refused, naming the variables", func(t *testing.T) {
		t.Setenv("AWS_ACCESS_KEY_ID", "")
		_, err := NewClient(ctx, "", "us-east-1", nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "AWS_ACCESS_KEY_ID")
	})
	t.Run("no region anywhere is refused, naming AWS_REGION", func(t *testing.T) {
		t.Setenv("AWS_REGION", "")
		t.Setenv("AWS_DEFAULT_REGION", "")
		_, err := NewClient(ctx, "", "", nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "AWS_REGION")
	})
	t.Run("a local engine needs no region", func(t *testing.T) {
		t.Setenv("AWS_REGION", "")
		t.Setenv("AWS_DEFAULT_REGION", "")
		db, err := NewClient(ctx, "http://127.0.0.1:4567", "", nil)
		require.NoError(t, err)
		assert.Equal(t, "us-east-1", db.Options().Region)
	})
}
