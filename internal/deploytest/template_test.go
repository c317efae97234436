package deploytest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/oauth"
	"github.com/bizplatform/api/portal"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
)

func readTemplate(t *testing.T) (string, map[string]any, map[string]any) {
	t.Helper()
	root := repoRoot(t)
	tpl, err := ReadTemplate(filepath.Join(root, "template.yaml"))
	require.NoError(t, err)
	resources, ok := tpl["Resources"].(map[string]any)
	require.True(t, ok, "template has Resources")
	return root, tpl, resources
}

// servedRoutes are the routes the code serves, per area, as API Gateway
// route keys ("GET /contacts/").
func servedRoutes(t *testing.T) map[string][]string {
	t.Helper()
	deps := wiring.Deps{Table: &storage.Table{Name: "unused"}, Clock: clock.System{}}
	out := map[string][]string{}
	for _, area := range catalog.Areas {
		for _, rt := range area.Routes(deps) {
			for _, p := range rt.Op.Paths() {
				out[area.Name] = append(out[area.Name], rt.Op.Method+" "+p)
			}
		}
		sort.Strings(out[area.Name])
	}
	return out
}

// templateRoutes are a function's HttpApi event routes.
func templateRoutes(t *testing.T, fn any) []string {
	t.Helper()
	var out []string
	events, _ := Path(fn, "Properties", "Events").(map[string]any)
	for name, ev := range events {
		if Path(ev, "Type") != "HttpApi" {
			continue
		}
		assert.Equal(t, map[string]any{"Ref": "HttpApi"}, Path(ev, "Properties", "ApiId"), "event %s is on the HttpApi", name)
		out = append(out, fmt.Sprintf("%v %v", Path(ev, "Properties", "Method"), Path(ev, "Properties", "Path")))
	}
	sort.Strings(out)
	return out
}

func TestTemplateGlobalsFollowTheDesign(t *testing.T) {
	_, tpl, _ := readTemplate(t)
	assert.Equal(t, "AWS::Serverless-2016-10-31", tpl["Transform"])
	fn := Path(tpl, "Globals", "Function")
	assert.Equal(t, "provided.al2023", Path(fn, "Runtime"))
	assert.Equal(t, []any{"arm64"}, Path(fn, "Architectures"))
	assert.Equal(t, "bootstrap", Path(fn, "Handler"))
	assert.Equal(t, map[string]any{"Ref": "TracingMode"}, Path(fn, "Tracing"), "tracing is the operator's choice")
	assert.Equal(t, "PassThrough", Path(tpl, "Parameters", "TracingMode", "Default"), "no trace is recorded unless switched on")
	assert.ElementsMatch(t, []any{"PassThrough", "Active"}, Path(tpl, "Parameters", "TracingMode", "AllowedValues"))
	assert.Equal(t, "JSON", Path(fn, "LoggingConfig", "LogFormat"))
	vars, _ := Path(fn, "Environment", "Variables").(map[string]any)
	for _, name := range []string{"TABLE_NAME", "RATE_LIMIT_BURST", "RATE_LIMIT_WINDOW_SECONDS", "RATE_LIMIT_DAILY", "LOG_LEVEL",
		"DYNAMODB_CALL_TIMEOUT_MS", "DYNAMODB_MAX_ATTEMPTS", "REQUEST_TIMEOUT_MS"} {
		assert.Contains(t, vars, name, "functions get %s", name)
	}
	for _, p := range []string{"Stage", "RateLimitBurst", "RateLimitWindowSeconds", "RateLimitDaily", "LogLevel",
		"DynamoDbCallTimeoutMs", "DynamoDbMaxAttempts", "RequestTimeoutMs"} {
		assert.NotNil(t, Path(tpl, "Parameters", p), "parameter %s", p)
	}
	// A slow table must answer 503 before Lambda kills the function.
	timeoutMs := toFloat(Path(fn, "Timeout")) * 1000
	require.Positive(t, timeoutMs)
	for _, p := range []string{"DynamoDbCallTimeoutMs", "RequestTimeoutMs"} {
		require.Positive(t, toFloat(Path(tpl, "Parameters", p, "MaxValue")), p)
		assert.Less(t, toFloat(Path(tpl, "Parameters", p, "Default")), timeoutMs, "%s default fits the function timeout", p)
		assert.Less(t, toFloat(Path(tpl, "Parameters", p, "MaxValue")), timeoutMs, "%s maximum fits the function timeout", p)
	}
	for _, o := range []string{"ApiUrl", "TableName"} {
		assert.NotNil(t, Path(tpl, "Outputs", o), "output %s", o)
	}
}

