package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/storage"
)

func TestAnOperatorManagesAnAccountsWebhookEndpoints(t *testing.T) {
	c, api := setup(t)
	c.env["SECRETS_LOCAL_KEY_FILE"] = filepath.Join(t.TempDir(), "secrets.key")
	code, _, errOut := c.run("accounts", "create", "--id", "acctHooks", "--company", "coHooks", "--name", "Hooks")
	require.Equal(t, exitOK, code, errOut)

	code, out, errOut := c.run("webhooks", "add", "--account", "acctHooks", "--url", "http://127.0.0.1:9/in", "--events", "TaskDelete, CouponDelete", "--description", "CRM sync")
	require.Equal(t, exitOK, code, errOut)
	var added endpoints.Endpoint
	require.NoError(t, json.Unmarshal([]byte(out), &added), "stdout is the endpoint as JSON")
	assert.Equal(t, []string{"TaskDelete", "CouponDelete"}, added.Events)
	assert.True(t, added.Enabled)
	assert.Contains(t, errOut, "webhook endpoint "+added.ID+" added to account acctHooks (enabled)")

	t.Run("list shows each endpoint with its state and types", func(t *testing.T) {
		code, out, _ := c.run("webhooks", "list", "--account", "acctHooks")
		require.Equal(t, exitOK, code)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.Len(t, lines, 2, out)
		assert.Regexp(t, `^`+added.ID+`\s+http://127.0.0.1:9/in\s+enabled\s+-\s+-\s+TaskDelete,CouponDelete\s+CRM sync$`, lines[1])
	})
	t.Run("update changes only what it is given", func(t *testing.T) {
		code, out, errOut := c.run("webhooks", "update", added.ID, "--account", "acctHooks", "--events", "CouponDelete", "--enabled=false")
		require.Equal(t, exitOK, code, errOut)
		var e endpoints.Endpoint
		require.NoError(t, json.Unmarshal([]byte(out), &e))
		assert.Equal(t, []string{"CouponDelete"}, e.Events)
		assert.False(t, e.Enabled)
		assert.Equal(t, endpoints.DisabledByAdmin, e.DisabledReason)
		assert.Equal(t, "CRM sync", e.Description, "kept")
		assert.Contains(t, errOut, "(disabled by an admin)")
		code, out, _ = c.run("webhooks", "update", "--account", "acctHooks", added.ID, "--enabled=true", "--description", "")
		require.Equal(t, exitOK, code)
		var on endpoints.Endpoint
		require.NoError(t, json.Unmarshal([]byte(out), &on))
		assert.True(t, on.Enabled)
		assert.Empty(t, on.Description, `--description "" clears it`)
	})
	t.Run("a rule the endpoint breaks is a usage error in one line naming it", func(t *testing.T) {
		for args, want := range map[string]string{
			"--url http://10.0.0.1/in --events TaskDelete":   "platformctl: url must be an https URL",
			"--url https://hooks.example.com/ --events Nope": `platformctl: "Nope" is not an event type`,
			// A company's event: no account's endpoint would ever receive it.
			"--url https://hooks.example.com/ --events UserCreate": `platformctl: "UserCreate" is not an event type an account receives`,
			"--url https://hooks.example.com/ --events ,":          "platformctl: events must name at least one event type",
		} {
			code, out, errOut := c.run(append([]string{"webhooks", "add", "--account", "acctHooks"}, strings.Fields(args)...)...)
			assert.Equal(t, exitUsage, code, "as for an app's unknown event type: %s", args)
			assert.Empty(t, out)
			assert.Contains(t, errOut, want, args)
			assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, "one line: %s", errOut)
		}
		code, _, errOut := c.run("webhooks", "add", "--account", "acctNope", "--url", "https://hooks.example.com/", "--events", "TaskDelete")
		assert.Equal(t, exitError, code)
		assert.Contains(t, errOut, "account acctNope does not exist")
	})
	t.Run("another account's endpoint is no such endpoint", func(t *testing.T) {
		code, _, errOut := c.run("webhooks", "remove", added.ID, "--account", "acctOther")
		assert.Equal(t, exitError, code)
		assert.Contains(t, errOut, "platformctl: no such webhook endpoint in this account")
	})
	t.Run("remove removes it, and each change is the operator's in the audit list", func(t *testing.T) {
		code, out, errOut := c.run("webhooks", "remove", added.ID, "--account", "acctHooks")
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "removed")
		code, out, _ = c.run("webhooks", "list", "--account", "acctHooks")
		require.Equal(t, exitOK, code)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(out), "\n")+1, "the header alone")
		entries, err := api.Server.Tokens.Audit(context.Background(), "acctHooks", 10)
		require.NoError(t, err)
		var actions []string
		for _, e := range entries {
			actions = append(actions, e.Action)
			assert.Equal(t, auth.Operator, e.By)
		}
		assert.Equal(t, []string{endpoints.AuditRemoved, endpoints.AuditUpdated, endpoints.AuditUpdated, endpoints.AuditAdded}, actions)
	})
}

