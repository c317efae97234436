package voiceai_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bizplatform/api/areas/voiceai"
)

// ruleCase breaks one rule of an update of Alpha's action of actionType.
type ruleCase struct {
	name       string
	actionType string
	// params changes a fresh copy of the type's valid parameters.
	params func(p map[string]any)
	// body changes the request body (after params).
	body func(b map[string]any)
	msg  string
}

func details(p map[string]any) map[string]any { return p["apiDetails"].(map[string]any) }

func set(key string, value any) func(map[string]any) {
	return func(m map[string]any) { m[key] = value }
}

func drop(key string) func(map[string]any) {
	return func(m map[string]any) { delete(m, key) }
}

func inDetails(change func(map[string]any)) func(map[string]any) {
	return func(p map[string]any) { change(details(p)) }
}

func headers(hs ...map[string]any) func(map[string]any) {
	list := make([]any, len(hs))
	for i, h := range hs {
		list[i] = h
	}
	return inDetails(set("headers", list))
}

func apiParams(ps ...map[string]any) func(map[string]any) {
	list := make([]any, len(ps))
	for i, p := range ps {
		list[i] = p
	}
	return inDetails(set("parameters", list))
}

func header(key, value string) map[string]any { return map[string]any{"key": key, "value": value} }

func many(n int, item any) []any {
	list := make([]any, n)
	for i := range list {
		list[i] = item
	}
	return list
}

const (
	ct  = voiceai.TypeCallTransfer
	de  = voiceai.TypeDataExtraction
	ide = voiceai.TypeInCallDataExtraction
	wt  = voiceai.TypeWorkflowTrigger
	sms = voiceai.TypeSMS
	ab  = voiceai.TypeAppointmentBooking
	ca  = voiceai.TypeCustomAction
	kb  = voiceai.TypeKnowledgeBase
)

