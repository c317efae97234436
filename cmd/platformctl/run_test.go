package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/voiceai"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/secrets"
)

type ctl struct {
	t   *testing.T
	env map[string]string
}

func (c ctl) run(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, func(k string) string { return c.env[k] }, &out, &errOut)
	return code, out.String(), errOut.String()
}

func setup(t *testing.T) (ctl, *testenv.Env) {
	table := testenv.NewTable(t)
	api := testenv.New(t, []app.Area{testenv.PingArea}, testenv.WithTable(table))
	return ctl{t: t, env: map[string]string{"DYNAMODB_ENDPOINT": testenv.Endpoint(t), "TABLE_NAME": table.Name}}, api
}

func ping(t *testing.T, api *testenv.Env, token string) *testenv.Response {
	return api.Do(t, testenv.Request{Method: "GET", Path: "/ping", Token: token})
}

func TestATokenCreatedWithTheCLIWorksUntilTheCLIRevokesIt(t *testing.T) {
	c, api := setup(t)

	code, out, errOut := c.run("accounts", "create", "--id", "acctCli", "--company", "coCli", "--name", "CLI Test")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "acctCli")

	code, out, errOut = c.run("tokens", "create", "--account", "acctCli", "--scopes", "contacts.readonly, contacts.write", "--name", "ci")
	require.Equal(t, exitOK, code, errOut)
	token := strings.TrimSpace(out)
	require.NoError(t, auth.CheckFormat(token), "stdout holds the token value alone")
	assert.Contains(t, errOut, "shown only now")

	require.Equal(t, http.StatusOK, ping(t, api, token).Status)

	code, out, _ = c.run("tokens", "list", "--account", "acctCli")
	require.Equal(t, exitOK, code)
	assert.NotContains(t, out, token, "values are never listed")
	assert.NotContains(t, out, token[len(auth.Prefix):len(auth.Prefix)+12])
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2, "a header and one token: %s", out)
	tokenID := strings.Fields(lines[1])[0]
	assert.True(t, strings.HasPrefix(tokenID, "tok_"))

	code, out, errOut = c.run("tokens", "revoke", tokenID)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "revoked")
	ping(t, api, token).RequireError(t, http.StatusUnauthorized)
	code, again, errOut := c.run("tokens", "revoke", tokenID)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, again, "revoked already", "a second revoke says it changed nothing")

	_, out, _ = c.run("tokens", "list", "--account", "acctCli")
	assert.NotEqual(t, "-", strings.Fields(strings.Split(out, "\n")[1])[4], "the listing shows the revocation time")
}

func TestTheCLIRefusesBadInput(t *testing.T) {
	c, _ := setup(t)
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctX", "--company", "coX", "--name", "X")))
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no command prints usage", nil, exitUsage, "usage"},
		{"an unknown command", []string{"frobnicate"}, exitUsage, "unknown command"},
		{"a missing required flag", []string{"tokens", "create", "--account", "acctX"}, exitUsage, "--scopes is required"},
		{"an unknown scope, with the nearest known ones", []string{"tokens", "create", "--account", "acctX", "--scopes", "contacts.readwrite"}, exitUsage,
			`scope "contacts.readwrite" is not a known scope (nearest: contacts.write, contacts.readonly, contacts/bulkActions.write)`},
		{"an unknown kind", []string{"tokens", "create", "--account", "acctX", "--scopes", "contacts.readonly", "--kind", "admin"}, exitUsage, "kind must be one of"},
		{"an unknown account, by its id", []string{"tokens", "create", "--account", "nobody", "--scopes", "contacts.readonly"}, exitError, "platformctl: account nobody does not exist"},
		{"a duplicate account", []string{"accounts", "create", "--id", "acctX", "--company", "coX", "--name", "X"}, exitError, "already exists"},
		{"revoking an unknown token", []string{"tokens", "revoke", "tok_nothing"}, exitError, "does not exist"},
		{"revoke without an id", []string{"tokens", "revoke"}, exitUsage, "one TOKEN_ID"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := c.run(tc.args...)
			assert.Equal(t, tc.code, code)
			assert.Contains(t, errOut, tc.msg)
		})
	}
}

