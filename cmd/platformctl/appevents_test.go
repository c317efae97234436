package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/storage"
)

// TestAppsEventsThatTheAppCouldNeverReceiveAreRefusedWithTheReason: an
// app's scopes, target and webhook URL are fixed at its creation, so a type
// none of its scopes reads, a company's event for an app installed per
// account, or any type for an app without a webhook URL could never reach
// it. apps create and apps update refuse them (a usage error, exit 2, as
// an unknown type), naming each reason in one line, and change nothing.
func TestAppsEventsThatTheAppCouldNeverReceiveAreRefusedWithTheReason(t *testing.T) {
	c, api := setup(t)
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctEv", "--company", "coEv", "--name", "Ev")))
	create := func(extra ...string) (int, string, string) {
		return c.run(append([]string{"apps", "create", "--company", "coEv", "--name", "Bridge", "--redirect-uri", "https://bridge.example.com/cb"}, extra...)...)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		lines []string
	}{
		{"a company's event for an app installed per account",
			[]string{"--scopes", "users.readonly", "--webhook-url", "https://bridge.example.com/hooks", "--events", "UserCreate"},
			[]string{`"UserCreate" is a company's event, which an app installed per account (target location) never receives: only an app of target company does`}},
		{"a type none of its scopes reads, naming the scopes that would",
			[]string{"--scopes", "contacts.readonly", "--webhook-url", "https://bridge.example.com/hooks", "--events", "TaskDelete,ShippingZoneUpdate"},
			[]string{`"ShippingZoneUpdate" needs the scope products.readonly or products.write, which the app does not ask for: it would never receive it`}},
		{"a type readable only with its own write scope",
			[]string{"--scopes", "payments/integration.write", "--webhook-url", "https://bridge.example.com/hooks", "--events", "CouponDelete"},
			[]string{`"CouponDelete" needs the scope payments/coupons.write, which the app does not ask for`}},
		{"any type for an app without a webhook URL",
			[]string{"--scopes", "contacts.readonly", "--events", "TaskDelete"},
			[]string{"events need a webhook-url: an app without one receives no event"}},
		{"every reason at once, in one line",
			[]string{"--scopes", "contacts.readonly", "--webhook-url", "https://bridge.example.com/hooks", "--events", "UserCreate,CouponDelete,Nope"},
			[]string{`"UserCreate" is a company's event`, `; "CouponDelete" needs the scope payments/coupons.write`, `; "Nope" is not an event type an app chooses`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := create(tc.args...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, out, "no app, no secret")
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
			for _, l := range tc.lines {
				assert.Contains(t, errOut, l)
			}
		})
	}
	code, out, _ := c.run("apps", "list", "--company", "coEv")
	require.Equal(t, exitOK, code)
	assert.Equal(t, "[]\n", out, "nothing was created")

	t.Run("an app of target company receives its company's events", func(t *testing.T) {
		code, _, errOut := create("--scopes", "users.readonly", "--webhook-url", "https://bridge.example.com/hooks", "--events", "UserCreate", "--target", "company")
		assert.Equal(t, exitOK, code, errOut)
	})

	code, out, errOut := create("--scopes", "contacts.readonly,products.write", "--webhook-url", "https://bridge.example.com/hooks", "--events", "TaskDelete")
	require.Equal(t, exitOK, code, errOut)
	var app struct{ AppID string }
	require.NoError(t, json.Unmarshal([]byte(out), &app))
	stored := func() string {
		_, out, _ := c.run("apps", "list", "--company", "coEv")
		return out
	}

	t.Run("an update is checked against the app as it was created, and changes nothing when refused", func(t *testing.T) {
		code, out, errOut := c.run("apps", "update", app.AppID, "--events", "TaskDelete,UserCreate", "--require-pkce")
		assert.Equal(t, exitUsage, code)
		assert.Empty(t, out)
		assert.Contains(t, errOut, `platformctl: "UserCreate" is a company's event`)
		assert.Contains(t, stored(), `"events":["TaskDelete"],"target":"location","requirePkce":false`, "neither change was made")
	})
	t.Run("a choice it can receive is stored with PKCE in one change, audited once", func(t *testing.T) {
		code, out, errOut := c.run("apps", "update", app.AppID, "--events", "NoteCreate, ShippingZoneUpdate", "--require-pkce")
		require.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, `"events":["NoteCreate","ShippingZoneUpdate"]`, "products.write reads products.readonly's events")
		assert.Contains(t, out, `"requirePkce":true`)
		entries, err := storage.QueryPartition[auth.AuditEntry](context.Background(), api.Table, storage.CompanyPK("coEv"), "AUDIT#")
		require.NoError(t, err)
		require.Len(t, entries, 1)
		assert.Equal(t, auth.AuditEdited, entries[0].Action)
		assert.Contains(t, entries[0].Detail, "it receives NoteCreate, ShippingZoneUpdate")
	})
	t.Run("an empty choice leaves INSTALL and UNINSTALL", func(t *testing.T) {
		code, out, errOut := c.run("apps", "update", app.AppID, "--events", "")
		require.Equal(t, exitOK, code, errOut)
		assert.NotContains(t, out, `"events"`)
	})
}

