package marketplace_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
)

// receivable writes what Receives returns as "Type: scope scope".
func receivable(list []marketplace.Receivable) map[string][]string {
	out := map[string][]string{}
	for _, r := range list {
		out[r.Type.Name] = r.Scopes
	}
	return out
}

func TestAnAppReceivesTheTypesItChoseThatAnInstallsScopesRead(t *testing.T) {
	app := marketplace.App{WebhookURL: "https://app.example.com/hooks", Target: marketplace.TargetLocation,
		Scopes: []string{"contacts.write", "products.readonly", "medias.readonly", "users.readonly"},
		Events: []string{"TaskDelete", "NoteCreate", "ShippingZoneUpdate", "MediaFileUpdate", "UserCreate"}}
	for _, tc := range []struct {
		name    string
		target  string
		granted []string
		want    map[string][]string
	}{
		{"every scope asked: each type with the scopes that carry it, INSTALL and UNINSTALL last", marketplace.TargetLocation, app.Scopes, map[string][]string{
			"TaskDelete": {"contacts.write"}, "NoteCreate": {"contacts.write"}, "ShippingZoneUpdate": {"products.readonly"}, "MediaFileUpdate": {"medias.readonly"},
			"INSTALL": nil, "UNINSTALL": nil,
		}},
		{"an install granted fewer scopes sends fewer types", marketplace.TargetLocation, []string{"medias.readonly"}, map[string][]string{
			"MediaFileUpdate": {"medias.readonly"}, "INSTALL": nil, "UNINSTALL": nil,
		}},
		{"a company app receives its company's events too", marketplace.TargetCompany, []string{"users.readonly"}, map[string][]string{
			"UserCreate": {"users.readonly"}, "INSTALL": nil, "UNINSTALL": nil,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := app
			a.Target = tc.target
			got := a.Receives(tc.granted)
			assert.Equal(t, tc.want, receivable(got))
			assert.Equal(t, "UNINSTALL", got[len(got)-1].Type.Name)
		})
	}
	t.Run("an app without a webhook URL receives nothing", func(t *testing.T) {
		a := app
		a.WebhookURL = ""
		assert.Empty(t, a.Receives(app.Scopes))
	})
}

// TestAnAppsEventsAreRefusedWhenItCouldNeverReceiveThem through every
// path that sets them: creation and update. The registry decides which
// types exist (the scopes that read TaskDelete come from it).
func TestAnAppsEventsAreRefusedWhenItCouldNeverReceiveThem(t *testing.T) {
	require.NotEmpty(t, events.Registry)
	ctx := context.Background()
	cases := []struct {
		name    string
		change  func(*marketplace.NewApp)
		reasons []string
	}{
		{"a type of the registry its scopes read is taken", func(n *marketplace.NewApp) { n.Events = []string{"TaskDelete", "TaskDelete"} }, nil},
		{"a resource's .write scope reads its .readonly events", func(n *marketplace.NewApp) {
			n.Scopes, n.Events = []string{"products.write"}, []string{"ShippingRateUpdate"}
		}, nil},
		{"a type none of its scopes reads", func(n *marketplace.NewApp) { n.Events = []string{"MediaFolderUpdate"} },
			[]string{`"MediaFolderUpdate" needs the scope medias.readonly or medias.write, which the app does not ask for: it would never receive it`}},
		{"a company's event for an app installed per account", func(n *marketplace.NewApp) { n.Scopes, n.Events = []string{"users.readonly"}, []string{"UserCreate"} },
			[]string{`"UserCreate" is a company's event, which an app installed per account (target location) never receives: only an app of target company does`}},
		{"a company's event for a company app", func(n *marketplace.NewApp) {
			n.Scopes, n.Events, n.Target = []string{"users.readonly"}, []string{"UserCreate"}, marketplace.TargetCompany
		}, nil},
		{"a routed type, which reaches every app anyway", func(n *marketplace.NewApp) { n.Events = []string{"INSTALL"} },
			[]string{`"INSTALL" is not an event type an app chooses (docs/events.md lists them; INSTALL and UNINSTALL reach every app)`}},
		{"a name of no type", func(n *marketplace.NewApp) { n.Events = []string{"TaskDeleted"} }, []string{`"TaskDeleted" is not an event type an app chooses`}},
		{"any type without a webhook URL", func(n *marketplace.NewApp) { n.WebhookURL = "" }, []string{"events need a webhook-url: an app without one receives no event"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store, _ := newStore(t, false)
			n := sampleApp()
			n.Events = []string{"TaskDelete"}
			tc.change(&n)
			created, _, err := store.Create(ctx, n)
			if tc.reasons == nil {
				require.NoError(t, err)
				assert.Equal(t, dedupeList(n.Events), created.Events)
				return
			}
			requireRefused(t, err, tc.reasons)
			list, err := store.List(ctx, company)
			require.NoError(t, err)
			assert.Empty(t, list, "nothing stored")
		})
	}

	t.Run("an update is held to the app as created, and writes nothing when refused", func(t *testing.T) {
		store, _ := newStore(t, false)
		created, _, err := store.Create(ctx, sampleApp())
		require.NoError(t, err)
		on := true
		_, err = store.Update(ctx, created.ID, marketplace.AppChange{RequirePKCE: &on, Events: &[]string{"TaskDelete", "CouponDelete"}}, auth.Operator)
		requireRefused(t, err, []string{`"CouponDelete" needs the scope payments/coupons.write`})
		got, err := store.Get(ctx, created.ID)
		require.NoError(t, err)
		assert.Equal(t, created, got, "PKCE unchanged too")

		updated, err := store.Update(ctx, created.ID, marketplace.AppChange{RequirePKCE: &on, Events: &[]string{"TaskDelete"}}, auth.Operator)
		require.NoError(t, err)
		assert.Equal(t, []string{"TaskDelete"}, updated.Events)
		assert.True(t, updated.RequirePKCE)
		got, err = store.Get(ctx, created.ID)
		require.NoError(t, err)
		assert.Equal(t, updated, got)
	})
}

func requireRefused(t *testing.T, err error, reasons []string) {
	t.Helper()
	a, ok := apierror.As(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, apierror.CodeValidation, a.Code)
	require.Len(t, a.Violations, len(reasons), a.Violations)
	for i, r := range reasons {
		assert.Contains(t, a.Violations[i], r)
	}
}

func dedupeList(in []string) []string {
	var out []string
	for _, s := range in {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}