// seedDelivery writes a delivery of endpoint e made at, in status.
func seedDelivery(t *testing.T, api *testenv.Env, e endpoints.Endpoint, n int, status deliveries.State, at time.Time) string {
	id := fmt.Sprintf("b%023d", n)
	stamp := clock.Timestamp(at)
	key := storage.Key{PK: deliveries.PK(e.ID), SK: "EVENT#" + clock.Timestamp(at) + "#" + id}
	require.NoError(t, api.Table.Put(context.Background(), deliveries.Item{Key: key, Delivery: deliveries.Delivery{
		ID: id, EndpointID: e.ID, Type: "TaskDelete", URL: e.URL, Body: `{"type":"TaskDelete"}`, CreatedAt: stamp, Status: status,
		Attempts: []deliveries.Attempt{{At: stamp, Status: 502}},
	}}, nil))
	return id
}

func TestAnOperatorListsAnEndpointsDeliveriesAndRedeliversThem(t *testing.T) {
	c, api := setup(t)
	ctx := context.Background()
	store := endpoints.New(api.Table, clock.System{}, false).Sealing(api.Deps.Secrets)
	e, err := store.Add(ctx, "acctD", endpoints.Input{URL: func() *string { s := "https://hooks.example.com/in"; return &s }(), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	now := time.Now()
	old := seedDelivery(t, api, e, 1, deliveries.Failed, now.Add(-5*24*time.Hour))
	recent := seedDelivery(t, api, e, 2, deliveries.Failed, now.Add(-2*time.Hour))
	done := seedDelivery(t, api, e, 3, deliveries.Delivered, now.Add(-time.Hour))

	t.Run("deliveries are listed newest first with the receiver's answer, a page at a time", func(t *testing.T) {
		code, out, errOut := c.run("webhooks", "deliveries", e.ID, "--account", "acctD", "--limit", "2")
		require.Equal(t, exitOK, code, errOut)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.Len(t, lines, 3, out)
		assert.True(t, strings.HasPrefix(lines[1], done), lines[1])
		assert.Contains(t, lines[2], "HTTP 502")
		assert.Contains(t, errOut, "2 deliveries; the next page: --cursor '")
		cursor := strings.TrimSuffix(strings.SplitN(errOut, "--cursor '", 2)[1], "'\n")
		code, out, errOut = c.run("webhooks", "deliveries", e.ID, "--account", "acctD", "--cursor", cursor)
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, old)
		assert.Contains(t, errOut, "1 deliveries; no older one")
		code, out, _ = c.run("webhooks", "deliveries", e.ID, "--account", "acctD", "--status", "delivered")
		require.Equal(t, exitOK, code)
		assert.NotContains(t, out, old)
		assert.Contains(t, out, done)
	})
	t.Run("every failed delivery since a time is queued again, saying how many", func(t *testing.T) {
		code, out, errOut := c.run("webhooks", "redeliver", e.ID, "--account", "acctD", "--failed-since", now.Add(-24*time.Hour).UTC().Format(time.RFC3339))
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "1 failed delivery since")
		code, out, _ = c.run("webhooks", "deliveries", e.ID, "--account", "acctD", "--status", "failed")
		require.Equal(t, exitOK, code)
		assert.Contains(t, out, old, "the one before the time stays failed")
		assert.NotContains(t, out, recent)
	})
	t.Run("one delivery is queued again; a pending one is not queued twice", func(t *testing.T) {
		code, out, errOut := c.run("webhooks", "redeliver", e.ID, "--account", "acctD", "--event", done)
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, "delivery "+done+" queued again")
		code, _, errOut = c.run("webhooks", "redeliver", e.ID, "--account", "acctD", "--event", done)
		assert.Equal(t, exitError, code)
		assert.Contains(t, errOut, "platformctl: the event is still being delivered")
		code, _, errOut = c.run("webhooks", "redeliver", e.ID, "--account", "acctD", "--event", "b00000000000000000000099")
		assert.Equal(t, exitError, code)
		assert.Contains(t, errOut, "platformctl: no such delivery (deliveries are kept 30 days)")
	})
}

