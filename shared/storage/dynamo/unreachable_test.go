package dynamo_test

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/storage/dynamo"
)

// closedEndpoint is a loopback address where nothing listens: a port taken
// and released at once.
func closedEndpoint(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return "http://" + addr
}

func TestACallToAnEndpointWhereNothingAnswersSaysSoInOneLine(t *testing.T) {
	endpoint := closedEndpoint(t)
	db, err := dynamo.NewClient(context.Background(), endpoint, "us-east-1", nil)
	require.NoError(t, err)
	_, callErr := db.ListTables(context.Background(), &dynamodb.ListTablesInput{})
	require.Error(t, callErr)

	cases := []struct {
		name     string
		err      error
		endpoint string
		want     []string
		not      []string
	}{
		{"a refused connection to a named endpoint names it and what to do", callErr, endpoint,
			[]string{"nothing answers at DYNAMODB_ENDPOINT " + endpoint, "connection refused", "start DynamoDB Local there"},
			[]string{"exceeded maximum number of attempts", "\n"}},
		{"a refused connection to AWS names the network and DYNAMODB_ENDPOINT", callErr, "",
			[]string{"DynamoDB (AWS", "DYNAMODB_ENDPOINT"}, []string{"exceeded maximum number of attempts"}},
		{"a host that does not resolve says so", &net.DNSError{Err: "no such host", Name: "dynamo.invalid", IsNotFound: true}, "http://dynamo.invalid:8000",
			[]string{"nothing answers at DYNAMODB_ENDPOINT http://dynamo.invalid:8000 (no such host)"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := dynamo.Unreachable(tc.err, tc.endpoint).Error()
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
			for _, n := range tc.not {
				assert.NotContains(t, msg, n)
			}
		})
	}
	t.Run("an error of an engine that answered is kept as it is", func(t *testing.T) {
		other := errors.New("ResourceNotFoundException: table not found")
		assert.Same(t, other, dynamo.Unreachable(other, endpoint))
	})
}