func TestTemplateTableMatchesTheCodesTable(t *testing.T) {
	_, _, res := readTemplate(t)
	table := res["Table"]
	require.NotNil(t, table, "a Table resource")
	assert.Equal(t, "AWS::DynamoDB::Table", Path(table, "Type"))
	props := Path(table, "Properties")
	assert.Equal(t, "PAY_PER_REQUEST", Path(props, "BillingMode"))
	assert.Equal(t, true, Path(props, "PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled"))
	assert.Equal(t, true, Path(props, "DeletionProtectionEnabled"))
	assert.Equal(t, true, Path(props, "SSESpecification", "SSEEnabled"))
	assert.Equal(t, storage.AttrExpiresAt, Path(props, "TimeToLiveSpecification", "AttributeName"))
	assert.Equal(t, true, Path(props, "TimeToLiveSpecification", "Enabled"))

	// The same definition the local engines get (storage.CreateTableInput).
	want := storage.CreateTableInput("x")
	toJSON := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	var attrs []string
	for _, a := range want.AttributeDefinitions {
		attrs = append(attrs, fmt.Sprintf("%s:%s", *a.AttributeName, a.AttributeType))
	}
	var got []string
	for _, a := range Path(props, "AttributeDefinitions").([]any) {
		got = append(got, fmt.Sprintf("%v:%v", Path(a, "AttributeName"), Path(a, "AttributeType")))
	}
	assert.ElementsMatch(t, attrs, got, "attribute definitions")
	var keys []string
	for _, k := range want.KeySchema {
		keys = append(keys, fmt.Sprintf("%s:%s", *k.AttributeName, k.KeyType))
	}
	var gotKeys []string
	for _, k := range Path(props, "KeySchema").([]any) {
		gotKeys = append(gotKeys, fmt.Sprintf("%v:%v", Path(k, "AttributeName"), Path(k, "KeyType")))
	}
	assert.Equal(t, keys, gotKeys, "key schema")
	gsis, _ := Path(props, "GlobalSecondaryIndexes").([]any)
	require.Len(t, gsis, len(want.GlobalSecondaryIndexes), toJSON(gsis))
	for i, g := range want.GlobalSecondaryIndexes {
		assert.Equal(t, *g.IndexName, Path(gsis[i], "IndexName"))
		assert.Equal(t, string(g.Projection.ProjectionType), Path(gsis[i], "Projection", "ProjectionType"))
	}
}