// A redelivery queues at most 100 failed deliveries a run, saying how many
// stay failed, and an endpoint's deliveries at most 500 an hour.
func TestAWebhooksRedeliveryIsBoundedAndSaysWhatIsLeft(t *testing.T) {
	c, api := setup(t)
	ctx := context.Background()
	store := endpoints.New(api.Table, clock.System{}, false).Sealing(api.Deps.Secrets)
	e, err := store.Add(ctx, "acctD", endpoints.Input{URL: func() *string { s := "https://hooks.example.com/in"; return &s }(), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	now := time.Now()
	for i := range 130 {
		seedDelivery(t, api, e, i+1, deliveries.Failed, now.Add(-3*time.Hour+time.Duration(i)*time.Second))
	}
	since := now.Add(-4 * time.Hour).UTC().Format(time.RFC3339)
	code, out, errOut := c.run("webhooks", "redeliver", e.ID, "--account", "acctD", "--failed-since", since)
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, "100 failed deliveries since "+since+" queued again; 30 more stay failed: one run sends at most 100, run it again for the next\n", out)

	hour := storage.Key{PK: deliveries.PK(e.ID), SK: "REDELIVERED#" + time.Now().UTC().Format("2006-01-02T15")}
	require.NoError(t, api.Table.Update(ctx, hour, expression.Add(expression.Name("count"), expression.Value(400)), nil))
	code, _, errOut = c.run("webhooks", "redeliver", e.ID, "--account", "acctD", "--failed-since", since)
	assert.Equal(t, exitError, code)
	assert.Contains(t, errOut, "platformctl: this receiver's deliveries were already sent again 500 times this hour, the most an hour allows: nothing was queued; try again after ")
}

// webhooks list says an endpoint failing every attempt is failing, since
// when, with its last success and last answer; webhooks retry makes a
// pending delivery due now.
func TestWebhooksListShowsHealthAndRetryMakesAPendingDeliveryDueNow(t *testing.T) {
	c, api := setup(t)
	ctx := context.Background()
	store := endpoints.New(api.Table, clock.System{}, false).Sealing(api.Deps.Secrets)
	e, err := store.Add(ctx, "acctD", endpoints.Input{URL: func() *string { s := "https://hooks.example.com/in"; return &s }(), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	now := time.Now().UTC().Truncate(time.Second)
	seedDelivery(t, api, e, 1, deliveries.Failed, now.Add(-2*time.Hour))
	ok := now.Add(-3 * time.Hour)
	key := storage.Key{PK: deliveries.PK(e.ID), SK: "EVENT#" + clock.Timestamp(ok) + "#b00000000000000000000009"}
	require.NoError(t, api.Table.Put(ctx, deliveries.Item{Key: key, Delivery: deliveries.Delivery{
		ID: "b00000000000000000000009", EndpointID: e.ID, Type: "TaskDelete", URL: e.URL, Body: `{}`, CreatedAt: clock.Timestamp(ok), Status: deliveries.Delivered,
		Attempts: []deliveries.Attempt{{At: clock.Timestamp(ok), Status: 204}},
	}}, nil))
	pending := seedDelivery(t, api, e, 2, deliveries.Pending, now.Add(-time.Hour))
	pendingKey := storage.Key{PK: deliveries.PK(e.ID), SK: "EVENT#" + clock.Timestamp(now.Add(-time.Hour)) + "#" + pending}
	require.NoError(t, api.Table.Update(ctx, pendingKey, expression.Set(expression.Name("nextAttemptAt"), expression.Value(clock.Timestamp(now.Add(2*time.Hour)))), nil))
	since := now.Add(-2 * time.Hour)
	require.NoError(t, api.Table.Update(ctx, storage.Key{PK: storage.AccountPK("acctD"), SK: "WEBHOOK#" + e.ID},
		expression.Set(expression.Name("failingSince"), expression.Value(clock.Timestamp(since))), nil))

	code, out, errOut := c.run("webhooks", "list", "--account", "acctD")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "LAST SUCCESS")
	assert.Contains(t, out, "failing since "+since.Format(time.RFC3339)+"  "+ok.Format(time.RFC3339)+"  HTTP 502 at "+now.Add(-time.Hour).Format(time.RFC3339))

	code, out, errOut = c.run("webhooks", "retry", e.ID, "--account", "acctD", "--event", pending)
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, "delivery "+pending+" is due now: its next attempt is within a minute\n", out)
	it, err := storage.Get[deliveries.Item](ctx, api.Table, pendingKey)
	require.NoError(t, err)
	assert.Less(t, it.NextAt, clock.Timestamp(now.Add(time.Minute)), "due now")
	code, _, errOut = c.run("webhooks", "retry", e.ID, "--account", "acctD", "--event", "b00000000000000000000009")
	assert.Equal(t, exitError, code)
	assert.Contains(t, errOut, "platformctl: the delivery is not pending: it ended, so it is redelivered rather than retried")
	code, _, errOut = c.run("webhooks", "retry", e.ID, "--account", "acctD")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "give --event")
}