func TestSeedLoadsADatasetFileAndTheDemoTokensOnALocalEngine(t *testing.T) {
	c, api := setup(t)
	file := filepath.Join(t.TempDir(), "dataset.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"accounts":[
		{"id":"demoLocAlpha00000001","companyId":"demoCompanyNorthwind","name":"Alpha"},
		{"id":"demoLocCharlie000003","companyId":"demoCompanySouthwind","name":"Charlie"}]}`), 0o644))
	code, out, errOut := c.run("seed", "--file", file)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "loaded 2 accounts")
	assert.Contains(t, out, "bpt_DemoAllScopesAlphaLocal0000000011xFMXT")
	assert.Equal(t, http.StatusOK, ping(t, api, "bpt_DemoAllScopesAlphaLocal0000000011xFMXT").Status)

	code, _, errOut = c.run("seed", "--file", file)
	assert.Equal(t, exitOK, code, "seeding twice is harmless: %s", errOut)
}

func TestSeedRefusesDemoTokensOnAWS(t *testing.T) {
	c, _ := setup(t)
	// Not a local engine: the demo tokens' published values must never
	// reach a deployed table. (The endpoint is unreachable; seeding fails
	// before or at the first write, and no token is created either way.)
	c.env["DYNAMODB_ENDPOINT"] = ""
	c.env["AWS_REGION"] = "us-east-1"
	c.env["AWS_ACCESS_KEY_ID"] = "none"
	file := filepath.Join(t.TempDir(), "empty.json")
	require.NoError(t, os.WriteFile(file, []byte(`{}`), 0o644))
	code, out, errOut := c.run("seed", "--file", file)
	assert.NotContains(t, out, "bpt_")
	if code == exitOK {
		assert.Contains(t, errOut, "only on a local engine")
	}
}

func first(code int, _, _ string) int { return code }

func TestUsersCreateAndPortalInvitePrintOnlyTheIdAndTheLink(t *testing.T) {
	c, _ := setup(t)
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctP", "--company", "coP", "--name", "P")))
	code, out, errOut := c.run("users", "create", "--company", "coP", "--email", "erin@p.example", "--name", "Erin Example", "--role", "admin", "--accounts", "acctP")
	require.Equal(t, exitOK, code, errOut)
	assert.Regexp(t, `^[A-Za-z0-9]{20}\n$`, out)

	c.env["PORTAL_URL"] = "https://portal.example"
	code, out, errOut = c.run("portal", "invite", "--company", "coP", "--email", "ERIN@p.example")
	require.Equal(t, exitOK, code, errOut)
	assert.Regexp(t, `^https://portal\.example/portal/invite/[A-Za-z0-9_-]{43}\n$`, out)

	code, _, errOut = c.run("portal", "invite", "--company", "coP", "--email", "nobody@p.example")
	assert.Equal(t, exitError, code)
	assert.Contains(t, errOut, "has no user with the address")
	code, _, errOut = c.run("users", "create", "--company", "coP", "--email", "x@p.example", "--name", "X", "--role", "admin", "--accounts", "acctOther")
	assert.Equal(t, exitError, code)
	assert.Contains(t, errOut, "is not an account of company coP")
}

// writeFile writes content to a new file in a test folder and returns its
// name.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(file, []byte(content), 0o644))
	return file
}