func TestEveryAreaIsOneFunctionServingExactlyItsRoutes(t *testing.T) {
	_, _, res := readTemplate(t)
	served := servedRoutes(t)
	functions := map[string]bool{}
	for name, r := range res {
		if Path(r, "Type") == "AWS::Serverless::Function" {
			functions[name] = true
		}
	}
	allTemplateRoutes := map[string]string{}
	for _, area := range catalog.Areas {
		name := catalog.FunctionName(area.Name)
		t.Run(name, func(t *testing.T) {
			fn := res[name]
			require.NotNil(t, fn, "template has %s for area %s", name, area.Name)
			delete(functions, name)
			assert.Equal(t, ".", Path(fn, "Properties", "CodeUri"))
			assert.Equal(t, "makefile", Path(fn, "Metadata", "BuildMethod"))
			routes := templateRoutes(t, fn)
			assert.Equal(t, served[area.Name], routes, "the template routes %s exactly the routes its code serves", name)
			for _, r := range routes {
				if other, ok := allTemplateRoutes[r]; ok {
					t.Errorf("route %s is mapped to both %s and %s", r, other, name)
				}
				allTemplateRoutes[r] = name
			}
			logGroup := Path(fn, "Properties", "LoggingConfig", "LogGroup")
			require.NotNil(t, logGroup, "%s logs to its own log group", name)
			lg := res[fmt.Sprint(Path(logGroup, "Ref"))]
			assert.Equal(t, "AWS::Logs::LogGroup", Path(lg, "Type"))
			assert.NotNil(t, Path(lg, "Properties", "RetentionInDays"), "%s's log group has a retention", name)
		})
	}
	t.Run("PortalFunction", func(t *testing.T) {
		fn := res["PortalFunction"]
		require.NotNil(t, fn, "template has PortalFunction for functions/%s", catalog.Portal)
		delete(functions, "PortalFunction")
		assert.Equal(t, ".", Path(fn, "Properties", "CodeUri"))
		assert.Equal(t, "makefile", Path(fn, "Metadata", "BuildMethod"))
		routes := templateRoutes(t, fn)
		want := slices.Clone(catalog.PortalRoutes)
		slices.Sort(want)
		assert.Equal(t, want, routes, "the portal takes every method on /portal and below, and the consent page's public paths")
		for _, path := range portal.ConsentPaths {
			assert.Contains(t, routes, "GET "+path)
		}
		for _, r := range routes {
			_, path, _ := strings.Cut(r, " ")
			for other, name := range allTemplateRoutes {
				_, otherPath, _ := strings.Cut(other, " ")
				assert.False(t, strings.HasPrefix(otherPath, "/portal"), "%s (%s) is under the portal's %s", other, name, path)
			}
		}
		lg := res[fmt.Sprint(Path(fn, "Properties", "LoggingConfig", "LogGroup", "Ref"))]
		assert.Equal(t, "AWS::Logs::LogGroup", Path(lg, "Type"), "the portal logs to its own log group")
		assert.NotNil(t, Path(lg, "Properties", "RetentionInDays"))
	})
	t.Run(catalog.OAuthFunction, func(t *testing.T) {
		fn := res[catalog.OAuthFunction]
		require.NotNil(t, fn, "template has %s for functions/%s", catalog.OAuthFunction, catalog.OAuth)
		delete(functions, catalog.OAuthFunction)
		assert.Equal(t, ".", Path(fn, "Properties", "CodeUri"))
		assert.Equal(t, "makefile", Path(fn, "Metadata", "BuildMethod"))
		want := slices.Clone(oauth.Routes)
		slices.Sort(want)
		assert.Equal(t, want, templateRoutes(t, fn), "the OAuth server's routes, exactly")
		lg := res[fmt.Sprint(Path(fn, "Properties", "LoggingConfig", "LogGroup", "Ref"))]
		assert.Equal(t, "AWS::Logs::LogGroup", Path(lg, "Type"))
		assert.NotNil(t, Path(lg, "Properties", "RetentionInDays"))
	})
	t.Run(catalog.WebhookFunction, func(t *testing.T) {
		fn := res[catalog.WebhookFunction]
		require.NotNil(t, fn, "template has %s for functions/%s", catalog.WebhookFunction, catalog.Webhooks)
		delete(functions, catalog.WebhookFunction)
		assert.Equal(t, "makefile", Path(fn, "Metadata", "BuildMethod"))
		assert.Empty(t, templateRoutes(t, fn), "the webhook deliverer is not behind the API")
		stream := Path(fn, "Properties", "Events", "NewEvents")
		assert.Equal(t, "DynamoDB", Path(stream, "Type"))
		assert.Equal(t, map[string]any{"Fn::If": []any{"UseExistingTableStream", map[string]any{"Ref": "ExistingTableStreamArn"}, map[string]any{"Fn::GetAtt": []any{"Table", "StreamArn"}}}},
			Path(stream, "Properties", "Stream"), "the table's stream, or the one of the table the stack was pointed at")
		// Only the inserts of events wake it (an event is handed on at
		// once, its deliveries made and first attempted by the invocation
		// that hands it on), not every write: not the deliveries it writes.
		filters := asList(Path(stream, "Properties", "FilterCriteria", "Filters"))
		require.Len(t, filters, 1)
		var pattern struct {
			EventName []string `json:"eventName"`
			Dynamodb  struct {
				Keys struct {
					PK struct {
						S []struct{ Prefix string } `json:"S"`
					}
				}
			} `json:"dynamodb"`
		}
		require.NoError(t, json.Unmarshal([]byte(fmt.Sprint(Path(filters[0], "Pattern"))), &pattern))
		assert.Equal(t, []string{"INSERT"}, pattern.EventName)
		wakes := func(pk string) bool {
			for _, p := range pattern.Dynamodb.Keys.PK.S {
				if strings.HasPrefix(pk, p.Prefix) {
					return true
				}
			}
			return false
		}
		for pk, want := range map[string]bool{
			deliveries.PK("a1"):                    false,
			events.Owner{LocationID: "acct1"}.PK(): true,
			events.Owner{CompanyID: "co1"}.PK():    true,
			storage.AccountPK("acct1"):             false,
			storage.CompanyPK("co1"):               false,
		} {
			assert.Equal(t, want, wakes(pk), "a new item under %s wakes the deliverer", pk)
		}
		assert.EqualValues(t, 10, Path(stream, "Properties", "ParallelizationFactor"),
			"a shard's batches run 10 at once, in order per account's events: one account's stalled batch holds up no other's")
		assert.Equal(t, "Schedule", Path(fn, "Properties", "Events", "Retries", "Type"), "retries are swept on a schedule")
		assert.NotEmpty(t, Path(res["Table"], "Properties", "StreamSpecification", "StreamViewType"), "the table has a stream")
		assert.Equal(t, webhookKeyParameter, Path(fn, "Properties", "Environment", "Variables", "WEBHOOK_KEY_PARAMETER"))
		assert.Nil(t, Path(fn, "Properties", "ReservedConcurrentExecutions"), "no reservation that could throttle the deploy hook's check")
		lg := res[fmt.Sprint(Path(fn, "Properties", "LoggingConfig", "LogGroup", "Ref"))]
		assert.Equal(t, "AWS::Logs::LogGroup", Path(lg, "Type"))
		assert.NotNil(t, Path(lg, "Properties", "RetentionInDays"))
	})
	delete(functions, hookFunction)          // deploy_test.go checks it
	delete(functions, catalog.ProbeFunction) // probe_packaging_test.go checks it
	assert.Empty(t, functions, "functions in the template that serve no area and are not the portal, the OAuth server, the webhook deliverer, the probe or the deploy hook")
}