// webhooks test writes a test event for the deliverer, waits for its
// answer, and says it was not tried when no deliverer ran meanwhile.
func TestWebhooksTestQueuesATestEventAndSaysWhatBecameOfIt(t *testing.T) {
	c, api := setup(t)
	ctx := context.Background()
	store := endpoints.New(api.Table, clock.System{}, false).Sealing(api.Deps.Secrets)
	e, err := store.Add(ctx, "acctD", endpoints.Input{URL: func() *string { s := "https://hooks.example.com/in"; return &s }(), Events: &[]string{"TaskDelete"}}, auth.Operator)
	require.NoError(t, err)
	code, out, errOut := c.run("webhooks", "test", e.ID, "--account", "acctD", "--wait", "300ms")
	require.Equal(t, exitOK, code, errOut)
	assert.Regexp(t, `^test event [0-9a-f]{24} queued, not tried within 300ms \(is a deliverer running\? make run has one\): webhooks deliveries shows its answer\n$`, out)
	list, _, err := store.Deliveries(ctx, "acctD", e.ID, "", 10, "")
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, deliveries.TestType, list[0].Type)
	assert.Equal(t, deliveries.Pending, list[0].Status, "due now, for the deliverer")

	off := false
	_, err = store.Update(ctx, "acctD", e.ID, endpoints.Input{Enabled: &off}, auth.Operator)
	require.NoError(t, err)
	code, _, errOut = c.run("webhooks", "test", e.ID, "--account", "acctD")
	assert.Equal(t, exitError, code)
	assert.Equal(t, "platformctl: the endpoint is disabled, so a test event would not be sent to it: enable it first\n", errOut)
}

func TestWebhooksUsageErrorsExitTwoNamingTheCommand(t *testing.T) {
	c, _ := setup(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"add without an account", []string{"webhooks", "add", "--url", "https://x.example.com/"}, "webhooks add: --account is required (usage: platformctl webhooks add --account ID"},
		{"update without an id", []string{"webhooks", "update", "--account", "a", "--enabled=false"}, "webhooks update: give the endpoint id"},
		{"update without a change", []string{"webhooks", "update", "0123456789abcdef01234567", "--account", "a"}, "webhooks update: give what to change"},
		{"redeliver without what", []string{"webhooks", "redeliver", "0123456789abcdef01234567", "--account", "a"}, "webhooks redeliver: give --event or --failed-since"},
		{"redeliver with a time that is not one", []string{"webhooks", "redeliver", "0123456789abcdef01234567", "--account", "a", "--failed-since", "yesterday"}, "--failed-since must be an RFC 3339 time"},
		{"deliveries in a status there is none of", []string{"webhooks", "deliveries", "0123456789abcdef01234567", "--account", "a", "--status", "lost"}, "--status must be pending, delivered or failed"},
		{"deliveries paged with the old flag", []string{"webhooks", "deliveries", "0123456789abcdef01234567", "--account", "a", "--before", "EVENT#x"}, "webhooks deliveries: --before is now --cursor"},
		{"an unknown verb", []string{"webhooks", "enable"}, "platformctl webhooks redeliver ID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := c.run(tc.args...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.want)
		})
	}
}