var ruleCases = []ruleCase{
	// The request.
	{name: "agentId is required", actionType: sms, body: drop("agentId"), msg: "agentId is required"},
	{name: "agentId must be an id", actionType: sms, body: set("agentId", "agent/1"), msg: "agentId must be an id"},
	{name: "locationId is required", actionType: sms, body: drop("locationId"), msg: "locationId is required"},
	{name: "locationId must be an id", actionType: sms, body: set("locationId", "acct Alpha"), msg: "locationId must be an id"},
	{name: "name is required", actionType: sms, body: set("name", " "), msg: "name is required"},
	{name: "name is bounded", actionType: sms, body: set("name", strings.Repeat("n", 101)), msg: "name must be at most 100 characters"},
	{name: "name must be a string", actionType: sms, body: set("name", 7), msg: "name must be a string"},
	{name: "a missing actionType lists the action types", actionType: sms, body: drop("actionType"), msg: "actionType is required (one of: "},
	{name: "actionType must be one of the eight types", actionType: sms, body: set("actionType", "EMAIL"), msg: "actionType must be one of: CALL_TRANSFER, DATA_EXTRACTION, IN_CALL_DATA_EXTRACTION, WORKFLOW_TRIGGER, SMS, APPOINTMENT_BOOKING, CUSTOM_ACTION, KNOWLEDGE_BASE"},
	{name: "actionParameters is required", actionType: sms, body: drop("actionParameters"), msg: "actionParameters is required"},
	{name: "actionParameters may not be null", actionType: sms, body: set("actionParameters", nil), msg: "actionParameters is required"},
	{name: "actionParameters must be an object", actionType: sms, body: set("actionParameters", []any{"x"}), msg: "actionParameters must be an object"},
	{name: "an unknown request property is refused", actionType: sms, body: set("priority", 1), msg: "property priority should not exist"},
	{name: "parameters of another type are refused", actionType: ct, body: set("actionParameters", map[string]any{"triggerPrompt": "p", "triggerMessage": "m", "messageBody": "b"}), msg: "property actionParameters.messageBody should not exist"},

	// Call transfer.
	{name: "call transfer needs triggerPrompt", actionType: ct, params: drop("triggerPrompt"), msg: "actionParameters.triggerPrompt is required"},
	{name: "call transfer needs transferToType", actionType: ct, params: drop("transferToType"), msg: "actionParameters.transferToType is required"},
	{name: "transferToType must be number", actionType: ct, params: set("transferToType", "queue"), msg: "actionParameters.transferToType must be one of: number"},
	{name: "call transfer needs transferToValue", actionType: ct, params: drop("transferToValue"), msg: "actionParameters.transferToValue is required"},
	{name: "transferToValue must start with +", actionType: ct, params: set("transferToValue", "12345678901"), msg: "actionParameters.transferToValue must be a phone number"},
	{name: "transferToValue of 10 characters is too short", actionType: ct, params: set("transferToValue", "+123456789"), msg: "actionParameters.transferToValue must be a phone number"},
	{name: "transferToValue of 17 characters is too long", actionType: ct, params: set("transferToValue", "+1234567890123456"), msg: "actionParameters.transferToValue must be a phone number"},
	{name: "transferToValue holds digits only", actionType: ct, params: set("transferToValue", "+1 234 567 8901"), msg: "actionParameters.transferToValue must be a phone number"},
	{name: "call transfer needs triggerMessage", actionType: ct, params: drop("triggerMessage"), msg: "actionParameters.triggerMessage is required"},
	{name: "hearWhisperMessage must be a boolean", actionType: ct, params: set("hearWhisperMessage", "yes"), msg: "actionParameters.hearWhisperMessage must be a boolean"},
	{name: "an unknown call transfer property is refused", actionType: ct, params: set("transferTo", "+12345678901"), msg: "property actionParameters.transferTo should not exist"},
	{name: "triggerPrompt is bounded", actionType: ct, params: set("triggerPrompt", strings.Repeat("p", 2001)), msg: "actionParameters.triggerPrompt must be at most 2000 characters"},

	// Data extraction (both kinds).
	{name: "data extraction needs contactFieldId", actionType: de, params: drop("contactFieldId"), msg: "actionParameters.contactFieldId is required"},
	{name: "contactFieldId must be an id", actionType: de, params: set("contactFieldId", "field#1"), msg: "actionParameters.contactFieldId must be an id"},
	{name: "data extraction needs description", actionType: de, params: drop("description"), msg: "actionParameters.description is required"},
	{name: "data extraction needs examples", actionType: de, params: drop("examples"), msg: "actionParameters.examples is required"},
	{name: "examples may not be empty", actionType: de, params: set("examples", []any{}), msg: "actionParameters.examples must hold 1 to 5 examples"},
	{name: "examples hold at most five", actionType: de, params: set("examples", many(6, "x")), msg: "actionParameters.examples must hold 1 to 5 examples"},
	{name: "examples must be an array", actionType: de, params: set("examples", "+1234567890"), msg: "actionParameters.examples must be an array"},
	{name: "each example must be a string", actionType: de, params: set("examples", []any{"a", 5}), msg: "actionParameters.examples[1] must be a string"},
	{name: "an example may not be blank", actionType: de, params: set("examples", []any{" "}), msg: "actionParameters.examples[0] must not be blank"},
	{name: "overwriteExistingValue must be a boolean", actionType: de, params: set("overwriteExistingValue", "no"), msg: "actionParameters.overwriteExistingValue must be a boolean"},
	{name: "in-call data extraction needs examples too", actionType: ide, params: drop("examples"), msg: "actionParameters.examples is required"},
	{name: "in-call data extraction needs contactFieldId", actionType: ide, params: drop("contactFieldId"), msg: "actionParameters.contactFieldId is required"},

	// Workflow trigger.
	{name: "workflow trigger needs workflowId", actionType: wt, params: drop("workflowId"), msg: "actionParameters.workflowId is required"},
	{name: "workflowId must be an id", actionType: wt, params: set("workflowId", "wf 1"), msg: "actionParameters.workflowId must be an id"},
	{name: "workflow trigger needs triggerPrompt", actionType: wt, params: drop("triggerPrompt"), msg: "actionParameters.triggerPrompt is required"},
	{name: "workflow trigger needs triggerMessage", actionType: wt, params: drop("triggerMessage"), msg: "actionParameters.triggerMessage is required"},

	// SMS.
	{name: "sms needs messageBody", actionType: sms, params: drop("messageBody"), msg: "actionParameters.messageBody is required"},
	{name: "messageBody is bounded", actionType: sms, params: set("messageBody", strings.Repeat("b", 1601)), msg: "actionParameters.messageBody must be at most 1600 characters"},
	{name: "sms needs triggerPrompt", actionType: sms, params: drop("triggerPrompt"), msg: "actionParameters.triggerPrompt is required"},
	{name: "sms needs triggerMessage", actionType: sms, params: set("triggerMessage", ""), msg: "actionParameters.triggerMessage is required"},

	// Appointment booking.
	{name: "appointment booking needs calendarId", actionType: ab, params: drop("calendarId"), msg: "actionParameters.calendarId is required"},
	{name: "daysOfOfferingDates is required", actionType: ab, params: drop("daysOfOfferingDates"), msg: "actionParameters.daysOfOfferingDates is required"},
	{name: "daysOfOfferingDates must be positive", actionType: ab, params: set("daysOfOfferingDates", 0), msg: "actionParameters.daysOfOfferingDates must be a whole number from 1 to 365"},
	{name: "daysOfOfferingDates must be whole", actionType: ab, params: set("daysOfOfferingDates", 1.5), msg: "actionParameters.daysOfOfferingDates must be a whole number"},
	{name: "slotsPerDay is required", actionType: ab, params: drop("slotsPerDay"), msg: "actionParameters.slotsPerDay is required"},
	{name: "slotsPerDay must be positive", actionType: ab, params: set("slotsPerDay", -2), msg: "actionParameters.slotsPerDay must be a whole number from 1 to 48"},
	{name: "slotsPerDay is bounded", actionType: ab, params: set("slotsPerDay", 49), msg: "actionParameters.slotsPerDay must be a whole number from 1 to 48"},
	{name: "hoursBetweenSlots is required", actionType: ab, params: drop("hoursBetweenSlots"), msg: "actionParameters.hoursBetweenSlots is required"},
	{name: "hoursBetweenSlots must be positive", actionType: ab, params: set("hoursBetweenSlots", 0), msg: "actionParameters.hoursBetweenSlots must be a number above 0"},
	{name: "hoursBetweenSlots must be a number", actionType: ab, params: set("hoursBetweenSlots", "1"), msg: "actionParameters.hoursBetweenSlots must be a number"},

	// Custom action.
	{name: "custom action needs triggerPrompt", actionType: ca, params: drop("triggerPrompt"), msg: "actionParameters.triggerPrompt is required"},
	{name: "custom action needs triggerMessage", actionType: ca, params: drop("triggerMessage"), msg: "actionParameters.triggerMessage is required"},
	{name: "custom action needs apiDetails", actionType: ca, params: drop("apiDetails"), msg: "actionParameters.apiDetails is required"},
	{name: "apiDetails must be an object", actionType: ca, params: set("apiDetails", "https://api.example.com"), msg: "actionParameters.apiDetails must be an object"},
	{name: "apiDetails needs url", actionType: ca, params: inDetails(drop("url")), msg: "actionParameters.apiDetails.url is required"},
	{name: "url must be https", actionType: ca, params: inDetails(set("url", "http://api.example.com/orders")), msg: "actionParameters.apiDetails.url must be an https URL with a public host: it uses http, not https"},
	{name: "url may not point at localhost", actionType: ca, params: inDetails(set("url", "https://localhost:8080/admin")), msg: "actionParameters.apiDetails.url must be an https URL with a public host: its host localhost is a special-use name"},
	{name: "url may not point at a private address", actionType: ca, params: inDetails(set("url", "https://169.254.169.254/latest/meta-data")), msg: "actionParameters.apiDetails.url must be an https URL with a public host: its host 169.254.169.254 is a link-local address"},
	{name: "apiDetails needs method", actionType: ca, params: inDetails(drop("method")), msg: "actionParameters.apiDetails.method is required"},
	{name: "method must be POST or GET", actionType: ca, params: inDetails(set("method", "PUT")), msg: "actionParameters.apiDetails.method must be one of: POST, GET"},
	{name: "authenticationValue is required when authentication is", actionType: ca, params: inDetails(set("authenticationRequired", true)), msg: "actionParameters.apiDetails.authenticationValue is required"},
	{name: "authenticationValue is refused without authentication", actionType: ca, params: inDetails(set("authenticationValue", "token123")), msg: "actionParameters.apiDetails.authenticationValue is only allowed when authenticationRequired is true"},
	{name: "authenticationRequired must be a boolean", actionType: ca, params: inDetails(set("authenticationRequired", "true")), msg: "actionParameters.apiDetails.authenticationRequired must be a boolean"},
	{name: "a GET needs selectedPaths", actionType: ca, params: drop("selectedPaths"), msg: "actionParameters.selectedPaths must hold at least one response path when apiDetails.method is GET"},
	{name: "a GET needs at least one selected path", actionType: ca, params: set("selectedPaths", []any{}), msg: "actionParameters.selectedPaths must hold at least one response path"},
	{name: "a POST takes no selected paths", actionType: ca, params: func(p map[string]any) { details(p)["method"] = "POST" }, msg: "actionParameters.selectedPaths must be empty when apiDetails.method is POST"},
	{name: "a selected path may not be blank", actionType: ca, params: set("selectedPaths", []any{"status", ""}), msg: "actionParameters.selectedPaths[1] must not be blank"},
	{name: "selectedPaths are bounded", actionType: ca, params: set("selectedPaths", many(21, "status")), msg: "actionParameters.selectedPaths must hold at most 20 paths"},
	{name: "the sample's responsePathsToExtract is not a property", actionType: ca, params: set("responsePathsToExtract", []any{"status"}), msg: "property actionParameters.responsePathsToExtract should not exist"},
	{name: "an unknown apiDetails property is refused with its path", actionType: ca, params: inDetails(set("timeout", 30)), msg: "property actionParameters.apiDetails.timeout should not exist"},
	{name: "headers must be an array", actionType: ca, params: inDetails(set("headers", map[string]any{"Accept": "x"})), msg: "actionParameters.apiDetails.headers must be an array"},
	{name: "a header needs key", actionType: ca, params: headers(header("Accept", "x"), map[string]any{"value": "y"}), msg: "actionParameters.apiDetails.headers[1].key is required"},
	{name: "a header needs value", actionType: ca, params: headers(map[string]any{"key": "Accept"}), msg: "actionParameters.apiDetails.headers[0].value is required"},
	{name: "a header key must be a header name", actionType: ca, params: headers(header("Bad Header", "x")), msg: "actionParameters.apiDetails.headers[0].key must be an HTTP header name"},
	{name: "a header value may not break lines", actionType: ca, params: headers(header("X-A", "x\r\nX-Injected: 1")), msg: "actionParameters.apiDetails.headers[0].value must not contain control characters"},
	{name: "a header may not repeat", actionType: ca, params: headers(header("Accept", "a"), header("accept", "b")), msg: "actionParameters.apiDetails.headers[1].key repeats the header accept"},
	{name: "an unknown header property is refused with its path", actionType: ca, params: headers(map[string]any{"key": "A", "value": "b", "name": "c"}), msg: "property actionParameters.apiDetails.headers[0].name should not exist"},
	{name: "headers are bounded", actionType: ca, params: inDetails(set("headers", many(21, header("A", "b")))), msg: "actionParameters.apiDetails.headers must hold at most 20 headers"},
	{name: "a parameter needs name", actionType: ca, params: apiParams(map[string]any{"description": "d"}), msg: "actionParameters.apiDetails.parameters[0].name is required"},
	{name: "a parameter name may not repeat", actionType: ca, params: apiParams(map[string]any{"name": "id"}, map[string]any{"name": "id"}), msg: "actionParameters.apiDetails.parameters[1].name repeats the parameter id"},
	{name: "a parameter example must be a string", actionType: ca, params: apiParams(map[string]any{"name": "id", "example": 12}), msg: "actionParameters.apiDetails.parameters[0].example must be a string"},
	{name: "an unknown parameter property is refused with its path", actionType: ca, params: apiParams(map[string]any{"name": "id", "required": true}), msg: "property actionParameters.apiDetails.parameters[0].required should not exist"},

	// Knowledge base.
	{name: "knowledge base needs triggerPrompt", actionType: kb, params: drop("triggerPrompt"), msg: "actionParameters.triggerPrompt is required"},
	{name: "knowledge base needs knowledgeBaseId", actionType: kb, params: drop("knowledgeBaseId"), msg: "actionParameters.knowledgeBaseId is required"},
	{name: "knowledgeBaseId must be an id", actionType: kb, params: set("knowledgeBaseId", "kb:1"), msg: "actionParameters.knowledgeBaseId must be an id"},
}

