package samples

import (
	"net/http"

	"github.com/bizplatform/api/shared/operations"
)

// All is every operation's sample request, in the order of operations.All.
var All = []Request{
	{
		Op:     operations.ListContacts,
		Path:   "/contacts/",
		Query:  "locationId=demoLocAlpha00000001&limit=5&query=lopez&startAfter=1736445310000&startAfterId=demoCtcAlpha00000005",
		Status: http.StatusOK,
		Answer: `{"contacts":[the five Lopez contacts after the cursor, from demoCtcAlpha00000021],"count":18,"meta":{"total":18,"currentPage":2,"nextPage":3,"prevPage":1,"startAfterId":"demoCtcAlpha00000099",...,"nextPageUrl":"..."}}`,
		Kinds: map[string]Kind{
			"?locationId": ID, "?limit": Integer, "?query": Text, "?startAfter": Integer, "?startAfterId": ID,
		},
		Optional: []string{"?limit", "?query", "?startAfter", "?startAfterId"},
	},
	{
		Op:     operations.DeleteTask,
		Path:   "/contacts/demoCtcAlpha00000001/tasks/demoTskAlpha00000001",
		Status: http.StatusOK,
		Answer: `{"succeded":true} (spelled as the public API spells it); again: 404`,
	},
	{
		Op:     operations.CreateWhitelabelProvider,
		Path:   "/payments/integrations/provider/whitelabel",
		Body:   `{"altId":"demoLocAlpha00000001","altType":"account","uniqueName":"alpha-direct-pay","title":"Alpha Direct Pay","provider":"authorize-net","description":"Card payments for Alpha Dental Care through Authorize.net","imageUrl":"https://assets.example.com/payments/alpha-direct-pay.png"}`,
		Status: http.StatusOK,
		Answer: `{"_id":"<24 hex>","altId":"demoLocAlpha00000001","altType":"account","title":"Alpha Direct Pay","route":"alpha-direct-pay","provider":"authorize-net",...,"createdAt":"...","updatedAt":"..."}; again: 422 (uniqueName taken)`,
		Kinds: map[string]Kind{
			"altId": ID, "altType": Enum, "provider": Enum, "imageUrl": WebURL,
		},
	},
	{
		Op:     operations.DeleteCoupon,
		Path:   "/payments/coupon",
		Body:   `{"altId":"demoLocAlpha00000001","altType":"account","id":"demoCpnAlpha00000003"}`,
		Status: http.StatusOK,
		Answer: `{"success":true,"traceId":"<the X-Request-Id>"}; again: 422 (no such coupon)`,
		Kinds:  map[string]Kind{"altId": ID, "altType": Enum, "id": ID},
	},
	{
		Op:     operations.UpdateInventory,
		Path:   "/products/inventory",
		Body:   `{"altId":"demoLocAlpha00000001","altType":"account","items":[{"priceId":"a10200000000000000000201","availableQuantity":35,"allowOutOfStockPurchases":false},{"priceId":"a10200000000000000000202","availableQuantity":12,"allowOutOfStockPurchases":true},{"priceId":"a10200000000000000000401","availableQuantity":800}]}`,
		Status: http.StatusCreated,
		Answer: `{"status":true,"message":"Inventory updated for 3 prices"}`,
		Kinds: map[string]Kind{
			"altId": ID, "altType": Enum, "items[].priceId": HexID, "items[].availableQuantity": Integer,
		},
		Optional: []string{"items[].availableQuantity", "items[].allowOutOfStockPurchases"},
	},
	{
		Op:     operations.UpdateShippingZone,
		Path:   "/store/shipping-zone/a10300000000000000000002",
		Body:   `{"altId":"demoLocAlpha00000001","altType":"account","name":"West Coast and BC","countries":[{"code":"US","states":[{"code":"CA"},{"code":"OR"},{"code":"WA"},{"code":"NV"}]},{"code":"CA","states":[{"code":"BC"}]}]}`,
		Status: http.StatusOK,
		Answer: `{"status":true,"message":"Shipping zone updated","data":{"_id":"a10300000000000000000002","name":"West Coast and BC","countries":[...],"shippingRates":[...],...}}`,
		Kinds: map[string]Kind{
			"{shippingZoneId}": HexID, "altId": ID, "altType": Enum,
			"countries[].code": Enum, "countries[].states[].code": Enum,
		},
		Optional:   []string{"altId", "altType", "name", "countries", "countries[].states"},
		StrictNull: true,
		Nullable:   []string{"countries[].states"},
	},
	{
		Op:     operations.UpdateShippingRate,
		Path:   "/store/shipping-zone/a10300000000000000000001/shipping-rate/a10400000000000000000102",
		Body:   `{"altId":"demoLocAlpha00000001","altType":"account","name":"Free over $75","description":"Free ground shipping","currency":"USD","amount":0,"conditionType":"price","minCondition":75,"maxCondition":500,"isCarrierRate":false}`,
		Status: http.StatusOK,
		Answer: `{"status":true,"message":"Shipping rate updated","data":{"_id":"a10400000000000000000102","name":"Free over $75","conditionType":"price","minCondition":75,"maxCondition":500,...}}`,
		Kinds: map[string]Kind{
			"{shippingZoneId}": HexID, "{shippingRateId}": HexID, "altId": ID, "altType": Enum,
			"currency": Enum, "conditionType": Enum,
		},
		Optional:   []string{"altId", "altType", "name", "description", "currency", "amount", "conditionType", "minCondition", "maxCondition", "isCarrierRate"},
		StrictNull: true,
		Nullable:   []string{"description", "minCondition", "maxCondition"},
	},
	{
		Op:     operations.UpdateCustomField,
		Path:   "/custom-fields/demoFldPetBreedAlpha",
		Body:   `{"locationId":"demoLocAlpha00000001","name":"Breed","description":"The pet's breed","showInForms":true,"placeholder":"Pick a breed","options":[{"key":"labrador","label":"Labrador"},{"label":"Beagle"},{"label":"Poodle"},{"label":"Golden Retriever"}]}`,
		Status: http.StatusOK,
		Answer: `{"field":{"id":"demoFldPetBreedAlpha","options":[{"key":"labrador",...},{"key":"beagle",...},{"key":"poodle",...},{"key":"golden_retriever","label":"Golden Retriever"}],...}}`,
		Kinds: map[string]Kind{
			"locationId": ID,
		},
		Optional: []string{"name", "description", "placeholder", "options", "options[].key"},
	},
	{
		Op:     operations.CreateAssociation,
		Path:   "/associations/",
		Body:   `{"locationId":"demoLocAlpha00000001","key":"vehicle_driver","firstObjectLabel":"Vehicle","firstObjectKey":"custom_objects.vehicle","secondObjectLabel":"Driver","secondObjectKey":"contact"}`,
		Status: http.StatusCreated,
		Answer: `{"locationId":"demoLocAlpha00000001","id":"<id>","key":"vehicle_driver",...,"associationType":"USER_DEFINED"}; again: 422 (key taken)`,
		Kinds: map[string]Kind{
			"locationId": ID, "key": ID, "firstObjectKey": Enum, "secondObjectKey": Enum,
		},
	},
	{
		Op:     operations.CreateRelation,
		Path:   "/associations/relations",
		Body:   `{"locationId":"demoLocAlpha00000001","associationId":"demoAscAlpha00000001","firstRecordId":"demoPetAlpha00000003","secondRecordId":"demoCtcAlpha00000010"}`,
		Status: http.StatusCreated,
		Answer: `the association's fields plus "relationId", "firstRecordId", "secondRecordId"; again: 422 (relation exists)`,
		Kinds: map[string]Kind{
			"locationId": ID, "associationId": ID, "firstRecordId": ID, "secondRecordId": ID,
		},
	},
	{
		Op:   operations.CreateBrandBoard,
		Path: "/brand-boards/",
		Body: `{"locationId":"demoLocAlpha00000001","name":"Summer campaign 2026","brandBoardId":"bbd0a1000000000000000001","parentId":"bbd0a1000000000000000001","type":"template","default":true,` +
			`"logos":[{"id":"logo_sun","url":"https://assets.example.com/brand/sun.png","label":"Sun logo","path":"/brand/sun.png"}],` +
			`"colors":[{"id":"color_sun","hexa":"#ffc300ff","rgba":"rgba(255, 195, 0, 1)","hex":"#ffc300","rgb":"rgb(255, 195, 0)","label":"Sunshine"}],` +
			`"fonts":[{"id":"font_title","font":"Montserrat","fallback":"sans-serif","label":"Title"}]}`,
		Status: http.StatusCreated,
		Answer: `{"_id":"<24 hex>","name":"Summer campaign 2026","logos":[logo_sun],"colors":[color_sun],"fonts":[font_title],"default":true,"deleted":false,"originId":"bbd0a1000000000000000001",...}`,
		Kinds: map[string]Kind{
			"locationId": ID, "brandBoardId": ID, "parentId": ID, "type": Enum,
			"logos[].id": ID, "logos[].url": WebURL, "colors[].id": ID, "fonts[].id": ID,
		},
		Optional: []string{"brandBoardId", "parentId", "type", "default", "logos", "colors", "fonts"},
	},
	{
		Op:     operations.CreateEmailTemplate,
		Path:   "/emails/builder",
		Body:   `{"locationId":"demoLocAlpha00000001","type":"html","title":"Summer check-up reminder","name":"Summer reminder","updatedBy":"demoUsrNorth00000001","builderVersion":"2","parentId":"demoFldAlpha00000002","templateDataUrl":"https://assets.example.com/emails/summer.json","templateSource":"template_library","isPlainText":false}`,
		Status: http.StatusCreated,
		Answer: `{"redirect":"<template id>","traceId":"<the X-Request-Id>"}`,
		Kinds: map[string]Kind{
			"locationId": ID, "type": Enum, "updatedBy": ID, "builderVersion": Enum, "parentId": ID, "templateDataUrl": WebURL,
		},
		Optional: []string{"title", "name", "updatedBy", "builderVersion", "parentId", "templateDataUrl", "templateSource", "isPlainText"},
	},
	{
		Op:     operations.UpdateVoiceAction,
		Path:   "/voice-ai/actions/demoActAlphaCallTransfer",
		Body:   `{"agentId":"demoAgtAlpha00000001","locationId":"demoLocAlpha00000001","actionType":"CALL_TRANSFER","name":"Transfer to front desk lead","actionParameters":{"triggerPrompt":"When the caller asks for a person or is upset","transferToType":"number","transferToValue":"+15550104478","triggerMessage":"Let me put you through to our front desk lead.","hearWhisperMessage":true}}`,
		Status: http.StatusOK,
		Answer: `{"id":"demoActAlphaCallTransfer","actionType":"CALL_TRANSFER","name":"Transfer to front desk lead","actionParameters":{...}}`,
		Kinds: map[string]Kind{
			"agentId": ID, "locationId": ID, "actionType": Enum, "actionParameters.transferToType": Enum,
		},
		Optional: []string{"actionParameters.hearWhisperMessage"},
	},
	{
		Op:     operations.GetMessage,
		Path:   "/conversations/messages/demoMsgAlpha00000004",
		Status: http.StatusOK,
		Answer: `the e-mail message with "meta":{"email":{"messageIds":[...]}}; a call (demoMsgAlpha00000007) shows "attachments":[] and meta.callDuration/callStatus`,
	},
	{
		Op:     operations.ListMediaFiles,
		Path:   "/medias/files",
		Query:  "altType=account&altId=demoLocAlpha00000001&type=file&sortBy=createdAt&sortOrder=asc&parentId=demoFldAlpha00000003&limit=3&offset=1&query=x-ray&fetchAll=false",
		Status: http.StatusOK,
		Answer: `{"files":[{"_id":"demoFilAlpha00000025","name":"x-ray-room-02.jpg","path":"Clinic Photos/x-ray-room-02.jpg",...},{...x-ray-room-03.jpg},{...x-ray-room-04.jpg}]} (the folder's x-ray photos, from the second, three at a time)`,
		Kinds: map[string]Kind{
			"?altType": Enum, "?altId": ID, "?type": Enum, "?sortBy": Enum, "?sortOrder": Enum,
			"?parentId": ID, "?limit": Integer, "?offset": Integer, "?query": Text, "?fetchAll": Boolean,
		},
		Optional: []string{"?parentId", "?limit", "?offset", "?query", "?fetchAll"},
	},
	{
		Op:     operations.UpdateMedia,
		Path:   "/medias/demoFldAlpha00000005",
		Body:   `{"name":"Leaflets","altType":"account","altId":"demoLocAlpha00000001"}`,
		Status: http.StatusOK,
		Answer: `{"updated":true,"traceId":"<the X-Request-Id>"}; the next listing shows paths under "Marketing/Leaflets/"`,
		Kinds:  map[string]Kind{"altType": Enum, "altId": ID},
	},
	{
		Op:     operations.FilterUsersByEmail,
		Path:   "/users/search/filter-by-email",
		Body:   `{"companyId":"demoCompanyNorthwind","emails":"zoe.garcia@alphadental.example, Casey.Morgan@freelance.example","deleted":false,"skip":"0","limit":"10","projection":"name,roles"}`,
		Status: http.StatusOK,
		Answer: `{"users":[{"id":"demoUsrNorth00000040","name":"Casey Morgan","roles":{...}},{"id":"demoUsrNorth00000007","name":"Zoe Garcia",...}],"count":2} (the Southwind user with the same address is never returned)`,
		Kinds: map[string]Kind{
			"companyId": ID, "skip": IntText, "limit": IntText,
		},
		Optional: []string{"deleted", "skip", "limit", "projection"},
	},
	{
		Op:     operations.ListSurveys,
		Path:   "/surveys/",
		Query:  "locationId=demoLocAlpha00000001&type=folder&skip=0&limit=3",
		Status: http.StatusOK,
		Answer: `{"surveys":[3 folders],"total":6}`,
		Kinds: map[string]Kind{
			"?locationId": ID, "?type": Enum, "?skip": Integer, "?limit": Integer,
		},
		Optional: []string{"?type", "?skip", "?limit"},
	},
	{
		Op:       operations.ListCampaigns,
		Path:     "/campaigns/",
		Query:    "locationId=demoLocAlpha00000001&status=draft",
		Status:   http.StatusOK,
		Answer:   `{"campaigns":[3 drafts]}`,
		Kinds:    map[string]Kind{"?locationId": ID, "?status": Enum},
		Optional: []string{"?status"},
	},
	{
		Op:     operations.SearchAdsReportingList,
		Path:   "/ad-publishing/searchads/reporting/list",
		Query:  "locationId=demoLocAlpha00000001&listType=adGroups&type=INTEGRATION&startDate=2026-09-01&endDate=2026-09-30&campaignId=demoSearchCmpAlpha02",
		Status: http.StatusOK,
		Answer: `{"listType":"adGroups",...,"rows":[{"id":"demoSearchAgAlpha0201","metrics":{"impressions":...,"clicks":...,"cost":...,"ctr":...}},...],"totals":{...}}`,
		Kinds: map[string]Kind{
			"?locationId": ID, "?listType": Enum, "?type": Enum, "?startDate": Date, "?endDate": Date, "?campaignId": ID,
		},
		Optional: []string{"?campaignId"},
	},
	{
		Op:     operations.DeleteSocialAdsIntegration,
		Path:   "/ad-publishing/socialads/integration",
		Body:   `{"locationId":"demoLocAlpha00000001"}`,
		Status: http.StatusOK,
		Answer: `{"success":true}; again: 404`,
		Kinds:  map[string]Kind{"locationId": ID},
	},
	{
		Op:       operations.ListEvents,
		Path:     "/events",
		Query:    "locationId=demoLocAlpha00000001&type=TaskDelete,CouponDelete&limit=20",
		Status:   http.StatusOK,
		Answer:   `{"events":[...newest first, each as delivered],"meta":{"nextCursor":null,"count":0}} (the demo data makes no events; each write does)`,
		Kinds:    map[string]Kind{"?locationId": ID, "?type": Enum, "?limit": Integer},
		Optional: []string{"?type", "?limit"},
	},
}
