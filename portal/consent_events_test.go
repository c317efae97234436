package portal_test

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/marketplace"
)

// TestTheConsentPageListsTheEventsTheAppWillReceiveWithTheScopesThatCarryThem:
// the admin sees, before allowing, what the app will be sent and through
// which scope; a scope that unlocks no operation but carries events says
// so instead of "unlocks no operation"; what the scopes asked do not read
// is not listed.
func TestTheConsentPageListsTheEventsTheAppWillReceiveWithTheScopesThatCarryThem(t *testing.T) {
	s := newSite(t)
	apps := marketplace.New(s.env.Server.Tokens, s.env.Clock, false)
	app, _, err := apps.Create(context.Background(), marketplace.NewApp{
		CompanyID: "co1", Name: "Listener", RedirectURIs: []string{appRedirect}, Target: marketplace.TargetLocation,
		Scopes: []string{"contacts.write", "products.readonly", "voice-ai-agent-goals.readonly"}, WebhookURL: "https://bridge.example.com/hooks",
		Events: []string{"TaskDelete", "NoteCreate", "ShippingZoneUpdate"},
	})
	require.NoError(t, err)
	b := s.browser(t)
	b.signIn("ada@co1.example")
	consent := func(scope string) (scopes, events map[string]string, body string) {
		p := b.get("/portal/oauth/chooselocation?" + authorizeQuery(app, scope))
		require.Equal(t, 200, p.status, p.body)
		return listItems(t, p.body, "consent-scopes"), listItems(t, p.body, "consent-events"), p.body
	}

	scopes, events, body := consent("contacts.write products.readonly voice-ai-agent-goals.readonly")
	assert.Regexp(t, `^contacts\.write unlocks DELETE /contacts/\{contactId\}/tasks/\{taskId\}, .* lets it receive TaskDelete, NoteCreate$`, scopes["contacts.write"],
		"its operations, then the events it carries")
	assert.Equal(t, "products.readonly lets it receive ShippingZoneUpdate", scopes["products.readonly"],
		"what lets it receive events does not read as unlocking nothing")
	assert.Equal(t, "voice-ai-agent-goals.readonly unlocks no operation of this API yet, and lets it receive none of the events it chose", scopes["voice-ai-agent-goals.readonly"])
	assert.Equal(t, map[string]string{
		"TaskDelete":         "TaskDelete with contacts.write",
		"NoteCreate":         "NoteCreate with contacts.write",
		"ShippingZoneUpdate": "ShippingZoneUpdate with products.readonly",
		"INSTALL":            "INSTALL and UNINSTALL when it is installed and uninstalled, whatever the scopes",
	}, events)
	assert.Contains(t, body, "Sent to <code class=\"redirect\">https://bridge.example.com/hooks</code>")

	_, events, _ = consent("contacts.write")
	assert.NotContains(t, events, "ShippingZoneUpdate", "the install would not hold the scope that reads it")
	assert.Contains(t, events, "TaskDelete")

	bare, _, err := apps.Create(context.Background(), marketplace.NewApp{
		CompanyID: "co1", Name: "Bare", RedirectURIs: []string{appRedirect}, Scopes: []string{"contacts.readonly"},
	})
	require.NoError(t, err)
	p := b.get("/portal/oauth/chooselocation?" + authorizeQuery(bare, "contacts.readonly"))
	require.Equal(t, 200, p.status)
	assert.Contains(t, p.body, "None: the app has no webhook address.")
	assert.Empty(t, listItems(t, p.body, "consent-events"))
}

// listItems reads the items of the page's list of class, each as its text
// with spaces collapsed, by the first word.
func listItems(t *testing.T, body, class string) map[string]string {
	t.Helper()
	out := map[string]string{}
	list := regexp.MustCompile(`(?s)<ul class="` + class + `"[^>]*>(.*?)</ul>`).FindStringSubmatch(body)
	if list == nil {
		return out
	}
	for _, li := range regexp.MustCompile(`(?s)<li>(.*?)</li>`).FindAllStringSubmatch(list[1], -1) {
		text := strings.Join(strings.Fields(html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(li[1], ""))), " ")
		out[strings.Fields(text)[0]] = text
	}
	return out
}
