package dynamo

import (
	"errors"
	"fmt"
	"net"
)

// Unreachable turns the error of a call that never reached DynamoDB (no
// connection could be made at endpoint: refused, no such host, a dial that
// timed out) into one line naming the endpoint and what to do, instead of
// the SDK's "exceeded maximum number of attempts" over a transport
// message. Any other error is returned as it is.
func Unreachable(err error, endpoint string) error {
	var dial *net.OpError
	var dns *net.DNSError
	reason := ""
	switch {
	case errors.As(err, &dns):
		reason = "no such host"
	case errors.As(err, &dial) && dial.Op == "dial":
		reason = dial.Err.Error()
	default:
		return err
	}
	if endpoint == "" {
		return fmt.Errorf("DynamoDB (AWS, region AWS_REGION) cannot be reached (%s): check the network, or set DYNAMODB_ENDPOINT to a running DynamoDB Local", reason)
	}
	return fmt.Errorf("nothing answers at DYNAMODB_ENDPOINT %s (%s): start DynamoDB Local there, or unset DYNAMODB_ENDPOINT (make run then starts an engine of its own)", endpoint, reason)
}