func TestSeedTakesTheDatasetFileInTheFormOfTheDemoParts(t *testing.T) {
	c, api := setup(t)
	file := writeFile(t, "dataset.json", `{
		"accounts": [
			{"id":"demoLocAlpha00000001","companyId":"demoCompanyNorthwind","name":"Alpha"},
			{"id":"demoLocCharlie000003","companyId":"demoCompanySouthwind","name":"Charlie"}],
		"contacts": [{"id":"ctcSeedOne0000000001","locationId":"demoLocAlpha00000001","firstName":"Ada","lastName":"Byron",
			"email":"ada@example.org","dateAdded":"2026-01-02T03:04:05.000Z","tasks":[]}]
	}`)
	code, out, errOut := c.run("seed", "--file", file)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "loaded 2 accounts, parts [accounts contacts]")
	served := testenv.New(t, []app.Area{contacts.Area}, testenv.WithTable(api.Table))
	token, _ := served.Token(t, "demoLocAlpha00000001")
	resp := served.Do(t, testenv.Request{Method: "GET", Path: "/contacts/?locationId=demoLocAlpha00000001", Token: token})
	require.Equal(t, http.StatusOK, resp.Status, "%s", resp.Body)
	assert.Contains(t, string(resp.Body), `"id":"ctcSeedOne0000000001"`, "the contact was loaded")

	t.Run("a voice-AI credential in the file is sealed with the configured key", func(t *testing.T) {
		keyFile := filepath.Join(t.TempDir(), "secrets.key")
		c.env["SECRETS_LOCAL_KEY_FILE"] = keyFile
		defer delete(c.env, "SECRETS_LOCAL_KEY_FILE")
		code, _, errOut := c.run("seed", "--file", writeFile(t, "voice.json", `{"agents":[{"id":"agentSeed","locationId":"demoLocAlpha00000001",
			"name":"Seeded","dateAdded":"2026-01-02T03:04:05.000Z","actions":[{"id":"actSeed","actionType":"CUSTOM_ACTION","name":"Seeded",
			"actionParameters":{"triggerPrompt":"p","triggerMessage":"m","apiDetails":{"url":"https://api.example.org/x","method":"POST",
			"authenticationRequired":true,"authenticationValue":"seeded-through-the-cli"}}}]}]}`))
		require.Equal(t, exitOK, code, errOut)
		a, _, err := voiceai.NewAgents(api.Table).GetAction(context.Background(), "demoLocAlpha00000001", "agentSeed", "actSeed")
		require.NoError(t, err)
		require.NotNil(t, a)
		key, err := secrets.LoadOrCreateKeyFile(keyFile)
		require.NoError(t, err)
		local, err := secrets.NewLocalKey(key)
		require.NoError(t, err)
		value, err := voiceai.OpenCredential(context.Background(), secrets.NewKeeper(local), a)
		require.NoError(t, err)
		assert.Equal(t, "seeded-through-the-cli", value)
	})
	t.Run("a part's own demo file is a dataset file", func(t *testing.T) {
		code, out, errOut := c.run("seed", "--file", filepath.Join("..", "..", "internal", "demo", "data", "accounts.json"))
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "loaded 3 accounts, parts [accounts]")
	})
}

func TestSeedLoadsADatasetWithoutTheDemoAccountsWithoutTheirTokens(t *testing.T) {
	c, _ := setup(t)
	code, out, errOut := c.run("seed", "--file", writeFile(t, "own.json", `{"accounts":[{"id":"acctOwn","companyId":"coOwn","name":"Own"}]}`))
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "loaded 1 accounts, parts [accounts]")
	assert.NotContains(t, out, "bpt_")
	assert.Contains(t, errOut, "the dataset does not hold that demo account")
}

func TestSeedUsageErrorsExitTwoWithOneLineOfUsage(t *testing.T) {
	c, _ := setup(t)
	good := writeFile(t, "good.json", `{"accounts":[]}`)
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"an unknown flag", []string{"seed", "--fil", good}, exitUsage, "flag provided but not defined: -fil"},
		{"--file without its value", []string{"seed", "--file"}, exitUsage, "flag needs an argument: -file"},
		{"--file with an empty value", []string{"seed", "--file="}, exitUsage, "--file needs a file name"},
		{"an argument the command does not take", []string{"seed", "--file", good, "extra"}, exitUsage, `unexpected argument "extra"`},
		{"a name no part uses", []string{"seed", "--file", writeFile(t, "unknown.json", `{"accounts":[],"gadgets":[]}`)}, exitUsage,
			`"gadgets" names no part's records; a dataset file holds accounts, agents,`},
		{"an area's name instead of its records' name", []string{"seed", "--file", writeFile(t, "area.json", `{"voice-ai":{"agents":[]}}`)}, exitUsage,
			`"voice-ai" names no part's records`},
		{"a file that does not exist", []string{"seed", "--file", filepath.Join(t.TempDir(), "missing.json")}, exitError, "no such file"},
		{"a file that is not JSON", []string{"seed", "--file", writeFile(t, "bad.json", `{"accounts":[`)}, exitError, "a dataset is one JSON object"},
		{"a JSON array", []string{"seed", "--file", writeFile(t, "array.json", `[]`)}, exitError, "it is not a JSON object"},
		{"a name given twice", []string{"seed", "--file", writeFile(t, "twice.json", `{"accounts":[],"accounts":[]}`)}, exitError, `"accounts" is given more than once`},
		{"records that break their part's rules", []string{"seed", "--file", writeFile(t, "broken.json", `{"contacts":[{"id":"x#y"}]}`)}, exitError, "seed contacts"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := c.run(tc.args...)
			assert.Equal(t, tc.code, code, errOut)
			assert.Contains(t, errOut, tc.msg)
			assert.Empty(t, out)
			if tc.code == exitUsage {
				assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
				assert.Contains(t, errOut, "(usage: platformctl seed [--file F])")
			}
		})
	}
}

