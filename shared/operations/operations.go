// Package operations is the table of the API's operations: where each is
// served, the scope it needs, and how its validation failures answer. The
// scope check, the routers, the template checks and the docs all read it.
package operations

// Operation is one endpoint of the spec.
type Operation struct {
	// Name is the operation's name, the same as its variable below: it
	// names the operation's route events in template.yaml and its sample
	// event (events/<area>/<name in kebab case>.json).
	Name   string
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
	// Body says the request carries a JSON body, as the spec defines it:
	// reads never do; of the deletes, those that name what they delete in
	// a body (a coupon, tags) do, and those whose path names it do not. A
	// request with a body where none is taken answers 400.
	Body bool
}

// ID names the operation as "METHOD /path".
func (o Operation) ID() string { return o.Method + " " + o.Path }

// The operations, by area. docs/design.md says how each scope was chosen.
var (
	ListContacts = Operation{Name: "ListContacts", Method: "GET", Path: "/contacts/", Area: "contacts", Scope: "contacts.readonly", ValidationStatus: 422, Body: false}
	DeleteTask   = Operation{Name: "DeleteTask", Method: "DELETE", Path: "/contacts/{contactId}/tasks/{taskId}", Area: "contacts", Scope: "contacts.write", ValidationStatus: 400, Body: false}

	// The contacts themselves: names are the official SDK's
	// methods; scopes and status lists the public API's.
	CreateContact          = Operation{Name: "CreateContact", Method: "POST", Path: "/contacts/", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	GetContact             = Operation{Name: "GetContact", Method: "GET", Path: "/contacts/{contactId}", Area: "contacts", Scope: "contacts.readonly", ValidationStatus: 422, Body: false}
	UpdateContact          = Operation{Name: "UpdateContact", Method: "PUT", Path: "/contacts/{contactId}", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	DeleteContact          = Operation{Name: "DeleteContact", Method: "DELETE", Path: "/contacts/{contactId}", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: false}
	UpsertContact          = Operation{Name: "UpsertContact", Method: "POST", Path: "/contacts/upsert", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	GetDuplicateContact    = Operation{Name: "GetDuplicateContact", Method: "GET", Path: "/contacts/search/duplicate", Area: "contacts", Scope: "contacts.readonly", ValidationStatus: 400, Body: false}
	SearchContactsAdvanced = Operation{Name: "SearchContactsAdvanced", Method: "POST", Path: "/contacts/search", Area: "contacts", Scope: "contacts.readonly", ValidationStatus: 400, Body: true}
	AddTags                = Operation{Name: "AddTags", Method: "POST", Path: "/contacts/{contactId}/tags", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	RemoveTags             = Operation{Name: "RemoveTags", Method: "DELETE", Path: "/contacts/{contactId}/tags", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: true}

	// A contact's tasks and notes: the public API's operations, named as its
	// SDK's methods. Field-rule failures answer 422 where the public
	// operation lists 422, else 400.
	GetAllTasks         = Operation{Name: "GetAllTasks", Method: "GET", Path: "/contacts/{contactId}/tasks", Area: "contacts", Scope: "contacts.readonly", ValidationStatus: 400, Body: false}
	CreateTask          = Operation{Name: "CreateTask", Method: "POST", Path: "/contacts/{contactId}/tasks", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	GetTask             = Operation{Name: "GetTask", Method: "GET", Path: "/contacts/{contactId}/tasks/{taskId}", Area: "contacts", Scope: "contacts.readonly", ValidationStatus: 400, Body: false}
	UpdateTask          = Operation{Name: "UpdateTask", Method: "PUT", Path: "/contacts/{contactId}/tasks/{taskId}", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	UpdateTaskCompleted = Operation{Name: "UpdateTaskCompleted", Method: "PUT", Path: "/contacts/{contactId}/tasks/{taskId}/completed", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	GetAllNotes         = Operation{Name: "GetAllNotes", Method: "GET", Path: "/contacts/{contactId}/notes", Area: "contacts", Scope: "contacts.readonly", ValidationStatus: 400, Body: false}
	CreateNote          = Operation{Name: "CreateNote", Method: "POST", Path: "/contacts/{contactId}/notes", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	GetNote             = Operation{Name: "GetNote", Method: "GET", Path: "/contacts/{contactId}/notes/{id}", Area: "contacts", Scope: "contacts.readonly", ValidationStatus: 422, Body: false}
	UpdateNote          = Operation{Name: "UpdateNote", Method: "PUT", Path: "/contacts/{contactId}/notes/{id}", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: true}
	DeleteNote          = Operation{Name: "DeleteNote", Method: "DELETE", Path: "/contacts/{contactId}/notes/{id}", Area: "contacts", Scope: "contacts.write", ValidationStatus: 422, Body: false}

	CreateWhitelabelProvider = Operation{Name: "CreateWhitelabelProvider", Method: "POST", Path: "/payments/integrations/provider/whitelabel", Area: "payments", Scope: "payments/integration.write", MarketplaceOnly: true, ValidationStatus: 422, Body: true}
	DeleteCoupon             = Operation{Name: "DeleteCoupon", Method: "DELETE", Path: "/payments/coupon", Area: "payments", Scope: "payments/coupons.write", ValidationStatus: 422, Body: true}

	UpdateInventory = Operation{Name: "UpdateInventory", Method: "POST", Path: "/products/inventory", Area: "products", Scope: "products/prices.write", ValidationStatus: 422, Body: true}

	UpdateShippingZone = Operation{Name: "UpdateShippingZone", Method: "PUT", Path: "/store/shipping-zone/{shippingZoneId}", Area: "store", Scope: "products.write", ValidationStatus: 422, Body: true}
	UpdateShippingRate = Operation{Name: "UpdateShippingRate", Method: "PUT", Path: "/store/shipping-zone/{shippingZoneId}/shipping-rate/{shippingRateId}", Area: "store", Scope: "products.write", ValidationStatus: 422, Body: true}

	UpdateCustomField = Operation{Name: "UpdateCustomField", Method: "PUT", Path: "/custom-fields/{id}", Area: "custom-fields", Scope: "locations/customFields.write", ValidationStatus: 400, Body: true}

	CreateAssociation = Operation{Name: "CreateAssociation", Method: "POST", Path: "/associations/", Area: "associations", Scope: "associations.write", ValidationStatus: 422, Body: true}
	CreateRelation    = Operation{Name: "CreateRelation", Method: "POST", Path: "/associations/relations", Area: "associations", Scope: "associations/relation.write", ValidationStatus: 422, Body: true}

	CreateBrandBoard = Operation{Name: "CreateBrandBoard", Method: "POST", Path: "/brand-boards/", Area: "brand-boards", Scope: "brand-boards/design-kit.write", ValidationStatus: 422, Body: true}

	CreateEmailTemplate = Operation{Name: "CreateEmailTemplate", Method: "POST", Path: "/emails/builder", Area: "emails", Scope: "emails/builder.write", ValidationStatus: 422, Body: true}

	UpdateVoiceAction = Operation{Name: "UpdateVoiceAction", Method: "PUT", Path: "/voice-ai/actions/{actionId}", Area: "voice-ai", Scope: "voice-ai-agent-goals.write", ValidationStatus: 422, Body: true}

	GetMessage = Operation{Name: "GetMessage", Method: "GET", Path: "/conversations/messages/{id}", Area: "conversations", Scope: "conversations/message.readonly", ValidationStatus: 400, Body: false}

	ListMediaFiles = Operation{Name: "ListMediaFiles", Method: "GET", Path: "/medias/files", Area: "medias", Scope: "medias.readonly", ValidationStatus: 422, Body: false}
	UpdateMedia    = Operation{Name: "UpdateMedia", Method: "POST", Path: "/medias/{id}", Area: "medias", Scope: "medias.write", ValidationStatus: 422, Body: true}

	FilterUsersByEmail = Operation{Name: "FilterUsersByEmail", Method: "POST", Path: "/users/search/filter-by-email", Area: "users", Scope: "users.readonly", ValidationStatus: 422, Body: true}

	ListSurveys = Operation{Name: "ListSurveys", Method: "GET", Path: "/surveys/", Area: "surveys", Scope: "surveys.readonly", ValidationStatus: 400, Body: false}

	ListCampaigns = Operation{Name: "ListCampaigns", Method: "GET", Path: "/campaigns/", Area: "campaigns", Scope: "campaigns.readonly", ValidationStatus: 422, Body: false}

	SearchAdsReportingList     = Operation{Name: "SearchAdsReportingList", Method: "GET", Path: "/ad-publishing/searchads/reporting/list", Area: "ad-publishing", Scope: "adPublishing.readonly", ValidationStatus: 422, Body: false}
	DeleteSocialAdsIntegration = Operation{Name: "DeleteSocialAdsIntegration", Method: "DELETE", Path: "/ad-publishing/socialads/integration", Area: "ad-publishing", Scope: "adPublishing.write", ValidationStatus: 422, Body: true}

	// ListEvents is an extension beyond the spec (docs/events.md). Its scope
	// admits the listing; each event is then shown only to a token holding
	// the event's own scope.
	ListEvents = Operation{Name: "ListEvents", Method: "GET", Path: "/events", Area: "events", Scope: "events.readonly", ValidationStatus: 422, Body: false}
)

// All lists every operation.
var All = []Operation{
	ListContacts, DeleteTask,
	CreateContact, GetContact, UpdateContact, DeleteContact, UpsertContact,
	GetDuplicateContact, SearchContactsAdvanced, AddTags, RemoveTags,
	GetAllTasks, CreateTask, GetTask, UpdateTask, UpdateTaskCompleted,
	GetAllNotes, CreateNote, GetNote, UpdateNote, DeleteNote,
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
	ListEvents,
}

// Areas lists the areas in a stable order.
var Areas = []string{
	"contacts", "payments", "products", "store", "custom-fields", "associations",
	"brand-boards", "emails", "voice-ai", "conversations", "medias", "users",
	"surveys", "campaigns", "ad-publishing", "events",
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