// keepsSecrets reports whether the function in functions/<dir> serves an
// area that keeps secrets users hand it (sealed with the KMS key).
func keepsSecrets(dir string) bool { return catalog.KeepsSecrets(dir) }

// functionDirs are the directories under functions/ of the functions
// CodeDeploy moves (every area, the portal, the OAuth server and the
// webhook deliverer), with their template logical ids.
func functionDirs() map[string]string {
	out := map[string]string{}
	for _, f := range catalog.Functions() {
		if f.Deployed() {
			out[f.Dir] = f.LogicalID
		}
	}
	return out
}

// allFunctionDirs are every function's, the probe and the hook included.
func allFunctionDirs() map[string]string {
	out := map[string]string{}
	for _, f := range catalog.Functions() {
		out[f.Dir] = f.LogicalID
	}
	return out
}

// makeBuildLines are the commands `make build-<name>` runs with these
// variables, in an environment without REVISION but for what vars say.
func makeBuildLines(t *testing.T, name string, vars ...string) []string {
	t.Helper()
	cmd := exec.Command("make", append([]string{"--no-print-directory", "-n", "build-" + name}, vars...)...)
	cmd.Dir = repoRoot(t)
	// Without REVISION, and without a parent make's level (under one, make
	// prints the directories it enters).
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "REVISION=") || strings.HasPrefix(kv, "MAKELEVEL=") || strings.HasPrefix(kv, "MAKEFLAGS=")
	})
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "make has build-%s: %s", name, out)
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

func TestTheMakefileBuildsEveryFunctionForLambda(t *testing.T) {
	for dir, name := range allFunctionDirs() {
		t.Run(name, func(t *testing.T) {
			lines := makeBuildLines(t, name, "ARTIFACTS_DIR=/artifacts")
			require.Len(t, lines, 1, "without REVISION the package is the binary alone, the same at every build")
			for _, want := range []string{"CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm64", "-tags lambda.norpc", "-trimpath", `-ldflags "-s -w"`, "-o /artifacts/bootstrap", "./functions/" + dir} {
				assert.Contains(t, lines[0], want)
			}
		})
	}
}

