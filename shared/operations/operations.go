// Package operations is the table of the API's operations: where each is
// served, the scope it needs, and how its validation failures answer. The
// scope check, the routers, the template checks and the docs all read it.
package operations

// Operation is one endpoint of the spec.
type Operation struct {
	Method string
	// Path is the path as the spec writes it, with {name} for path values.
	Path string
	// Area is the function that serves it (functions/<Area>).
	Area string
	// Scope is the token scope the operation needs.
	Scope string
	// MarketplaceOnly operations accept only marketplace-app tokens.
	MarketplaceOnly bool
	// ValidationStatus answers a request that breaks field rules: 422 where
	// the operation lists 422, 400 where it lists only 400.
	ValidationStatus int
}

// ID names the operation as "METHOD /path".
func (o Operation) ID() string { return o.Method + " " + o.Path }

const (
	s400 = 400
	s422 = 422
)

// The operations, by area. docs/design.md says how each scope was chosen.
var (
	ListContacts = Operation{"GET", "/contacts/", "contacts", "contacts.readonly", false, s422}
	DeleteTask   = Operation{"DELETE", "/contacts/{contactId}/tasks/{taskId}", "contacts", "contacts.write", false, s400}

	CreateWhitelabelProvider = Operation{"POST", "/payments/integrations/provider/whitelabel", "payments", "payments/integration.write", true, s422}
	DeleteCoupon             = Operation{"DELETE", "/payments/coupon", "payments", "payments/coupons.write", false, s422}

	UpdateInventory = Operation{"POST", "/products/inventory", "products", "products/prices.write", false, s422}

	UpdateShippingZone = Operation{"PUT", "/store/shipping-zone/{shippingZoneId}", "store", "products.write", false, s422}
	UpdateShippingRate = Operation{"PUT", "/store/shipping-zone/{shippingZoneId}/shipping-rate/{shippingRateId}", "store", "products.write", false, s422}

	UpdateCustomField = Operation{"PUT", "/custom-fields/{id}", "custom-fields", "locations/customFields.write", false, s400}

	CreateAssociation = Operation{"POST", "/associations/", "associations", "associations.write", false, s422}
	CreateRelation    = Operation{"POST", "/associations/relations", "associations", "associations/relation.write", false, s422}

	CreateBrandBoard = Operation{"POST", "/brand-boards/", "brand-boards", "brand-boards/design-kit.write", false, s422}

	CreateEmailTemplate = Operation{"POST", "/emails/builder", "emails", "emails/builder.write", false, s422}

	UpdateVoiceAction = Operation{"PUT", "/voice-ai/actions/{actionId}", "voice-ai", "voice-ai-agent-goals.write", false, s422}

	GetMessage = Operation{"GET", "/conversations/messages/{id}", "conversations", "conversations/message.readonly", false, s400}

	ListMediaFiles = Operation{"GET", "/medias/files", "medias", "medias.readonly", false, s422}
	UpdateMedia    = Operation{"POST", "/medias/{id}", "medias", "medias.write", false, s422}

	FilterUsersByEmail = Operation{"POST", "/users/search/filter-by-email", "users", "users.readonly", false, s422}

	ListSurveys = Operation{"GET", "/surveys/", "surveys", "surveys.readonly", false, s400}

	ListCampaigns = Operation{"GET", "/campaigns/", "campaigns", "campaigns.readonly", false, s422}

	SearchAdsReportingList     = Operation{"GET", "/ad-publishing/searchads/reporting/list", "ad-publishing", "adPublishing.readonly", false, s422}
	DeleteSocialAdsIntegration = Operation{"DELETE", "/ad-publishing/socialads/integration", "ad-publishing", "adPublishing.write", false, s422}
)

// All lists every operation.
var All = []Operation{
	ListContacts, DeleteTask,
	CreateWhitelabelProvider, DeleteCoupon,
	UpdateInventory,
	UpdateShippingZone, UpdateShippingRate,
	UpdateCustomField,
	CreateAssociation, CreateRelation,
	CreateBrandBoard,
	CreateEmailTemplate,
	UpdateVoiceAction,
	GetMessage,
	ListMediaFiles, UpdateMedia,
	FilterUsersByEmail,
	ListSurveys,
	ListCampaigns,
	SearchAdsReportingList, DeleteSocialAdsIntegration,
}

// Areas lists the areas in a stable order.
var Areas = []string{
	"contacts", "payments", "products", "store", "custom-fields", "associations",
	"brand-boards", "emails", "voice-ai", "conversations", "medias", "users",
	"surveys", "campaigns", "ad-publishing",
}

// OfArea returns the operations served by area.
func OfArea(area string) []Operation {
	var ops []Operation
	for _, op := range All {
		if op.Area == area {
			ops = append(ops, op)
		}
	}
	return ops
}

// TakesBody reports whether the operation's request carries a JSON body, as
// the spec defines it: reads never do, and of the deletes only those that
// name their record in a body (the task to delete is named by its path).
func (o Operation) TakesBody() bool {
	return o.Method != "GET" && o.ID() != DeleteTask.ID()
}

// Changes reports whether the operation's method may change something
// (POST, PUT, PATCH, DELETE): such a request is worth making safe to retry
// (Idempotency-Key); a read is not.
func (o Operation) Changes() bool {
	switch o.Method {
	case "GET", "HEAD", "OPTIONS":
		return false
	}
	return true
}

// Patterns returns the router patterns that serve op: the spec's path, and
// where the spec writes a trailing slash, the same path without it.
func (o Operation) Patterns() []string {
	if len(o.Path) > 1 && o.Path[len(o.Path)-1] == '/' {
		return []string{o.Method + " " + o.Path + "{$}", o.Method + " " + o.Path[:len(o.Path)-1]}
	}
	return []string{o.Method + " " + o.Path}
}

// Paths returns the concrete paths op is served on (the spec's, and its
// variant without the trailing slash), as API Gateway routes write them.
func (o Operation) Paths() []string {
	if len(o.Path) > 1 && o.Path[len(o.Path)-1] == '/' {
		return []string{o.Path, o.Path[:len(o.Path)-1]}
	}
	return []string{o.Path}
}
