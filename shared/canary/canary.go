// Package canary is the canary account's token: a read-only API token of
// an account that holds nothing (CanaryAccountId), kept in an SSM
// SecureString, which the deploy hook sends each new version and the
// synthetic probe sends the deployed API every minute
// (docs/operations.md says how to create it).
package canary

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ssm"

	"github.com/bizplatform/api/shared/operations"
)

// Scopes are the canary token's scopes: reads only, so that the token
// kept in SSM can change nothing. The areas with a list read (Reads) answer
// it 200; every other area's first operation answers it 403 from the scope
// check, which comes after the token was found in the table.
var Scopes = []string{"contacts.readonly", "surveys.readonly", "campaigns.readonly", "medias.readonly"}

// Read is a request that answers the canary token 200: a list of its
// account, empty or not.
type Read struct {
	Op operations.Operation
	// Query is the query string; %s is the canary account.
	Query string
}

// Reads are the canary reads, by area.
var Reads = map[string]Read{
	"contacts":  {operations.ListContacts, "locationId=%s"},
	"surveys":   {operations.ListSurveys, "locationId=%s"},
	"campaigns": {operations.ListCampaigns, "locationId=%s"},
	"medias":    {operations.ListMediaFiles, "altType=account&altId=%s&type=file&sortBy=createdAt&sortOrder=asc"},
}

// Parameters reads the token's parameter (SSM's GetParameter).
type Parameters interface {
	GetParameter(ctx context.Context, in *ssm.GetParameterInput, opts ...func(*ssm.Options)) (*ssm.GetParameterOutput, error)
}

var _ Parameters = (*ssm.Client)(nil)

// Token is the token in one parameter, read once per cold start.
type Token struct {
	SSM Parameters
	// Parameter is the SecureString's name.
	Parameter string

	mu    sync.Mutex
	value string
}

// Value is the token, trimmed; the parameter is read on first use only.
func (t *Token) Value(ctx context.Context) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.value != "" {
		return t.value, nil
	}
	out, err := t.SSM.GetParameter(ctx, &ssm.GetParameterInput{Name: aws.String(t.Parameter), WithDecryption: aws.Bool(true)})
	if err != nil {
		return "", fmt.Errorf("read the canary token (%s): %w", t.Parameter, err)
	}
	v := ""
	if out.Parameter != nil {
		v = strings.TrimSpace(aws.ToString(out.Parameter.Value))
	}
	if v == "" {
		return "", fmt.Errorf("the canary token parameter %s is empty", t.Parameter)
	}
	t.value = v
	return v, nil
}
