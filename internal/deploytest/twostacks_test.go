package deploytest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// samconfigStacks reads samconfig.toml's environments: each one's stack
// name and parameter overrides.
func samconfigStacks(t *testing.T) map[string]Stack {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "samconfig.toml"))
	require.NoError(t, err)
	out := map[string]Stack{}
	env := ""
	section := regexp.MustCompile(`^\[([a-z]+)\.`)
	for _, line := range strings.Split(string(raw), "\n") {
		if m := section.FindStringSubmatch(line); m != nil {
			env = m[1]
		}
		key, value, ok := strings.Cut(line, " = ")
		if !ok || env == "" {
			continue
		}
		value = strings.Trim(strings.TrimSpace(strings.SplitN(value, " #", 2)[0]), `"`)
		s := out[env]
		if s.Parameters == nil {
			s.Parameters, s.Region = map[string]string{}, "us-east-1"
		}
		switch key {
		case "stack_name":
			s.Name = value
		case "parameter_overrides":
			for _, kv := range strings.Fields(value) {
				k, v, _ := strings.Cut(kv, "=")
				s.Parameters[k] = v
			}
		}
		out[env] = s
	}
	return out
}

// accountNames are the names a stack claims in its account and region,
// which another stack must not claim too: its log groups, its key alias,
// its dashboard, its hook's function, its metrics namespace, and the SSM
// parameters its functions read (with the ones their policies grant).
func accountNames(t *testing.T, tpl map[string]any, s Stack) map[string]string {
	res := tpl["Resources"].(map[string]any)
	out := map[string]string{}
	claim := func(kind, logical string, v any) {
		name, err := s.ResolveString(tpl, v)
		require.NoError(t, err, "%s of %s", kind, logical)
		out[kind+" "+logical] = name
	}
	for logical, r := range res {
		props := Path(r, "Properties")
		switch Path(r, "Type") {
		case "AWS::Logs::LogGroup":
			claim("log group", logical, Path(props, "LogGroupName"))
		case "AWS::KMS::Alias":
			claim("key alias", logical, Path(props, "AliasName"))
		case "AWS::CloudWatch::Dashboard":
			claim("dashboard", logical, Path(props, "DashboardName"))
		case "AWS::Serverless::Function":
			if n := Path(props, "FunctionName"); n != nil {
				claim("function", logical, n)
			}
			for _, v := range []string{"WEBHOOK_KEY_PARAMETER", "CANARY_TOKEN_PARAMETER"} {
				if n := Path(props, "Environment", "Variables", v); n != nil {
					claim("parameter", v+" of "+logical, n)
				}
			}
			for _, p := range asList(Path(props, "Policies")) {
				for _, st := range asList(Path(p, "Statement")) {
					if fmt.Sprint(asList(Path(st, "Action"))) != "[ssm:GetParameter]" {
						continue
					}
					for _, r := range asList(Path(st, "Resource")) {
						arn, err := s.ResolveString(tpl, r)
						require.NoError(t, err)
						_, name, ok := strings.Cut(arn, ":parameter")
						require.True(t, ok, arn)
						out["granted parameter of "+logical] = name
					}
				}
			}
		}
	}
	claim("metrics namespace", "Globals", Path(tpl, "Globals", "Function", "Environment", "Variables", "METRICS_NAMESPACE"))
	return out
}

// Two stacks in one account (samconfig's dev and prod) deploy side by side:
// every name one claims in the account differs from the other's, the SSM
// parameters included, which default to names with the stack's in them;
// and each function may read exactly the parameter it is told to read.
func TestTwoStacksInOneAccountClaimNamesOfTheirOwn(t *testing.T) {
	_, tpl, _ := readTemplate(t)
	stacks := samconfigStacks(t)
	require.Contains(t, stacks, "default", "samconfig's dev stack")
	require.Contains(t, stacks, "prod")
	dev, prod := accountNames(t, tpl, stacks["default"]), accountNames(t, tpl, stacks["prod"])
	require.NotEmpty(t, dev)
	taken := map[string]string{}
	for what, name := range dev {
		taken[name] = "dev's " + what
	}
	var kinds []string
	for what, name := range prod {
		assert.NotContains(t, taken, name, "prod's %s is %s, which is also %s", what, name, taken[name])
		kinds = append(kinds, what)
	}
	sort.Strings(kinds)
	assert.Contains(t, kinds, "parameter CANARY_TOKEN_PARAMETER of PreTrafficHookFunction")
	assert.Contains(t, kinds, "parameter WEBHOOK_KEY_PARAMETER of WebhookFunction")
	for _, names := range []map[string]string{dev, prod} {
		assert.Equal(t, names["parameter CANARY_TOKEN_PARAMETER of PreTrafficHookFunction"], names["granted parameter of PreTrafficHookFunction"], "the hook may read the token it is told to")
		assert.Equal(t, names["parameter CANARY_TOKEN_PARAMETER of ProbeFunction"], names["granted parameter of ProbeFunction"], "so may the probe")
		assert.Equal(t, names["parameter WEBHOOK_KEY_PARAMETER of WebhookFunction"], names["granted parameter of WebhookFunction"], "and the deliverer its key")
	}
	assert.Equal(t, "/bizplatform/bizplatform-prod/canary-token", prod["parameter CANARY_TOKEN_PARAMETER of PreTrafficHookFunction"])
	assert.Equal(t, "/bizplatform/bizplatform-dev/webhook-signing-key", dev["parameter WEBHOOK_KEY_PARAMETER of WebhookFunction"])

	named := stacks["prod"]
	named.Parameters = map[string]string{"CanaryTokenParameterName": "/shared/canary"}
	assert.Equal(t, "/shared/canary", accountNames(t, tpl, named)["parameter CANARY_TOKEN_PARAMETER of ProbeFunction"], "a name given is the name used")
}
