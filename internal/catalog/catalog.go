// Package catalog lists every area of the API, for the binaries and tests
// that serve or check all of them.
package catalog

import (
	"strings"

	"github.com/bizplatform/api/areas/adpublishing"
	"github.com/bizplatform/api/areas/associations"
	"github.com/bizplatform/api/areas/brandboards"
	"github.com/bizplatform/api/areas/campaigns"
	"github.com/bizplatform/api/areas/contacts"
	"github.com/bizplatform/api/areas/conversations"
	"github.com/bizplatform/api/areas/customfields"
	"github.com/bizplatform/api/areas/emails"
	eventsarea "github.com/bizplatform/api/areas/events"
	"github.com/bizplatform/api/areas/medias"
	"github.com/bizplatform/api/areas/payments"
	"github.com/bizplatform/api/areas/products"
	"github.com/bizplatform/api/areas/store"
	"github.com/bizplatform/api/areas/surveys"
	"github.com/bizplatform/api/areas/users"
	"github.com/bizplatform/api/areas/voiceai"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
)

// Areas are the areas, in the order of operations.Areas.
var Areas = []app.Area{
	contacts.Area,
	payments.Area,
	products.Area,
	store.Area,
	customfields.Area,
	associations.Area,
	brandboards.Area,
	emails.Area,
	voiceai.Area,
	conversations.Area,
	medias.Area,
	users.Area,
	surveys.Area,
	campaigns.Area,
	adpublishing.Area,
	eventsarea.Area,
}

// Portal is the directory of the one function that serves no API area:
// functions/portal, the account admins' token pages (PortalFunction).
const Portal = "portal"

// OAuth is the directory of the OAuth server's function, functions/oauth
// (OAuthFunction): marketplace apps' token endpoint and company-token
// operations, the routes package oauth lists (oauth.Routes).
const OAuth = "oauth"

// OAuthFunction is its template logical id.
const OAuthFunction = "OAuthFunction"

// Webhooks is the directory of the webhook deliverer, functions/webhooks
// (WebhookFunction): not behind the API, woken by the table's stream and a
// schedule (webhooks).
const Webhooks = "webhooks"

// WebhookFunction is its template logical id.
const WebhookFunction = "WebhookFunction"

// WebhookPackage is the package that does its work.
const WebhookPackage = "webhooks"

// PortalRoutes are the portal function's API Gateway routes: every method
// on /portal and below, and the public platform's paths of the consent page
// of marketplace apps (portal.ConsentPaths), which lead under /portal.
var PortalRoutes = []string{"ANY /portal", "ANY /portal/{proxy+}", "GET /oauth/chooselocation", "GET /v2/oauth/chooselocation"}

// FunctionName is the template.yaml logical id of an area's function:
// "custom-fields" becomes "CustomFieldsFunction".
func FunctionName(area string) string {
	var b strings.Builder
	for _, part := range strings.Split(area, "-") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String() + "Function"
}

// EventTypes is the event registry's source: every area's event types, in
// the order of Areas, then the marketplace's (INSTALL, UNINSTALL), with
// the Go types of their fields. go generate ./...
// (internal/gen/eventdocs) writes from it the catalogue (docs/events.md),
// the OpenAPI document's webhooks and events.Registry, which the binaries
// read.
func EventTypes() []events.Type {
	var out []events.Type
	for _, a := range Areas {
		out = append(out, a.Events...)
	}
	return append(out, marketplace.InstallEvents...)
}
