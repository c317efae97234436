package hardening

import (
	"net/http"

	"github.com/bizplatform/api/shared/operations"
)

// kind is what an input holds, which decides how the battery breaks it.
type kind int

const (
	text    kind = iota // free text
	id                  // an id: letters, digits, '_' and '-'
	hexID               // a 24-character hexadecimal id
	enum                // one of a fixed set of words
	number              // a JSON number (or a query number)
	integer             // a whole number
	boolean             // true or false
	date                // YYYY-MM-DD (query)
	intText             // a whole number written as a JSON string ("25")
	webURL              // an absolute http(s) URL
)

// opInputs describes one operation's inputs by a request that succeeds on
// the demo dataset (with Alpha's token) and what each input is. The battery
// derives its bad requests from it: every path id, query parameter and
// body value (found by walking the body) is broken in every way its kind
// allows, one at a time, so each bad request differs from a good one by
// exactly one input.
type opInputs struct {
	op operations.Operation
	// path and query are the good request's (query parameters in order).
	path  string
	query string
	body  string
	// ok is the good request's status.
	ok int
	// kinds gives the kind of inputs whose kind their JSON type does not
	// tell (a string that is an id, a number that is an integer): body
	// paths with [] for any index ("items[].priceId"), "?name" for query
	// parameters, "{name}" for path values (id by default).
	kinds map[string]kind
	// optional inputs may be left out; the battery does not remove them
	// (or, for query parameters, send them empty).
	optional []string
	// strictNull operations tell null from absence: their optional body
	// values refuse null unless listed in nullable. (Elsewhere null is
	// absence, so optional values accept it.)
	strictNull bool
	nullable   []string
	// variant names another shape of an operation described already; its
	// cases break only the body values under the paths in focus (the rest
	// of the request is the first description's business).
	variant string
	focus   []string
}