// SAM publishes a function's version when its package changes, and hashes
// the template's parameter references rather than their values: a deploy
// that changes only parameters would leave the alias on the old
// configuration. A build with a new REVISION changes every function's
// package (docs/operations.md, "A parameter change").
func TestABuildWithARevisionChangesEveryFunctionsPackage(t *testing.T) {
	for _, name := range allFunctionDirs() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			lines := makeBuildLines(t, name, "ARTIFACTS_DIR="+dir, "REVISION=20261128T150405Z")
			require.Len(t, lines, 2, "the binary, then the revision")
			assert.Contains(t, lines[0], "-o "+dir+"/bootstrap")
			out, err := exec.Command("bash", "-c", lines[1]).CombinedOutput()
			require.NoError(t, err, "%s: %s", lines[1], out)
			written, err := os.ReadFile(filepath.Join(dir, "REVISION"))
			require.NoError(t, err)
			assert.Equal(t, "20261128T150405Z\n", string(written))
		})
	}
}

var idSegment = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// pathFits reports whether a concrete path fits a route path: the same
// literal segments, and a well-formed id where the route has {name}.
func pathFits(route, path string) bool {
	rs, ps := strings.Split(route, "/"), strings.Split(path, "/")
	if len(rs) != len(ps) {
		return false
	}
	for i, r := range rs {
		if strings.HasPrefix(r, "{") && strings.HasSuffix(r, "}") {
			if !idSegment.MatchString(ps[i]) {
				return false
			}
		} else if r != ps[i] {
			return false
		}
	}
	return true
}

func TestEveryEventNamesARouteItsFunctionServes(t *testing.T) {
	root := repoRoot(t)
	served := servedRoutes(t)
	served[catalog.Portal] = catalog.PortalRoutes
	files, err := filepath.Glob(filepath.Join(root, "events", "*", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	covered := map[string]bool{}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		t.Run(rel, func(t *testing.T) {
			area := filepath.Base(filepath.Dir(f))
			routes, ok := served[area]
			require.True(t, ok, "events/%s is not an area", area)
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			var ev struct {
				RouteKey       string `json:"routeKey"`
				RawPath        string `json:"rawPath"`
				RequestContext struct {
					HTTP struct {
						Method string `json:"method"`
						Path   string `json:"path"`
					} `json:"http"`
					RouteKey string `json:"routeKey"`
				} `json:"requestContext"`
			}
			require.NoError(t, json.Unmarshal(raw, &ev))
			assert.Contains(t, routes, ev.RouteKey, "%s's function serves %s", area, ev.RouteKey)
			assert.Equal(t, ev.RouteKey, ev.RequestContext.RouteKey)
			method, path, _ := strings.Cut(ev.RouteKey, " ")
			assert.Equal(t, ev.RawPath, ev.RequestContext.HTTP.Path)
			if area == catalog.Portal { // ANY route: the event names its method
				assert.True(t, strings.HasPrefix(ev.RawPath, "/portal"), "a portal event's path is under /portal: %s", ev.RawPath)
				return
			}
			assert.Equal(t, method, ev.RequestContext.HTTP.Method)
			assert.True(t, pathFits(path, ev.RawPath), "rawPath %s fits the route %s", ev.RawPath, path)
			covered[ev.RouteKey] = true
		})
	}
	delete(served, catalog.Portal)
	for _, routes := range served {
		for _, r := range routes {
			if !strings.HasSuffix(r, "/") || !covered[r] {
				// Routes without a trailing slash variant must each have an
				// event; a slash-less variant shares its spec route's event.
				if !covered[r] && !covered[r+"/"] {
					t.Errorf("no event for %s", r)
				}
			}
		}
	}
}

func TestEachFunctionMayCallExactlyTheAWSActionsItsCodeCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the call graph of every function's binary")
	}
	root, _, res := readTemplate(t)
	var mains []string
	dirs := functionDirs()
	for dir := range dirs {
		mains = append(mains, "github.com/bizplatform/api/functions/"+dir)
	}
	mains = append(mains, "github.com/bizplatform/api/functions/"+hookDir, "github.com/bizplatform/api/functions/"+catalog.Probe)
	// A separate process: the analysis is several times slower under the
	// race detector this test may run with.
	cmd := exec.Command("go", append([]string{"run", "./tools/iamcheck/iamactions"}, mains...)...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	require.NoError(t, err, "iamactions")
	var actions map[string][]string
	require.NoError(t, json.Unmarshal(out, &actions))
	t.Run(hookFunction, func(t *testing.T) {
		granted, _ := policy(t, res[hookFunction])
		assert.Equal(t, actions["github.com/bizplatform/api/functions/"+hookDir], granted, "the hook's policy grants exactly what its code calls")
	})
	t.Run(catalog.ProbeFunction, func(t *testing.T) {
		granted, resources := policy(t, res[catalog.ProbeFunction])
		assert.Equal(t, actions["github.com/bizplatform/api/functions/"+catalog.Probe], granted, "the probe's policy grants exactly what its code calls")
		assert.Equal(t, []string{parameterArn(canaryParameter)}, resources["ssm"], "only the canary token's parameter")
		assert.Empty(t, resources["dynamodb"], "the probe reaches the API as a client does, never the table")
	})
	for dir, name := range dirs {
		t.Run(name, func(t *testing.T) {
			want := actions["github.com/bizplatform/api/functions/"+dir]
			granted, resources := policy(t, res[name])
			assert.Equal(t, want, granted, "%s's policy grants exactly what its code calls", name)
			assert.Contains(t, resources["dynamodb"], tableArn, "%s may use the table, the stack's or the one ExistingTableName names", name)
			// Only the areas that keep secrets may use the key, only that
			// key, and only for their records; they are told its ARN.
			keeps := keepsSecrets(dir)
			assert.Equal(t, keeps, slices.ContainsFunc(granted, func(a string) bool { return strings.HasPrefix(a, "kms:") }),
				"%s may use the secrets key only if its area keeps secrets", name)
			if keeps {
				assert.Equal(t, []string{`{"Fn::GetAtt":["SecretsKey","Arn"]}`}, resources["kms"])
				assert.Equal(t, map[string]any{"Fn::GetAtt": []any{"SecretsKey", "Arn"}}, Path(res[name], "Properties", "Environment", "Variables", "SECRETS_KEY_ID"))
			}
			usesIndex := false
			for _, src := range sourceDirs(t, root, dir) {
				usesIndex = usesIndex || sourceMentions(t, src, "storage.IndexGSI1")
			}
			hasIndex := false
			for _, r := range resources["dynamodb"] {
				hasIndex = hasIndex || strings.Contains(r, "/index/")
			}
			assert.Equal(t, usesIndex, hasIndex, "%s may query the table's indexes only if its code does", name)
		})
	}
}