func TestTokensListShowsEveryTimeToTheMinuteSoALastUseNeverPrecedesTheCreation(t *testing.T) {
	c, api := setup(t)
	api.Clock.Set(time.Date(2026, 11, 24, 21, 58, 41, 500_000_000, time.UTC))
	api.Account(t, "acctMinute", "coMinute")
	token, tokenID := api.Token(t, "acctMinute")
	api.Clock.Advance(9 * time.Second) // used in the minute it was made: the use is recorded as 21:58
	require.Equal(t, http.StatusOK, ping(t, api, token).Status)
	_, revokedID := api.Token(t, "acctMinute")
	require.Equal(t, exitOK, first(c.run("tokens", "revoke", revokedID)))

	code, out, errOut := c.run("tokens", "list", "--account", "acctMinute")
	require.Equal(t, exitOK, code, errOut)
	rows := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		fields := strings.Fields(line)
		rows[fields[0]] = fields
	}
	// ID KIND NAME CREATED REVOKED EXPIRES LAST USED SCOPES
	used := rows[tokenID]
	require.NotNil(t, used, out)
	assert.Equal(t, []string{"2026-11-24T21:58Z", "-", "-", "2026-11-24T21:58Z"}, used[3:7], "created and last used, to the same minute")
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\dZ$`, rows[revokedID][4], "the revocation (the CLI's own clock) to the minute too")
}

func TestEventsListPrintsTheEventsOfTheCLIsChangesNewestFirstAndPages(t *testing.T) {
	c, _ := setup(t)
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctE", "--company", "coE", "--name", "E")))
	for _, who := range []string{"ann", "bob", "cy"} {
		code, _, errOut := c.run("users", "create", "--company", "coE", "--email", who+"@e.example", "--name", who, "--role", "user", "--accounts", "acctE")
		require.Equal(t, exitOK, code, errOut)
	}
	code, out, errOut := c.run("events", "list", "--company", "coE", "--limit", "2")
	require.Equal(t, exitOK, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2)
	for _, l := range lines {
		assert.Regexp(t, `^\{"type":"UserCreate","companyId":"coE","id":"[A-Za-z0-9]{20}",.*"webhookId":"[0-9a-f]{24}","timestamp":"[^"]+","version":1\}$`, l)
	}
	_, cursor, ok := strings.Cut(errOut, "--cursor '")
	require.True(t, ok, "stderr names the next page as GET /events names it: %s", errOut)
	cursor = strings.TrimSuffix(strings.TrimSpace(cursor), "'")
	code, out, errOut = c.run("events", "list", "--company", "coE", "--limit", "2", "--cursor", cursor)
	require.Equal(t, exitOK, code, errOut)
	assert.Len(t, strings.Split(strings.TrimSpace(out), "\n"), 1, "the third user's event")
	assert.Contains(t, errOut, "no older one")

	code, out, _ = c.run("events", "list", "--account", "acctE")
	assert.Equal(t, exitOK, code)
	assert.Empty(t, out, "users are the company's events")
	code, _, errOut = c.run("events", "list", "--company", "coE", "--cursor", "USER#x")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--cursor is not a cursor")
	code, _, _ = c.run("events", "list", "--company", "coE", "--account", "acctE")
	assert.Equal(t, exitUsage, code, "one owner")
	code, out, _ = c.run("events", "list", "--company", "coE", "--status", "pending")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, 3, strings.Count(out, "UserCreate"), "no deliverer has handed them on yet")
	code, _, errOut = c.run("events", "list", "--company", "coE", "--status", "lost")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "--status must be one of: pending, delivered, failed, unrouted")

	t.Run("the times are GET /events' from, to and startAfter", func(t *testing.T) {
		var stamps []time.Time
		for _, l := range lines {
			var ev struct{ Timestamp time.Time }
			require.NoError(t, json.Unmarshal([]byte(l), &ev))
			stamps = append(stamps, ev.Timestamp)
		}
		newest := stamps[0].UTC().Format(time.RFC3339Nano)
		code, out, errOut := c.run("events", "list", "--company", "coE", "--from", newest)
		require.Equal(t, exitOK, code, errOut)
		assert.Equal(t, lines[0], strings.TrimSpace(out), "from includes its instant")
		code, out, _ = c.run("events", "list", "--company", "coE", "--start-after", newest)
		require.Equal(t, exitOK, code)
		assert.Empty(t, out, "startAfter excludes it: nothing is newer")
		code, out, _ = c.run("events", "list", "--company", "coE", "--to", newest)
		require.Equal(t, exitOK, code)
		assert.Equal(t, 2, strings.Count(out, "UserCreate"), "to excludes its instant")
	})
	t.Run("a type is checked: an unknown one, or another owner's, is a usage error", func(t *testing.T) {
		for _, tc := range []struct{ args, want string }{
			{"--company coE --type UserCreat", `"UserCreat" is not an event type (one of: `},
			{"--company coE --type TaskDelete", `"TaskDelete" is an account's event: list it with --account`},
			{"--account acctE --type UserCreate", `"UserCreate" is a company's event: list it with --company`},
		} {
			code, out, errOut := c.run(append([]string{"events", "list"}, strings.Fields(tc.args)...)...)
			assert.Equal(t, exitUsage, code, tc.args)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.want)
		}
	})
	t.Run("the flags of before are refused naming the API's", func(t *testing.T) {
		for old, now := range map[string]string{"--since": "--from", "--until": "--to", "--after": "--cursor"} {
			code, _, errOut := c.run("events", "list", "--company", "coE", old+"=2026-11-27T10:00:00Z")
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, errOut, "platformctl events list: "+old+" is now "+now+" (usage: platformctl events list")
		}
	})
}