// allInputs describes every operation, in the order of operations.All.
var allInputs = []opInputs{
	{
		op:    operations.ListContacts,
		path:  "/contacts/",
		query: "locationId=demoLocAlpha00000001&limit=5&query=lopez&startAfter=1736445310000&startAfterId=demoCtcAlpha00000005",
		ok:    http.StatusOK,
		kinds: map[string]kind{
			"?locationId": id, "?limit": integer, "?query": text, "?startAfter": integer, "?startAfterId": id,
		},
		optional: []string{"?limit", "?query", "?startAfter", "?startAfterId"},
	},
	{
		op:   operations.DeleteTask,
		path: "/contacts/demoCtcAlpha00000001/tasks/demoTskAlpha00000001",
		ok:   http.StatusOK,
	},
	{
		op:   operations.CreateWhitelabelProvider,
		path: "/payments/integrations/provider/whitelabel",
		body: `{"altId":"demoLocAlpha00000001","altType":"account","uniqueName":"alpha-direct-pay","title":"Alpha Direct Pay","provider":"authorize-net","description":"Card payments for Alpha Dental Care through Authorize.net","imageUrl":"https://assets.example.com/payments/alpha-direct-pay.png"}`,
		ok:   http.StatusOK,
		kinds: map[string]kind{
			"altId": id, "altType": enum, "provider": enum, "imageUrl": webURL,
		},
	},
	{
		op:    operations.DeleteCoupon,
		path:  "/payments/coupon",
		body:  `{"altId":"demoLocAlpha00000001","altType":"account","id":"demoCpnAlpha00000003"}`,
		ok:    http.StatusOK,
		kinds: map[string]kind{"altId": id, "altType": enum, "id": id},
	},
	{
		op:   operations.UpdateInventory,
		path: "/products/inventory",
		body: `{"altId":"demoLocAlpha00000001","altType":"account","items":[{"priceId":"a10200000000000000000201","availableQuantity":35,"allowOutOfStockPurchases":false},{"priceId":"a10200000000000000000202","availableQuantity":12,"allowOutOfStockPurchases":true},{"priceId":"a10200000000000000000401","availableQuantity":800}]}`,
		ok:   http.StatusCreated,
		kinds: map[string]kind{
			"altId": id, "altType": enum, "items[].priceId": hexID, "items[].availableQuantity": integer,
		},
		optional: []string{"items[].availableQuantity", "items[].allowOutOfStockPurchases"},
	},
	{
		op:   operations.UpdateShippingZone,
		path: "/store/shipping-zone/a10300000000000000000002",
		body: `{"altId":"demoLocAlpha00000001","altType":"account","name":"West Coast and BC","countries":[{"code":"US","states":[{"code":"CA"},{"code":"OR"},{"code":"WA"},{"code":"NV"}]},{"code":"CA","states":[{"code":"BC"}]}]}`,
		ok:   http.StatusOK,
		kinds: map[string]kind{
			"{shippingZoneId}": hexID, "altId": id, "altType": enum,
			"countries[].code": enum, "countries[].states[].code": enum,
		},
		optional:   []string{"altId", "altType", "name", "countries", "countries[].states"},
		strictNull: true,
		nullable:   []string{"countries[].states"},
	},
	{
		op:   operations.UpdateShippingRate,
		path: "/store/shipping-zone/a10300000000000000000001/shipping-rate/a10400000000000000000102",
		body: `{"altId":"demoLocAlpha00000001","altType":"account","name":"Free over $75","description":"Free ground shipping","currency":"USD","amount":0,"conditionType":"price","minCondition":75,"maxCondition":500,"isCarrierRate":false}`,
		ok:   http.StatusOK,
		kinds: map[string]kind{
			"{shippingZoneId}": hexID, "{shippingRateId}": hexID, "altId": id, "altType": enum,
			"currency": enum, "conditionType": enum,
		},
		optional:   []string{"altId", "altType", "name", "description", "currency", "amount", "conditionType", "minCondition", "maxCondition", "isCarrierRate"},
		strictNull: true,
		nullable:   []string{"description", "minCondition", "maxCondition"},
	},
	{
		op:   operations.UpdateCustomField,
		path: "/custom-fields/demoFldPetBreedAlpha",
		body: `{"locationId":"demoLocAlpha00000001","name":"Breed","description":"The pet's breed","showInForms":true,"placeholder":"Pick a breed","options":[{"key":"labrador","label":"Labrador"},{"label":"Beagle"},{"label":"Poodle"},{"label":"Golden Retriever"}]}`,
		ok:   http.StatusOK,
		kinds: map[string]kind{
			"locationId": id,
		},
		optional: []string{"name", "description", "placeholder", "options", "options[].key"},
	},
	{
		op:   operations.CreateAssociation,
		path: "/associations/",
		body: `{"locationId":"demoLocAlpha00000001","key":"vehicle_driver","firstObjectLabel":"Vehicle","firstObjectKey":"custom_objects.vehicle","secondObjectLabel":"Driver","secondObjectKey":"contact"}`,
		ok:   http.StatusCreated,
		kinds: map[string]kind{
			"locationId": id, "key": id, "firstObjectKey": enum, "secondObjectKey": enum,
		},
	},
	{
		op:   operations.CreateRelation,
		path: "/associations/relations",
		body: `{"locationId":"demoLocAlpha00000001","associationId":"demoAscAlpha00000001","firstRecordId":"demoPetAlpha00000003","secondRecordId":"demoCtcAlpha00000010"}`,
		ok:   http.StatusCreated,
		kinds: map[string]kind{
			"locationId": id, "associationId": id, "firstRecordId": id, "secondRecordId": id,
		},
	},
	{
		op:   operations.CreateBrandBoard,
		path: "/brand-boards/",
		body: `{"locationId":"demoLocAlpha00000001","name":"Summer campaign 2026","brandBoardId":"bbd0a1000000000000000001","parentId":"bbd0a1000000000000000001","type":"template","default":true,` +
			`"logos":[{"id":"logo_sun","url":"https://assets.example.com/brand/sun.png","label":"Sun logo","path":"/brand/sun.png"}],` +
			`"colors":[{"id":"color_sun","hexa":"#ffc300ff","rgba":"rgba(255, 195, 0, 1)","hex":"#ffc300","rgb":"rgb(255, 195, 0)","label":"Sunshine"}],` +
			`"fonts":[{"id":"font_title","font":"Montserrat","fallback":"sans-serif","label":"Title"}]}`,
		ok: http.StatusCreated,
		kinds: map[string]kind{
			"locationId": id, "brandBoardId": id, "parentId": id, "type": enum,
			"logos[].id": id, "logos[].url": webURL, "colors[].id": id, "fonts[].id": id,
		},
		optional: []string{"brandBoardId", "parentId", "type", "default", "logos", "colors", "fonts"},
	},
	{
		op:   operations.CreateEmailTemplate,
		path: "/emails/builder",
		body: `{"locationId":"demoLocAlpha00000001","type":"html","title":"Summer check-up reminder","name":"Summer reminder","updatedBy":"demoUsrNorth00000001","builderVersion":"2","parentId":"demoFldAlpha00000002","templateDataUrl":"https://assets.example.com/emails/summer.json","templateSource":"template_library","isPlainText":false}`,
		ok:   http.StatusCreated,
		kinds: map[string]kind{
			"locationId": id, "type": enum, "updatedBy": id, "builderVersion": enum, "parentId": id, "templateDataUrl": webURL,
		},
		optional: []string{"title", "name", "updatedBy", "builderVersion", "parentId", "templateDataUrl", "templateSource", "isPlainText"},
	},
	{
		op:   operations.UpdateVoiceAction,
		path: "/voice-ai/actions/demoActAlphaCallTransfer",
		body: `{"agentId":"demoAgtAlpha00000001","locationId":"demoLocAlpha00000001","actionType":"CALL_TRANSFER","name":"Transfer to front desk lead","actionParameters":{"triggerPrompt":"When the caller asks for a person or is upset","transferToType":"number","transferToValue":"+15550104478","triggerMessage":"Let me put you through to our front desk lead.","hearWhisperMessage":true}}`,
		ok:   http.StatusOK,
		kinds: map[string]kind{
			"agentId": id, "locationId": id, "actionType": enum, "actionParameters.transferToType": enum,
		},
		optional: []string{"actionParameters.hearWhisperMessage"},
	},
	{
		op:   operations.GetMessage,
		path: "/conversations/messages/demoMsgAlpha00000004",
		ok:   http.StatusOK,
	},
	{
		op:    operations.ListMediaFiles,
		path:  "/medias/files",
		query: "altType=account&altId=demoLocAlpha00000001&type=file&sortBy=createdAt&sortOrder=asc&parentId=demoFldAlpha00000003&limit=20&offset=20&query=x-ray&fetchAll=false",
		ok:    http.StatusOK,
		kinds: map[string]kind{
			"?altType": enum, "?altId": id, "?type": enum, "?sortBy": enum, "?sortOrder": enum,
			"?parentId": id, "?limit": integer, "?offset": integer, "?query": text, "?fetchAll": boolean,
		},
		optional: []string{"?parentId", "?limit", "?offset", "?query", "?fetchAll"},
	},
	{
		op:    operations.UpdateMedia,
		path:  "/medias/demoFldAlpha00000005",
		body:  `{"name":"Leaflets","altType":"account","altId":"demoLocAlpha00000001"}`,
		ok:    http.StatusOK,
		kinds: map[string]kind{"altType": enum, "altId": id},
	},
	{
		op:   operations.FilterUsersByEmail,
		path: "/users/search/filter-by-email",
		body: `{"companyId":"demoCompanyNorthwind","emails":"zoe.garcia@alphadental.example, Casey.Morgan@freelance.example","deleted":false,"skip":"0","limit":"10","projection":"name,roles"}`,
		ok:   http.StatusOK,
		kinds: map[string]kind{
			"companyId": id, "skip": intText, "limit": intText,
		},
		optional: []string{"deleted", "skip", "limit", "projection"},
	},
	{
		op:    operations.ListSurveys,
		path:  "/surveys/",
		query: "locationId=demoLocAlpha00000001&type=folder&skip=0&limit=3",
		ok:    http.StatusOK,
		kinds: map[string]kind{
			"?locationId": id, "?type": enum, "?skip": integer, "?limit": integer,
		},
		optional: []string{"?type", "?skip", "?limit"},
	},
	{
		op:       operations.ListCampaigns,
		path:     "/campaigns/",
		query:    "locationId=demoLocAlpha00000001&status=draft",
		ok:       http.StatusOK,
		kinds:    map[string]kind{"?locationId": id, "?status": enum},
		optional: []string{"?status"},
	},
	{
		op:    operations.SearchAdsReportingList,
		path:  "/ad-publishing/searchads/reporting/list",
		query: "locationId=demoLocAlpha00000001&listType=adGroups&type=INTEGRATION&startDate=2026-09-01&endDate=2026-09-30&campaignId=demoSearchCmpAlpha02",
		ok:    http.StatusOK,
		kinds: map[string]kind{
			"?locationId": id, "?listType": enum, "?type": enum, "?startDate": date, "?endDate": date, "?campaignId": id,
		},
		optional: []string{"?campaignId"},
	},
	{
		op:    operations.DeleteSocialAdsIntegration,
		path:  "/ad-publishing/socialads/integration",
		body:  `{"locationId":"demoLocAlpha00000001"}`,
		ok:    http.StatusOK,
		kinds: map[string]kind{"locationId": id},
	},

	// Variants: other shapes of the same operations, so that inputs the
	// requests above leave out are broken too.
	{
		op:   operations.UpdateShippingRate,
		path: "/store/shipping-zone/a10300000000000000000001/shipping-rate/a10400000000000000000101",
		body: `{"isCarrierRate":true,"shippingCarrierId":"c10000000000000000000001","percentageOfRateFee":10,"shippingCarrierServices":[{"name":"Ground","value":"ground"},{"name":"Express","value":"express"}]}`,
		ok:   http.StatusOK,
		kinds: map[string]kind{
			"{shippingZoneId}": hexID, "{shippingRateId}": hexID, "shippingCarrierId": hexID,
		},
		optional:   []string{"isCarrierRate", "shippingCarrierId", "percentageOfRateFee", "shippingCarrierServices"},
		strictNull: true,
		nullable:   []string{"percentageOfRateFee", "shippingCarrierServices"},
		variant:    "a carrier rate",
		focus:      []string{"isCarrierRate", "shippingCarrierId", "percentageOfRateFee", "shippingCarrierServices"},
	},
	{
		op:       operations.UpdateCustomField,
		path:     "/custom-fields/demoFldPetSizeAlpha",
		body:     `{"locationId":"demoLocAlpha00000001","showInForms":false,"options":[{"label":"Small"},{"label":"Medium","url":"https://example.com/pets/sizes#medium"},{"label":"Large","url":"https://example.com/pets/sizes#large"}]}`,
		ok:       http.StatusOK,
		kinds:    map[string]kind{"locationId": id, "options[].url": webURL},
		optional: []string{"options", "options[].url"},
		variant:  "a radio field",
		focus:    []string{"options"},
	},
	{
		op:       operations.UpdateCustomField,
		path:     "/custom-fields/demoFldPetRecordsAlpha",
		body:     `{"locationId":"demoLocAlpha00000001","showInForms":true,"acceptedFormats":".png","maxFileLimit":4}`,
		ok:       http.StatusOK,
		kinds:    map[string]kind{"locationId": id, "acceptedFormats": enum, "maxFileLimit": integer},
		optional: []string{"acceptedFormats", "maxFileLimit"},
		variant:  "a file-upload field",
		focus:    []string{"acceptedFormats", "maxFileLimit"},
	},
	{
		op:       operations.CreateEmailTemplate,
		path:     "/emails/builder",
		body:     `{"locationId":"demoLocAlpha00000001","type":"import","importProvider":"mailchimp","importURL":"https://us1.mailchimp.example.com/templates/42","title":"Imported newsletter"}`,
		ok:       http.StatusCreated,
		kinds:    map[string]kind{"locationId": id, "type": enum, "importProvider": enum, "importURL": webURL},
		optional: []string{"title"},
		variant:  "an import",
		focus:    []string{"importProvider", "importURL"},
	},
	voiceAction("demoActAlphaDataExtraction", "DATA_EXTRACTION", `{"contactFieldId":"demoCfAlphaDateOfBirth","description":"The caller's date of birth","examples":["1985-04-12","12 April 1985"],"overwriteExistingValue":true}`,
		map[string]kind{"actionParameters.contactFieldId": id}, "actionParameters.overwriteExistingValue"),
	voiceAction("demoActAlphaInCallExtraction", "IN_CALL_DATA_EXTRACTION", `{"contactFieldId":"demoCfAlphaInsurer","description":"The caller's insurer","examples":["Delta Dental"],"overwriteExistingValue":false}`,
		map[string]kind{"actionParameters.contactFieldId": id}, "actionParameters.overwriteExistingValue"),
	voiceAction("demoActAlphaWorkflowTrigger", "WORKFLOW_TRIGGER", `{"triggerPrompt":"When a first-time caller wants to register","triggerMessage":"I'll send you our forms now.","workflowId":"demoWfAlphaNewPatient"}`,
		map[string]kind{"actionParameters.workflowId": id}),
	voiceAction("demoActAlphaSms", "SMS", `{"triggerPrompt":"When the caller asks for a text","triggerMessage":"I'll text you now.","messageBody":"Alpha Dental Care: your appointment is confirmed."}`, nil),
	voiceAction("demoActAlphaAppointment", "APPOINTMENT_BOOKING", `{"calendarId":"demoCalAlphaCleanings","daysOfOfferingDates":14,"slotsPerDay":4,"hoursBetweenSlots":1.5}`,
		map[string]kind{"actionParameters.calendarId": id, "actionParameters.daysOfOfferingDates": integer, "actionParameters.slotsPerDay": integer}),
	voiceAction("demoActAlphaCustomAction", "CUSTOM_ACTION", `{"triggerPrompt":"When the caller asks how much they owe","triggerMessage":"Let me check.","apiDetails":{"url":"https://billing.example.com/api/balances","method":"GET","authenticationRequired":true,"authenticationValue":"key-123","headers":[{"key":"Accept","value":"application/json"}],"parameters":[{"name":"phone","description":"The caller's phone","type":"string","example":"+15551234567"}]},"selectedPaths":["data.balance"]}`,
		map[string]kind{"actionParameters.apiDetails.url": webURL, "actionParameters.apiDetails.method": enum},
		"actionParameters.apiDetails.authenticationRequired", "actionParameters.apiDetails.authenticationValue", "actionParameters.apiDetails.headers", "actionParameters.apiDetails.parameters",
		"actionParameters.apiDetails.parameters[].description", "actionParameters.apiDetails.parameters[].type", "actionParameters.apiDetails.parameters[].example"),
	voiceAction("demoActAlphaKnowledgeBase", "KNOWLEDGE_BASE", `{"triggerPrompt":"When the caller asks about prices","knowledgeBaseId":"demoKbAlphaPricing"}`,
		map[string]kind{"actionParameters.knowledgeBaseId": id}),
}

// voiceAction describes an update of one of Alpha's demo voice actions
// that keeps its type, with the given parameters.
func voiceAction(actionID, actionType, params string, kinds map[string]kind, optional ...string) opInputs {
	k := map[string]kind{"agentId": id, "locationId": id, "actionType": enum}
	for p, kk := range kinds {
		k[p] = kk
	}
	return opInputs{
		op:       operations.UpdateVoiceAction,
		path:     "/voice-ai/actions/" + actionID,
		body:     `{"agentId":"demoAgtAlpha00000001","locationId":"demoLocAlpha00000001","actionType":"` + actionType + `","name":"Updated by the battery","actionParameters":` + params + `}`,
		ok:       http.StatusOK,
		kinds:    k,
		optional: optional,
		variant:  "a " + actionType + " action",
		focus:    []string{"actionParameters"},
	}
}