// tableArn is the table a function's policy names: the stack's, or the
// one ExistingTableName names (a restored table; docs/operations.md).
const tableArn = `{"Fn::If":["UseExistingTable",{"Fn::Sub":"arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${ExistingTableName}"},{"Fn::GetAtt":["Table","Arn"]}]}`

// policy returns the actions (sorted) a function's inline policy
// statements grant, and the resources (as JSON) granted by service. A
// statement grants one service's actions.
func policy(t *testing.T, fn any) ([]string, map[string][]string) {
	t.Helper()
	var actions []string
	resources := map[string][]string{}
	for _, p := range asList(Path(fn, "Properties", "Policies")) {
		for _, st := range asList(Path(p, "Statement")) {
			assert.Equal(t, "Allow", Path(st, "Effect"))
			service := ""
			for _, a := range asList(Path(st, "Action")) {
				actions = append(actions, fmt.Sprint(a))
				s, _, _ := strings.Cut(fmt.Sprint(a), ":")
				assert.True(t, service == "" || service == s, "one service per statement: %v", Path(st, "Action"))
				service = s
			}
			for _, r := range asList(Path(st, "Resource")) {
				b, _ := json.Marshal(r)
				resources[service] = append(resources[service], string(b))
			}
		}
	}
	sort.Strings(actions)
	return actions, resources
}

func asList(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case nil:
		return nil
	default:
		return []any{x}
	}
}