func TestUpdateActionRejectsEachBrokenRuleNamingItsPath(t *testing.T) {
	env, token, store := newEnv(t)
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			id := actionID(tc.actionType)
			before := getAction(t, store, acctA, agentA, id)
			params := updateParams(tc.actionType)
			if tc.actionType == ca {
				params = seedParams(ca) // the GET variant: selectedPaths apply
			}
			if tc.params != nil {
				tc.params(params)
			}
			b := body(tc.actionType, params)
			if tc.body != nil {
				tc.body(b)
			}
			resp := update(t, env, token, id, b)
			assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), tc.msg)
			assert.Equal(t, before, getAction(t, store, acctA, agentA, id), "the stored action is unchanged")
		})
	}
}

func TestUpdateActionRejectsMalformedRequests(t *testing.T) {
	env, token, _ := newEnv(t)
	valid := body(sms, updateParams(sms))
	t.Run("a malformed actionId is a 422 naming it", func(t *testing.T) {
		resp := update(t, env, token, "act.one", valid)
		assert.Contains(t, resp.RequireError(t, http.StatusUnprocessableEntity), "actionId must be an id")
	})
	t.Run("a malformed actionId is named with the body's broken rules", func(t *testing.T) {
		resp := update(t, env, token, "act.one", map[string]any{"locationId": acctA, "actionType": sms, "name": "x", "colour": "red"})
		msg := resp.RequireError(t, http.StatusUnprocessableEntity)
		assert.Contains(t, msg, "actionId must be an id")
		assert.Contains(t, msg, "property colour should not exist")
	})
	t.Run("a body that is not JSON is a bad request", func(t *testing.T) {
		resp := update(t, env, token, actionID(sms), `{"agentId":`)
		resp.RequireError(t, http.StatusBadRequest)
	})
	t.Run("one answer names every broken rule", func(t *testing.T) {
		resp := update(t, env, token, actionID(ct), map[string]any{
			"locationId": acctA, "actionType": ct, "name": "x",
			"actionParameters": map[string]any{"transferToType": "queue", "transferToValue": "555"},
		})
		msg := resp.RequireError(t, http.StatusUnprocessableEntity)
		for _, want := range []string{"agentId is required", "actionParameters.triggerPrompt is required", "actionParameters.transferToType must be one of",
			"actionParameters.transferToValue must be a phone number", "actionParameters.triggerMessage is required"} {
			assert.Contains(t, msg, want)
		}
	})
}
