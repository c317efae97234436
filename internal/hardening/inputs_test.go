package hardening

import (
	"maps"
	"net/http"

	"github.com/bizplatform/api/internal/samples"
	"github.com/bizplatform/api/shared/operations"
)

// opInputs is a good request the battery breaks: an operation's sample
// request (internal/samples: the request and what each of its inputs is),
// or a variant of it. The battery derives its bad requests from it: every
// path id, query parameter and body value (found by walking the body) is
// broken in every way its kind allows, one at a time, so each bad request
// differs from a good one by exactly one input.
type opInputs struct {
	samples.Request
	// variant names another shape of an operation described already; its
	// cases break only the body values under the paths in focus (the rest
	// of the request is the sample's business).
	variant string
	focus   []string
}

// allInputs are every operation's sample, in the order of operations.All,
// then the variants.
var allInputs = func() []opInputs {
	var all []opInputs
	for _, r := range samples.All {
		all = append(all, opInputs{Request: r})
	}
	return append(all, variants...)
}()

// variants are other shapes of the same operations, so that inputs the
// samples leave out are broken too.
var variants = []opInputs{
	{
		Request: samples.Request{
			Op:     operations.UpdateShippingRate,
			Path:   "/store/shipping-zone/a10300000000000000000001/shipping-rate/a10400000000000000000101",
			Body:   `{"isCarrierRate":true,"shippingCarrierId":"c10000000000000000000001","percentageOfRateFee":10,"shippingCarrierServices":[{"name":"Ground","value":"ground"},{"name":"Express","value":"express"}]}`,
			Status: http.StatusOK,
			Kinds: map[string]samples.Kind{
				"{shippingZoneId}": samples.HexID, "{shippingRateId}": samples.HexID, "shippingCarrierId": samples.HexID,
			},
			Optional:   []string{"isCarrierRate", "shippingCarrierId", "percentageOfRateFee", "shippingCarrierServices"},
			StrictNull: true,
			Nullable:   []string{"percentageOfRateFee", "shippingCarrierServices"},
		},
		variant: "a carrier rate",
		focus:   []string{"isCarrierRate", "shippingCarrierId", "percentageOfRateFee", "shippingCarrierServices"},
	},
	{
		Request: samples.Request{
			Op:       operations.UpdateCustomField,
			Path:     "/custom-fields/demoFldPetSizeAlpha",
			Body:     `{"locationId":"demoLocAlpha00000001","showInForms":false,"options":[{"label":"Small"},{"label":"Medium","url":"https://example.com/pets/sizes#medium"},{"label":"Large","url":"https://example.com/pets/sizes#large"}]}`,
			Status:   http.StatusOK,
			Kinds:    map[string]samples.Kind{"locationId": samples.ID, "options[].url": samples.WebURL},
			Optional: []string{"options", "options[].url"},
		},
		variant: "a radio field",
		focus:   []string{"options"},
	},
	{
		Request: samples.Request{
			Op:       operations.UpdateCustomField,
			Path:     "/custom-fields/demoFldPetRecordsAlpha",
			Body:     `{"locationId":"demoLocAlpha00000001","showInForms":true,"acceptedFormats":".png","maxFileLimit":4}`,
			Status:   http.StatusOK,
			Kinds:    map[string]samples.Kind{"locationId": samples.ID, "acceptedFormats": samples.Enum, "maxFileLimit": samples.Integer},
			Optional: []string{"acceptedFormats", "maxFileLimit"},
		},
		variant: "a file-upload field",
		focus:   []string{"acceptedFormats", "maxFileLimit"},
	},
	{
		Request: samples.Request{
			Op:       operations.CreateEmailTemplate,
			Path:     "/emails/builder",
			Body:     `{"locationId":"demoLocAlpha00000001","type":"import","importProvider":"mailchimp","importURL":"https://us1.mailchimp.example.com/templates/42","title":"Imported newsletter"}`,
			Status:   http.StatusCreated,
			Kinds:    map[string]samples.Kind{"locationId": samples.ID, "type": samples.Enum, "importProvider": samples.Enum, "importURL": samples.WebURL},
			Optional: []string{"title"},
		},
		variant: "an import",
		focus:   []string{"importProvider", "importURL"},
	},
	voiceAction("demoActAlphaDataExtraction", "DATA_EXTRACTION", `{"contactFieldId":"demoCfAlphaDateOfBirth","description":"The caller's date of birth","examples":["1985-04-12","12 April 1985"],"overwriteExistingValue":true}`,
		map[string]samples.Kind{"actionParameters.contactFieldId": samples.ID}, "actionParameters.overwriteExistingValue"),
	voiceAction("demoActAlphaInCallExtraction", "IN_CALL_DATA_EXTRACTION", `{"contactFieldId":"demoCfAlphaInsurer","description":"The caller's insurer","examples":["Delta Dental"],"overwriteExistingValue":false}`,
		map[string]samples.Kind{"actionParameters.contactFieldId": samples.ID}, "actionParameters.overwriteExistingValue"),
	voiceAction("demoActAlphaWorkflowTrigger", "WORKFLOW_TRIGGER", `{"triggerPrompt":"When a first-time caller wants to register","triggerMessage":"I'll send you our forms now.","workflowId":"demoWfAlphaNewPatient"}`,
		map[string]samples.Kind{"actionParameters.workflowId": samples.ID}),
	voiceAction("demoActAlphaSms", "SMS", `{"triggerPrompt":"When the caller asks for a text","triggerMessage":"I'll text you now.","messageBody":"Alpha Dental Care: your appointment is confirmed."}`, nil),
	voiceAction("demoActAlphaAppointment", "APPOINTMENT_BOOKING", `{"calendarId":"demoCalAlphaCleanings","daysOfOfferingDates":14,"slotsPerDay":4,"hoursBetweenSlots":1.5}`,
		map[string]samples.Kind{"actionParameters.calendarId": samples.ID, "actionParameters.daysOfOfferingDates": samples.Integer, "actionParameters.slotsPerDay": samples.Integer}),
	voiceAction("demoActAlphaCustomAction", "CUSTOM_ACTION", `{"triggerPrompt":"When the caller asks how much they owe","triggerMessage":"Let me check.","apiDetails":{"url":"https://billing.example.com/api/balances","method":"GET","authenticationRequired":true,"authenticationValue":"key-123","headers":[{"key":"Accept","value":"application/json"}],"parameters":[{"name":"phone","description":"The caller's phone","type":"string","example":"+15551234567"}]},"selectedPaths":["data.balance"]}`,
		map[string]samples.Kind{"actionParameters.apiDetails.url": samples.WebURL, "actionParameters.apiDetails.method": samples.Enum},
		"actionParameters.apiDetails.authenticationRequired", "actionParameters.apiDetails.authenticationValue", "actionParameters.apiDetails.headers", "actionParameters.apiDetails.parameters",
		"actionParameters.apiDetails.parameters[].description", "actionParameters.apiDetails.parameters[].type", "actionParameters.apiDetails.parameters[].example"),
	voiceAction("demoActAlphaKnowledgeBase", "KNOWLEDGE_BASE", `{"triggerPrompt":"When the caller asks about prices","knowledgeBaseId":"demoKbAlphaPricing"}`,
		map[string]samples.Kind{"actionParameters.knowledgeBaseId": samples.ID}),
}

// voiceAction describes an update of one of Alpha's demo voice actions
// that keeps its type, with the given parameters.
func voiceAction(actionID, actionType, params string, kinds map[string]samples.Kind, optional ...string) opInputs {
	k := map[string]samples.Kind{"agentId": samples.ID, "locationId": samples.ID, "actionType": samples.Enum}
	maps.Copy(k, kinds)
	return opInputs{
		Request: samples.Request{
			Op:       operations.UpdateVoiceAction,
			Path:     "/voice-ai/actions/" + actionID,
			Body:     `{"agentId":"demoAgtAlpha00000001","locationId":"demoLocAlpha00000001","actionType":"` + actionType + `","name":"Updated by the battery","actionParameters":` + params + `}`,
			Status:   http.StatusOK,
			Kinds:    k,
			Optional: optional,
		},
		variant: "a " + actionType + " action",
		focus:   []string{"actionParameters"},
	}
}
