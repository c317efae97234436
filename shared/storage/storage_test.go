package storage

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