// sourceDirs are the folders of the packages that a function's main
// imports: its own area (areas/...), the portal (portal/), the OAuth
// server (oauth/) or the webhook deliverer, with their
// subpackages, which sourceMentions walks; not the areas these use in turn.
// The deliverer's include the delivery concept it drives
// (shared/deliveries), whose due index it reads.
func sourceDirs(t *testing.T, root, function string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", "./functions/"+function)
	cmd.Dir = root
	out, err := cmd.Output()
	require.NoError(t, err)
	const prefix = "github.com/bizplatform/api/"
	var dirs []string
	for _, pkg := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(pkg, prefix); ok && (strings.HasPrefix(rel, "areas/") || rel == catalog.Portal || rel == catalog.OAuth || rel == catalog.WebhookPackage) {
			dirs = append(dirs, filepath.Join(root, filepath.FromSlash(rel)))
			if rel == catalog.WebhookPackage {
				dirs = append(dirs, filepath.Join(root, "shared", "deliveries"))
			}
		}
	}
	require.NotEmpty(t, dirs, "functions/%s links its area package", function)
	return dirs
}

// sourceMentions reports whether a non-test Go file in dir holds needle.
func sourceMentions(t *testing.T, dir, needle string) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		raw, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(raw), needle) {
			found = true
		}
		return err
	})
	require.NoError(t, err)
	return found
}

func TestSamconfigHasDefaultAndProdEnvironments(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "samconfig.toml"))
	require.NoError(t, err)
	s := string(raw)
	for _, want := range []string{
		"[default.deploy.parameters]", "[prod.deploy.parameters]", "resolve_s3 = true",
		`capabilities = "CAPABILITY_IAM"`, "confirm_changeset = true", "parameter_overrides",
		"[default.global.parameters]", "[prod.global.parameters]",
	} {
		assert.Contains(t, s, want)
	}
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case int:
		return float64(n)
	case float64:
		return n
	default:
		return -1
	}
}

// The functions take their credentials from the Lambda environment; the
// SDK's configuration chain (files, profiles, SSO, STS) would cost every
// cold start its package initialisation (change 9 of docs/performance.md
// as of 0c6d75c).
func TestNoFunctionLinksTheSDKsConfigurationChain(t *testing.T) {
	root, _, _ := readTemplate(t)
	for dir, name := range allFunctionDirs() {
		t.Run(name, func(t *testing.T) {
			pkgs := linked(t, root, "./functions/"+dir)
			for _, pkg := range pkgs {
				assert.NotEqual(t, "github.com/aws/aws-sdk-go-v2/config", pkg)
				assert.False(t, strings.HasPrefix(pkg, "github.com/aws/aws-sdk-go-v2/service/sts"), pkg)
				assert.False(t, strings.HasPrefix(pkg, "github.com/aws/aws-sdk-go-v2/service/sso"), pkg)
			}
			// The KMS client is linked only where secrets are kept.
			assert.Equal(t, keepsSecrets(dir), slices.Contains(pkgs, "github.com/aws/aws-sdk-go-v2/service/kms"))
		})
	}
}

func TestTheAPIStageIsThrottledAsAWhole(t *testing.T) {
	_, tpl, res := readTemplate(t)
	settings := Path(res["HttpApi"], "Properties", "DefaultRouteSettings")
	require.NotNil(t, settings, "the HTTP API has default route settings")
	for setting, param := range map[string]string{"ThrottlingRateLimit": "ApiThrottlingRateLimit", "ThrottlingBurstLimit": "ApiThrottlingBurstLimit"} {
		t.Run(setting+" comes from "+param, func(t *testing.T) {
			assert.Equal(t, map[string]any{"Ref": param}, Path(settings, setting))
			p := Path(tpl, "Parameters", param)
			def, lo, hi := toFloat(Path(p, "Default")), toFloat(Path(p, "MinValue")), toFloat(Path(p, "MaxValue"))
			assert.GreaterOrEqual(t, lo, 1.0, "a stage that accepts nothing is a mistake")
			assert.Positive(t, hi, "bounded by the account's quota")
			assert.True(t, lo <= def && def <= hi, "default %v within [%v, %v]", def, lo, hi)
		})
	}
	rate := toFloat(Path(tpl, "Parameters", "ApiThrottlingRateLimit", "Default"))
	burst := toFloat(Path(tpl, "Parameters", "ApiThrottlingBurstLimit", "Default"))
	assert.GreaterOrEqual(t, burst, rate, "the burst absorbs at least one second at the steady rate")
}
