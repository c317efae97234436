// Package catalog lists every area of the API, for the binaries and tests
// that serve or check all of them.
package catalog

import (
	"slices"
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

// PortalFunction is its template logical id.
const PortalFunction = "PortalFunction"

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
// on /portal and below, the public platform's paths of the consent page
// of marketplace apps (portal.ConsentPaths), which lead under /portal, and
// the API's OpenAPI documents (api.DocumentPaths).
var PortalRoutes = []string{"ANY /portal", "ANY /portal/{proxy+}", "GET /oauth/chooselocation", "GET /v2/oauth/chooselocation", "GET /openapi.json", "GET /openapi.yaml", "GET /openapi-3.0.json", "GET /openapi-3.0.yaml"}

// Probe is the directory of the synthetic probe, functions/probe
// (ProbeFunction): every minute it calls the deployed API through its
// public URL as a client would (package probe).
const Probe = "probe"

// ProbeFunction is its template logical id.
const ProbeFunction = "ProbeFunction"

// ProbePackage is the package that does its work.
const ProbePackage = "probe"

// Hook is the directory of CodeDeploy's deploy hook, functions/pretraffic
// (PreTrafficHookFunction), which checks each new version before and after
// its alias moves (shared/deployhook).
const Hook = "pretraffic"

// HookFunction is its template logical id.
const HookFunction = "PreTrafficHookFunction"

// Role is what a function of the stack is.
type Role int

// The roles.
const (
	// RoleArea serves an API area behind the HTTP API.
	RoleArea Role = iota
	// RoleSite serves routes behind the HTTP API that are no area: the
	// portal and the OAuth server.
	RoleSite
	// RoleDeliverer is the webhook deliverer, on the table's stream and a
	// schedule.
	RoleDeliverer
	// RoleProbe is the synthetic probe, on a schedule.
	RoleProbe
	// RoleHook is the deploy hook CodeDeploy invokes.
	RoleHook
)

// Function is one Lambda function of the stack.
type Function struct {
	// Dir is its directory under functions/, and the Function dimension
	// of its metrics.
	Dir string
	// LogicalID is its logical id in template.yaml.
	LogicalID string
	Role      Role
}

// AnswersRequests reports whether API Gateway routes requests to it, whose
// 5xx answers its alarms read.
func (f Function) AnswersRequests() bool { return f.Role == RoleArea || f.Role == RoleSite }

// Deployed reports whether each deploy moves its alias live through
// CodeDeploy, checked by the hook and rolled back by its own alarms; the
// probe and the hook are updated in place.
func (f Function) Deployed() bool { return f.Role <= RoleDeliverer }

// Functions are the stack's functions: every area in the order of Areas,
// the portal, the OAuth server, the webhook deliverer, the probe and the
// deploy hook. The Makefile builds each, and internal/gen/samwatch writes
// what template.yaml repeats for each (their alarms, the hook's list, the
// dashboard) from this list.
func Functions() []Function {
	var out []Function
	for _, a := range Areas {
		out = append(out, Function{Dir: a.Name, LogicalID: FunctionName(a.Name), Role: RoleArea})
	}
	return append(out,
		Function{Dir: Portal, LogicalID: PortalFunction, Role: RoleSite},
		Function{Dir: OAuth, LogicalID: OAuthFunction, Role: RoleSite},
		Function{Dir: Webhooks, LogicalID: WebhookFunction, Role: RoleDeliverer},
		Function{Dir: Probe, LogicalID: ProbeFunction, Role: RoleProbe},
		Function{Dir: Hook, LogicalID: HookFunction, Role: RoleHook},
	)
}

// KeepsSecrets reports whether the function of directory dir uses the
// secrets key (SECRETS_KEY_ID, KMS), and so links the KMS client: an area
// that keeps secrets users hand it (app.Area.OpenKMSKey), the portal, which
// seals account endpoints' webhook signing secrets, and the deliverer,
// which opens them to sign.
func KeepsSecrets(dir string) bool {
	return dir == Portal || dir == Webhooks || slices.ContainsFunc(Areas, func(a app.Area) bool { return a.Name == dir && a.OpenKMSKey != nil })
}

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