// TestAppsDeliveriesAreListedNewestFirstAPageAtATime, as webhooks
// deliveries lists an endpoint's: --status, --limit, and --cursor from
// the line on stderr.
func TestAppsDeliveriesAreListedNewestFirstAPageAtATime(t *testing.T) {
	c, api := setup(t)
	require.Equal(t, exitOK, first(c.run("accounts", "create", "--id", "acctDl", "--company", "coDl", "--name", "Dl")))
	code, out, errOut := c.run("apps", "create", "--company", "coDl", "--name", "Bridge", "--redirect-uri", "https://bridge.example.com/cb",
		"--scopes", "contacts.readonly", "--webhook-url", "https://bridge.example.com/hooks", "--events", "TaskDelete")
	require.Equal(t, exitOK, code, errOut)
	var app struct{ AppID string }
	require.NoError(t, json.Unmarshal([]byte(out), &app))
	now := time.Now()
	var ids []string // oldest first
	for n, status := range []deliveries.State{deliveries.Failed, deliveries.Delivered, deliveries.Delivered} {
		id := fmt.Sprintf("d%023d", n)
		at := now.Add(time.Duration(n-3) * time.Hour)
		stamp := clock.Timestamp(at)
		require.NoError(t, api.Table.Put(context.Background(), deliveries.Item{Key: storage.Key{PK: deliveries.PK(app.AppID), SK: "EVENT#" + stamp + "#" + id},
			Delivery: deliveries.Delivery{ID: id, AppID: app.AppID, Type: "TaskDelete", URL: "https://bridge.example.com/hooks", Body: `{"type":"TaskDelete"}`,
				CreatedAt: stamp, Status: status, Attempts: []deliveries.Attempt{{At: stamp, Status: 503}}}}, nil))
		ids = append(ids, id)
	}
	firstColumn := func(out string) []string {
		var col []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			col = append(col, strings.Fields(l)[0])
		}
		return col
	}

	code, out, errOut = c.run("apps", "deliveries", app.AppID, "--limit", "2")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, []string{ids[2], ids[1]}, firstColumn(out), "newest first")
	_, cursor, ok := strings.Cut(errOut, "2 deliveries; the next page: --cursor '")
	require.True(t, ok, errOut)
	code, out, errOut = c.run("apps", "deliveries", app.AppID, "--cursor", strings.TrimSuffix(cursor, "'\n"))
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, []string{ids[0]}, firstColumn(out))
	assert.Contains(t, errOut, "1 deliveries; no older one")
	code, out, _ = c.run("apps", "deliveries", app.AppID, "--status", "failed")
	require.Equal(t, exitOK, code)
	assert.Equal(t, []string{ids[0]}, firstColumn(out))

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--status", "lost"}, "apps deliveries: --status must be pending, delivered or failed (usage: platformctl apps deliveries APP_ID"},
		{[]string{"--before", "EVENT#x"}, "apps deliveries: --before is now --cursor"},
		{[]string{"--cursor", "nope"}, "apps deliveries: --cursor is not a cursor apps deliveries printed"},
		{[]string{"--limit", "0"}, "--limit must be 1 to 1000"},
	} {
		code, out, errOut := c.run(append([]string{"apps", "deliveries", app.AppID}, tc.args...)...)
		assert.Equal(t, exitUsage, code, tc.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, tc.want)
	}
}