// TestAnOperatorRedeliversAnAppsFailedDeliveries is the recovery of a
// marketplace app whose receiver was down past its 3 days of retries.
func TestAnOperatorRedeliversAnAppsFailedDeliveries(t *testing.T) {
	c, api := setup(t)
	ctx := context.Background()
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctR", "--company", "coR", "--name", "R")))
	code, out, errOut := c.run("apps", "create", "--company", "coR", "--name", "Bridge", "--redirect-uri", "https://bridge.example.com/cb",
		"--scopes", "contacts.readonly", "--webhook-url", "https://bridge.example.com/hooks", "--events", "TaskDelete")
	require.Equal(t, exitOK, code, errOut)
	var app struct{ AppID string }
	require.NoError(t, json.Unmarshal([]byte(out), &app))
	now := time.Now()
	seed := func(n int, status deliveries.State, at time.Time) storage.Key {
		id := fmt.Sprintf("c%023d", n)
		stamp := clock.Timestamp(at)
		key := storage.Key{PK: deliveries.PK(app.AppID), SK: "EVENT#" + clock.Timestamp(at) + "#" + id}
		require.NoError(t, api.Table.Put(ctx, deliveries.Item{Key: key, Delivery: deliveries.Delivery{
			ID: id, AppID: app.AppID, Type: "TaskDelete", URL: "https://bridge.example.com/hooks", Body: `{"type":"TaskDelete"}`,
			CreatedAt: stamp, Status: status, Attempts: []deliveries.Attempt{{At: stamp, Status: 503}},
		}}, nil))
		return key
	}
	old := seed(1, deliveries.Failed, now.Add(-6*24*time.Hour))
	recent := seed(2, deliveries.Failed, now.Add(-4*24*time.Hour))
	delivered := seed(3, deliveries.Delivered, now.Add(-time.Hour))
	status := func(key storage.Key) deliveries.State {
		it, err := storage.Get[deliveries.Item](ctx, api.Table, key)
		require.NoError(t, err)
		return it.Status
	}

	code, out, errOut = c.run("apps", "redeliver", app.AppID, "--failed-since", now.Add(-5*24*time.Hour).UTC().Format(time.RFC3339))
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "1 failed delivery since")
	assert.Equal(t, deliveries.Pending, status(recent), "failed since the time: due again")
	assert.Equal(t, deliveries.Failed, status(old), "failed before it: left")

	code, out, errOut = c.run("apps", "redeliver", app.AppID, "--event", "c00000000000000000000003")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "delivery c00000000000000000000003 queued again")
	assert.Equal(t, deliveries.Pending, status(delivered))
	code, _, errOut = c.run("apps", "redeliver", app.AppID, "--event", "c00000000000000000000003")
	assert.Equal(t, exitError, code, "not queued twice")
	assert.Contains(t, errOut, "the event is still being delivered")
	code, _, errOut = c.run("apps", "redeliver", app.AppID, "--event", "c00000000000000000000099")
	assert.Equal(t, exitError, code)
	assert.Contains(t, errOut, "no such delivery")
	code, _, errOut = c.run("apps", "redeliver", app.AppID)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "apps redeliver: give --event or --failed-since")

	entries, err := storage.QueryPartition[auth.AuditEntry](ctx, api.Table, storage.CompanyPK("coR"), "AUDIT#")
	require.NoError(t, err)
	redelivered := 0
	for _, e := range entries {
		if e.Action == auth.AuditRedelivered {
			redelivered++
			assert.Equal(t, app.AppID, e.TokenID)
			assert.Equal(t, auth.Operator, e.By)
		}
	}
	assert.Equal(t, 2, redelivered, "each redelivery in the company's audit list")
}