func TestAGroupOfCommandsWithoutAKnownVerbListsItsCommands(t *testing.T) {
	// No engine is needed: the command line is answered before connecting.
	c := ctl{t: t, env: map[string]string{"DYNAMODB_ENDPOINT": "http://127.0.0.1:1", "TABLE_NAME": "none"}}
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"apps alone lists the apps commands", []string{"apps"}, exitUsage,
			[]string{"platformctl apps: give one of its commands:", "platformctl apps create --company ID", "platformctl apps deliveries APP_ID"}},
		{"tokens alone lists the tokens commands", []string{"tokens"}, exitUsage,
			[]string{"platformctl tokens create --account ID", "platformctl tokens audit --account ID"}},
		{"portal alone lists portal invite", []string{"portal"}, exitUsage, []string{"platformctl portal invite --company ID"}},
		{"a group's help lists its commands and succeeds", []string{"contacts", "--help"}, exitOK, []string{"platformctl contacts reindex"}},
		{"events alone lists events list", []string{"events"}, exitUsage, []string{"platformctl events: give one of its commands:", "platformctl events list --account ID"}},
		{"an unknown verb is named with the group's commands", []string{"apps", "remove"}, exitUsage,
			[]string{`unknown command "apps remove"; the apps commands:`, "platformctl apps delete APP_ID"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := c.run(tc.args...)
			assert.Equal(t, tc.code, code)
			assert.Empty(t, out, "usage goes to stderr")
			for _, want := range tc.want {
				assert.Contains(t, errOut, want)
			}
			assert.NotContains(t, errOut, `unknown command "`+tc.args[0]+`"`)
		})
	}
}

func TestACommandOnAnEndpointWhereNothingAnswersSaysSoInOneLine(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	endpoint := "http://" + ln.Addr().String()
	require.NoError(t, ln.Close())
	c := ctl{t: t, env: map[string]string{"DYNAMODB_ENDPOINT": endpoint, "TABLE_NAME": "none"}}

	code, out, errOut := c.run("tokens", "list", "--account", "acct1")
	assert.Equal(t, exitError, code)
	assert.Empty(t, out)
	assert.Equal(t, "platformctl: nothing answers at DYNAMODB_ENDPOINT "+endpoint+" (connect: connection refused): start DynamoDB Local there, or unset DYNAMODB_ENDPOINT (make run then starts an engine of its own)\n", errOut)
}

// Every command the usage text lists answers its name alone (a group with
// its commands, seed by running), never "unknown command": the group table
// and the usage text name the same commands.
func TestEveryCommandTheUsageListsIsKnown(t *testing.T) {
	c := ctl{t: t, env: map[string]string{"DYNAMODB_ENDPOINT": "http://127.0.0.1:1", "TABLE_NAME": "none"}}
	seen := map[string]bool{}
	for _, line := range strings.Split(usage, "\n") {
		if !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "   ") {
			continue // a description's line
		}
		name := strings.Fields(line)[0]
		if seen[name] {
			continue
		}
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			_, _, errOut := c.run(name)
			assert.NotContains(t, errOut, "unknown command")
		})
	}
	assert.True(t, seen["events"] && seen["webhooks"] && seen["seed"], "the usage's commands were read: %v", seen)
}
